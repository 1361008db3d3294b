import type { DraftSlide } from "../deck-draft.ts";
import { clip } from "./format.ts";

// The general template without a language model: a clear outline built from the instructions'
// own content. Headings ("Goals:", "# Risks") become slides with the lines under them; a list of
// topics ("cover pricing, hiring and tooling") becomes one slide per topic with the sentences that
// mention it; otherwise the sentences are grouped, a few per slide. Nothing is added that the
// instructions did not say.

export type Outline = { title: string; sections: { title: string; points: string[] }[] };

const REQUEST =
  /^(please\s+)?(make|create|prepare|build|write|generate|draft|put together|produce|give me|i need)\b/i;
const ABOUT = /\b(?:about|on|covering|regarding|for)\s+(.+?)(?:[.!?]|$)/i;
const LIST =
  /^(?:please\s+)?(?:cover|include|discuss|address|explain|talk about|topics?:?|sections?:?)\s+(.+)$/i;
const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+/;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const tidy = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/^[\s,;:-]+|[\s,;:]+$/g, "")
    .trim();

function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => (BULLET.test(line) ? [line.replace(BULLET, "")] : line.split(/(?<=[.!?])\s+/)))
    .map(tidy)
    .filter((s) => s.length > 1);
}

function listItems(text: string): string[] {
  return text
    .replace(/[.!?]$/, "")
    .split(/,\s*(?:and\s+|or\s+)?|\s+and\s+|;\s*/i)
    .map(tidy)
    .filter((s) => s.length > 1 && s.length <= 80);
}

function titleFrom(sentence: string): string {
  const about = ABOUT.exec(sentence)?.[1];
  const base = about && REQUEST.test(sentence) ? about.replace(/^(the|a|an)\s+/i, "") : sentence;
  return clip(capitalize(tidy(base.replace(/[.!?]$/, ""))), 90);
}

/** A short title for a group of points: the first point's opening words. */
const titleOfPoints = (points: string[]) =>
  clip(capitalize((points[0] ?? "Notes").replace(/[.!?]$/, "")), 48);

export function outlineOf(instructions: string): Outline {
  const lines = instructions
    .split(/\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const all = sentencesOf(instructions);
  const first = all[0] ?? "Presentation";
  const framed = REQUEST.test(first);
  const title = titleFrom(first);
  const content = framed ? all.slice(1) : all;

  // 1. Headings with the lines under them.
  const headed: Outline["sections"] = [];
  for (const line of lines) {
    const heading =
      /^#+\s*(.+)$/.exec(line)?.[1] ?? (/^[^.!?]{2,60}:$/.test(line) ? line.slice(0, -1) : undefined);
    if (heading) headed.push({ title: clip(capitalize(tidy(heading)), 80), points: [] });
    else if (headed.length) headed.at(-1)?.points.push(...sentencesOf(line));
  }
  if (headed.length >= 2) return { title, sections: headed.filter((s) => s.points.length) };

  // 2. A list of topics, each with the sentences that mention it.
  const listSentence = content.find((s) => LIST.test(s));
  const topics = listSentence ? listItems(LIST.exec(listSentence)?.[1] ?? "") : [];
  if (topics.length >= 2) {
    const rest = content.filter((s) => s !== listSentence);
    return {
      title,
      sections: topics.map((t) => ({
        title: clip(capitalize(t), 80),
        points: rest.filter((s) =>
          s.toLowerCase().includes(t.toLowerCase().split(" ")[0] ?? t.toLowerCase()),
        ),
      })),
    };
  }

  // 3. The sentences, a few per slide.
  const perSlide = content.length > 12 ? 4 : 3;
  const sections: Outline["sections"] = [];
  for (let i = 0; i < content.length; i += perSlide) {
    const points = content.slice(i, i + perSlide);
    sections.push({ title: titleOfPoints(points), points });
  }
  return { title, sections };
}

/** Slides for an outline section: bullets when it has points, a divider when it has none. */
export function sectionSlide(section: Outline["sections"][number]): DraftSlide {
  return section.points.length
    ? {
        layoutName: "bullets",
        placeholders: { title: section.title, body: section.points.map((p) => clip(p, 200)).join("\n") },
      }
    : { layoutName: "section", placeholders: { title: section.title } };
}
