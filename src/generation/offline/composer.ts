import { AppError } from "../../errors.ts";
import { checkSlide } from "../../rendering/layouts.ts";
import type { GenerationRequest } from "../../storage/schema.ts";
import type { Draft, DraftSlide } from "../deck-draft.ts";
import type { EntityHit } from "../deck-tools.ts";
import type { ComposeProgress } from "../generation-service.ts";
import { type Blueprint, blueprints } from "./blueprints.ts";
import {
  byDate,
  type Note,
  type Opportunity,
  type Record_,
  toContact,
  toNote,
  toOpportunity,
} from "./facts.ts";
import { cell, clip, money } from "./format.ts";
import { outlineOf, sectionSlide } from "./outline.ts";
import { agendaSlide, type Dossier, discussionTopics, titleSlide, toneOf } from "./sections.ts";

// The offline composer: a grounded deck from a template's blueprint and the workspace's data,
// with no language model. The same request over the same data always gives the same deck.

/** What the composer reads, scoped to one workspace. */
export type WorkspaceReader = {
  search(query: string, types?: string[], limit?: number): Promise<EntityHit[]>;
  get(id: string): Promise<Record_ | undefined>;
  linkedTo(id: string, types?: string[]): Promise<Record_[]>;
  ofType(type: string): Promise<Record_[]>;
};

/** Languages the offline composer writes; any other needs a language model (LLM_PROVIDER). */
export const OFFLINE_LANGUAGES = /^(en|en-[a-z]{2}|english)$/i;

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/**
 * The entity the instructions are about: its full name in the instructions wins; otherwise the
 * candidate sharing the most words with them (words no other candidate has count double),
 * provided it shares a word only it has, or two words.
 */
export function pickSubject<T extends { name: string }>(
  instructions: string,
  candidates: T[],
): T | undefined {
  const text = instructions.toLowerCase();
  const exact = candidates
    .filter((c) => text.includes(c.name.toLowerCase()))
    .sort((a, b) => b.name.length - a.name.length);
  if (exact[0]) return exact[0];
  const said = new Set(words(instructions));
  const frequency = new Map<string, number>();
  for (const c of candidates)
    for (const w of new Set(words(c.name))) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  let best: { c: T; score: number } | undefined;
  for (const c of candidates) {
    const matched = [...new Set(words(c.name))].filter((w) => w.length >= 3 && said.has(w));
    // One shared common word ("hospital") is not enough: a word only this name has, or two words.
    const distinctive = matched.some((w) => w.length >= 4 && frequency.get(w) === 1);
    if (!distinctive && matched.length < 2) continue;
    const score = matched.reduce((a, w) => a + (frequency.get(w) === 1 ? 2 : 1), 0);
    if (!best || score > best.score) best = { c, score };
  }
  return best?.c;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

async function findSubject(req: GenerationRequest, type: string, reader: WorkspaceReader): Promise<Record_> {
  const candidates = await reader.search(req.instructions, [type], 20);
  const subject = pickSubject(req.instructions, candidates);
  const found = subject && (await reader.get(subject.id));
  if (found) return found;
  const examples = candidates.slice(0, 3).map((c) => `"${c.name}"`);
  throw new AppError(
    "invalid_request",
    candidates.length
      ? `The instructions do not name ${article(type)} of this workspace; name one, for example ${examples.join(", ")}`
      : `This template needs ${article(type)}, and the workspace has none; load your data with POST /v1/entities`,
  );
}

async function dossierFor(
  req: GenerationRequest,
  blueprint: Blueprint,
  reader: WorkspaceReader,
): Promise<Dossier> {
  const mentioned = (name: string) => req.instructions.toLowerCase().includes(name.toLowerCase());
  const base = { tone: toneOf(req.tone), audience: req.audience?.trim() || undefined, mentioned };
  const notesOf = (records: Record_[]) =>
    records
      .filter((r) => r.type === "note")
      .map(toNote)
      .sort(byDate<Note>((n) => n.date));
  if (blueprint.subject === "workspace") {
    const [opps, notes, accounts] = await Promise.all([
      reader.ofType("opportunity"),
      reader.ofType("note"),
      reader.ofType("account"),
    ]);
    const accountIds = new Set(accounts.map((a) => a.id));
    return {
      ...base,
      opportunities: opps.map((o) => toOpportunity(o, accountIds)),
      contacts: [],
      notes: notesOf(notes),
    };
  }
  let account: Record_ | undefined;
  let dealRecord: Record_ | undefined;
  if (blueprint.subject === "opportunity") {
    dealRecord = await findSubject(req, "opportunity", reader);
    for (const id of dealRecord.links) {
      const linked = await reader.get(id);
      if (linked?.type === "account") {
        account = linked;
        break;
      }
    }
  } else {
    account = await findSubject(req, "account", reader);
  }
  const linked = [
    ...(account ? await reader.linkedTo(account.id, ["contact", "opportunity", "note"]) : []),
    ...(dealRecord ? await reader.linkedTo(dealRecord.id, ["note", "contact"]) : []),
  ];
  const unique = [...new Map(linked.map((r) => [r.id, r])).values()];
  const accountIds = new Set(account ? [account.id] : []);
  const opportunities = unique
    .filter((r) => r.type === "opportunity")
    .map((r) => toOpportunity(r, accountIds));
  if (dealRecord && !opportunities.some((o) => o.id === dealRecord.id))
    opportunities.push(toOpportunity(dealRecord, accountIds));
  return {
    ...base,
    account,
    deal: dealRecord ? opportunities.find((o) => o.id === dealRecord.id) : undefined,
    opportunities: opportunities.sort(byDate<Opportunity>((o) => o.closeDate)),
    contacts: unique
      .filter((r) => r.type === "contact")
      .map(toContact)
      .sort((a, b) => a.name.localeCompare(b.name)),
    notes: notesOf(unique),
  };
}

/** A slide the layout catalog accepts, or undefined: odd data never makes a deck unrenderable. */
const valid = (slide: DraftSlide | undefined) =>
  slide && checkSlide({ index: 0, ...slide }).problems.length === 0 ? slide : undefined;

/** Keeps the title, then the most important slides up to the count, in the blueprint's order. */
function selectSlides(blueprint: Blueprint, d: Dossier, slideCount: number | undefined): DraftSlide[] {
  const built = blueprint.sections
    .map((section, order) => ({
      section,
      order,
      slide: section.agenda ? undefined : valid(section.build(d)),
    }))
    .filter((b) => b.slide || b.section.agenda);
  const kept = [...built]
    .sort((a, b) => a.section.priority - b.section.priority || a.order - b.order)
    .slice(0, Math.max(0, (slideCount ?? built.length + 1) - 1))
    .sort((a, b) => a.order - b.order);
  let body = kept.flatMap((k) => (k.slide ? [k.slide] : []));
  // More slides asked for than the sections fill: grounded extras, before the closing slide.
  const agendaKept = kept.some((k) => k.section.agenda);
  const room = slideCount ? slideCount - 1 - body.length - (agendaKept ? 1 : 0) : 0;
  if (room > 0) {
    const closingAt = body.findIndex((s) => s.layoutName === "closing");
    const extras = blueprint
      .extras(d)
      .filter((s) => valid(s))
      .slice(0, room);
    body =
      closingAt < 0
        ? [...body, ...extras]
        : [...body.slice(0, closingAt), ...extras, ...body.slice(closingAt)];
  }
  if (kept.some((k) => k.section.agenda)) {
    const agenda = agendaSlide(
      body.filter((s) => s.layoutName !== "closing").map((s) => s.placeholders.title ?? ""),
    );
    if (agenda) body.unshift(agenda);
  }
  return [titleSlide(blueprint.title(d), blueprint.subtitle(d), d), ...body];
}

function shortfall(asked: number | undefined, made: number): string {
  return asked && made < asked
    ? ` ${made} slides rather than ${asked}: the workspace has no more data for this deck.`
    : "";
}

async function composeGeneral(req: GenerationRequest, reader: WorkspaceReader): Promise<Draft> {
  const outline = outlineOf(req.instructions);
  const d: Dossier = {
    tone: toneOf(req.tone),
    audience: req.audience,
    mentioned: () => false,
    opportunities: [],
    contacts: [],
    notes: [],
  };
  let sections = outline.sections.map(sectionSlide);
  // Workspace records the instructions name, with their facts.
  const hits = await reader.search(req.instructions, undefined, 10);
  const named = hits.filter(
    (h) => h.name.length >= 4 && req.instructions.toLowerCase().includes(h.name.toLowerCase()),
  );
  if (named.length) {
    const records = (await Promise.all(named.slice(0, 5).map((h) => reader.get(h.id)))).filter(
      (r): r is Record_ => Boolean(r),
    );
    const facts = records.map((r) => {
      const values = Object.entries(r.fields)
        .filter(([, v]) => v !== null && v !== "")
        .slice(0, 4)
        .map(([k, v]) => `${k} ${typeof v === "number" && /amount|revenue|value/i.test(k) ? money(v) : v}`);
      return clip(`${cell(r.name)} (${r.type})${values.length ? `: ${values.join(", ")}` : ""}`, 200);
    });
    sections.push({
      layoutName: "bullets",
      placeholders: { title: "From your workspace", body: facts.join("\n") },
    });
  }
  const room = req.slideCount ? req.slideCount - 1 : sections.length + 2;
  const withAgenda = sections.length >= 3 && room >= sections.length + 1;
  sections = sections.slice(0, withAgenda ? room - 1 : room);
  const titles = sections.map((s) => s.placeholders.title ?? "").filter(Boolean);
  const closing: DraftSlide | undefined =
    room > sections.length + (withAgenda ? 1 : 0) && titles.length >= 2
      ? {
          layoutName: "closing",
          placeholders: {
            title: d.tone === "casual" ? "Wrapping up" : "Summary",
            steps: titles.map((t) => clip(t, 100)).join("\n"),
          },
        }
      : undefined;
  const agenda = withAgenda ? agendaSlide(titles) : undefined;
  const slides = [
    titleSlide(outline.title, [], d),
    ...(agenda ? [agenda] : []),
    ...sections,
    ...(closing ? [closing] : []),
  ];
  return {
    name: outline.title,
    summary: `${outline.title}: ${titles.length} topic${titles.length === 1 ? "" : "s"} from the instructions (${clip(titles.join(", "), 240)}).${shortfall(req.slideCount, slides.length)}`,
    themeId: req.themeId,
    slides,
    topics: [],
  };
}

/** Tells the progress stream about the slides, as a language model's composer does slide by slide. */
function reportSlides(slides: DraftSlide[], progress: ComposeProgress | undefined) {
  const titles = slides.map((s) => s.placeholders.title ?? s.placeholders.quote ?? s.layoutName);
  if (!progress) return;
  progress.outline(titles);
  titles.forEach((title, i) => {
    progress.slide(i + 1, titles.length, title);
  });
}

export async function composeOffline(
  req: GenerationRequest,
  reader: WorkspaceReader,
  progress?: ComposeProgress,
): Promise<Draft> {
  if (req.language && !OFFLINE_LANGUAGES.test(req.language.trim())) {
    throw new AppError(
      "invalid_request",
      `The built-in composer writes English only; set LLM_PROVIDER to generate in "${req.language}"`,
    );
  }
  const blueprint = blueprints[req.templateId];
  if (!blueprint) {
    const deck = await composeGeneral(req, reader);
    reportSlides(deck.slides, progress);
    return deck;
  }
  const d = await dossierFor(req, blueprint, reader);
  const slides = selectSlides(blueprint, d, req.slideCount);
  reportSlides(slides, progress);
  const title = slides[0]?.placeholders.title ?? "Presentation";
  return {
    name: title,
    summary: `${blueprint.summary(d)}.${shortfall(req.slideCount, slides.length)}`,
    themeId: req.themeId,
    slides,
    topics: discussionTopics(d),
  };
}
