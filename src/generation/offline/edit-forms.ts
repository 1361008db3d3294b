import { themes } from "../../catalog/themes.ts";
import { layouts } from "../../rendering/layouts.ts";

// The instructions the offline editor understands, one clause at a time. Several clauses may be
// joined with "and", ";", new lines or sentences: "rename the deck to Q3 review and remove slide 4".
// Anything else is not guessed at: the edit answers 422 with this list.

export const SUPPORTED_FORMS = [
  'rename the deck to "<name>"',
  'change the summary to "<text>"',
  'change the title of slide <n> to "<text>"',
  'change the <placeholder> of slide <n> to "<text>" (text, subtitle, body, items, steps, quote…)',
  'replace "<old>" with "<new>" everywhere',
  "add a slide about <subject> [at position <n> | after slide <n> | before slide <n> | at the start | at the end]",
  "remove slide <n> (or slides <n> and <m>)",
  "move slide <n> to position <m> | to the start | to the end | after slide <m> | before slide <m>",
  `change slide <n> to a <layout> slide (layouts: ${layouts.map((l) => l.name).join(", ")})`,
  `switch the theme to <theme> (${themes.map((t) => t.name).join(", ")})`,
  "shorten the bullets [on slide <n>]",
  "expand the bullets [on slide <n>]",
  "refresh the numbers (from the latest entity data)",
  'add a discussion topic "<topic>"[: <details>]',
  'remove discussion topic <n> (or "<topic>")',
];

export type SlideRef = number | "last";

export type Intent =
  | { kind: "rename"; name: string }
  | { kind: "summary"; text: string }
  | { kind: "placeholder"; slide: SlideRef; key: string; value: string }
  | { kind: "replace"; from: string; to: string }
  | {
      kind: "addSlide";
      subject: string;
      position?: { at: number } | { after: SlideRef } | { before: SlideRef } | "start" | "end";
    }
  | { kind: "removeSlides"; slides: SlideRef[] }
  | {
      kind: "moveSlide";
      slide: SlideRef;
      to: { at: number } | { after: SlideRef } | { before: SlideRef } | "start" | "end";
    }
  | { kind: "layout"; slide: SlideRef; layout: string }
  | { kind: "theme"; themeId: string }
  | { kind: "shorten"; slide?: SlideRef }
  | { kind: "expand"; slide?: SlideRef }
  | { kind: "refresh" }
  | { kind: "addTopic"; topic: string; details?: string }
  | { kind: "removeTopic"; ref: number | string };

const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
];
const VERBS =
  "rename|call|change|set|replace|add|insert|remove|delete|drop|move|switch|use|make|turn|shorten|expand|refresh|update|retitle|put";

const SPLIT = new RegExp(
  String.raw`\n+|;\s*|(?<=[.!?])\s+(?=[A-Za-z])|,?\s+(?:and|then|also)\s+(?=(?:then\s+|also\s+|please\s+)*(?:${VERBS})\b)`,
  "gi",
);

/**
 * Splits instructions into clauses: at new lines, semicolons, sentence ends, and "and" before a
 * verb; never inside double quotes, so a quoted value may hold any of those.
 */
export function clauses(instructions: string): string[] {
  const quoted: [number, number][] = [];
  for (const m of instructions.matchAll(/"[^"]*"|“[^”]*”/g)) quoted.push([m.index, m.index + m[0].length]);
  const inQuotes = (i: number) => quoted.some(([a, b]) => i > a && i < b);
  const parts: string[] = [];
  let from = 0;
  for (const m of instructions.matchAll(SPLIT)) {
    if (inQuotes(m.index)) continue;
    parts.push(instructions.slice(from, m.index));
    from = m.index + m[0].length;
  }
  parts.push(instructions.slice(from));
  return parts
    .map((c) =>
      c
        .trim()
        .replace(/^(?:then|also|please|and)\s+/i, "")
        .replace(/[.!]+$/, "")
        .trim(),
    )
    .filter(Boolean);
}

const unquote = (text: string) =>
  text
    .trim()
    .replace(/^["“‘'](.*)["”’']$/s, "$1")
    .trim();

/** "3", "slide 3", "the third slide", "the last slide" → a slide reference. */
function slideRef(text: string): SlideRef | undefined {
  const t = text.trim().toLowerCase();
  const n = /^(?:slide\s+)?#?(\d{1,2})$/.exec(t)?.[1];
  if (n) return Number(n);
  const ord = /^(?:the\s+)?(\w+)\s+slide$/.exec(t)?.[1];
  if (ord === "last") return "last";
  const i = ORDINALS.indexOf(ord ?? "");
  return i >= 0 ? i + 1 : undefined;
}

const SLIDE = String.raw`(slide\s+#?\d{1,2}|the\s+\w+\s+slide)`;
const VALUE = "(.+)";

function position(text: string | undefined): Extract<Intent, { kind: "moveSlide" }>["to"] | undefined {
  if (!text) return undefined;
  const t = text.trim().toLowerCase();
  if (/^(?:to\s+)?(?:the\s+)?(?:start|beginning|front|top)$/.test(t)) return "start";
  if (/^(?:to\s+)?(?:the\s+)?(?:end|back|bottom)$/.test(t)) return "end";
  const at = /^(?:to\s+)?(?:position\s+)?(\d{1,2})$/.exec(t)?.[1];
  if (at) return { at: Number(at) };
  const rel = /^(after|before)\s+(.+)$/.exec(t);
  const ref = rel ? slideRef(rel[2] as string) : undefined;
  if (rel && ref !== undefined) return rel[1] === "after" ? { after: ref } : { before: ref };
  return undefined;
}

function layoutNamed(text: string): string | undefined {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/\s+(layout|slide)$/, "")
    .replace(/^(?:an?|the)\s+/, "")
    .replace(/\s+/g, "-");
  const aliases: Record<string, string> = {
    bar: "bar-chart",
    line: "line-chart",
    chart: "bar-chart",
    kpi: "metrics",
    kpis: "metrics",
    "two-columns": "two-column",
    columns: "two-column",
    list: "bullets",
    bullet: "bullets",
    cards: "metrics",
  };
  const name = aliases[t] ?? t;
  return layouts.some((l) => l.name === name) ? name : undefined;
}

function themeNamed(text: string): string | undefined {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/^the\s+/, "")
    .replace(/\s+theme$/, "");
  return themes.find((th) => th.id === t || th.name.toLowerCase() === t)?.id;
}

type Rule = { pattern: RegExp; intent(m: RegExpExecArray): Intent | undefined };
const rule = (source: string, intent: Rule["intent"]): Rule => ({
  pattern: new RegExp(`^${source}$`, "is"),
  intent,
});

const RULES: Rule[] = [
  rule(String.raw`(?:rename|call)\s+(?:the\s+)?(?:deck|presentation|it)\s+(?:to\s+|as\s+)?${VALUE}`, (m) => ({
    kind: "rename",
    name: unquote(m[1] as string),
  })),
  rule(
    String.raw`(?:change|set|update)\s+the\s+(?:deck|presentation)(?:'s)?\s+(?:name|title)\s+to\s+${VALUE}`,
    (m) => ({ kind: "rename", name: unquote(m[1] as string) }),
  ),
  rule(String.raw`(?:change|set|update|rewrite)\s+the\s+summary\s+to\s+${VALUE}`, (m) => ({
    kind: "summary",
    text: unquote(m[1] as string),
  })),
  rule(String.raw`(?:change|set|update)\s+the\s+(\w+)\s+(?:of|on)\s+${SLIDE}\s+to\s+${VALUE}`, (m) => {
    const slide = slideRef(m[2] as string);
    return slide === undefined
      ? undefined
      : { kind: "placeholder", slide, key: (m[1] as string).toLowerCase(), value: unquote(m[3] as string) };
  }),
  rule(String.raw`(?:change|set|update)\s+${SLIDE}(?:'s)?\s+(\w+)\s+to\s+${VALUE}`, (m) => {
    const slide = slideRef(m[1] as string);
    return slide === undefined
      ? undefined
      : { kind: "placeholder", slide, key: (m[2] as string).toLowerCase(), value: unquote(m[3] as string) };
  }),
  rule(String.raw`retitle\s+${SLIDE}\s+(?:to|as)\s+${VALUE}`, (m) => {
    const slide = slideRef(m[1] as string);
    return slide === undefined
      ? undefined
      : { kind: "placeholder", slide, key: "title", value: unquote(m[2] as string) };
  }),
  rule(
    String.raw`replace\s+(["“'‘].+?["”'’]|\S+)\s+with\s+(["“'‘].+?["”'’]|.+?)(?:\s+everywhere|\s+throughout(?:\s+the\s+deck)?|\s+on\s+every\s+slide)?`,
    (m) => ({ kind: "replace", from: unquote(m[1] as string), to: unquote(m[2] as string) }),
  ),
  rule(String.raw`change\s+(["“'‘].+?["”'’])\s+to\s+(["“'‘].+?["”'’])\s+everywhere`, (m) => ({
    kind: "replace",
    from: unquote(m[1] as string),
    to: unquote(m[2] as string),
  })),
  rule(
    String.raw`(?:add|insert|put)\s+(?:a\s+|an\s+|one\s+)?(?:new\s+)?slide\s+(?:about|on|covering|for)\s+(.+?)(?:\s+((?:at\s+)?(?:position\s+\d{1,2}|the\s+(?:start|beginning|end))|(?:after|before)\s+(?:slide\s+#?\d{1,2}|the\s+\w+\s+slide)))?`,
    (m) => {
      const where = m[2]?.replace(/^at\s+/i, "");
      const pos = where ? position(where) : undefined;
      if (where && !pos) return undefined;
      return { kind: "addSlide", subject: unquote(m[1] as string), ...(pos ? { position: pos } : {}) };
    },
  ),
  rule(String.raw`(?:remove|delete|drop)\s+(?:the\s+)?(slides?\s+.+|\w+\s+slide)`, (m) => {
    const text = (m[1] as string).replace(/^slides?\s+/i, "");
    const parts = /slide$/i.test(m[1] as string) ? [m[1] as string] : text.split(/\s*(?:,|\band\b|&)\s*/);
    const refs = parts.map((p) => slideRef(p));
    return refs.every((r) => r !== undefined) && refs.length
      ? { kind: "removeSlides", slides: refs as SlideRef[] }
      : undefined;
  }),
  rule(String.raw`move\s+${SLIDE}\s+(.+)`, (m) => {
    const slide = slideRef(m[1] as string);
    const to = position(m[2]);
    return slide !== undefined && to ? { kind: "moveSlide", slide, to } : undefined;
  }),
  rule(String.raw`(?:change|make|turn|convert)\s+${SLIDE}\s+(?:in)?to\s+(.+)`, (m) => {
    const slide = slideRef(m[1] as string);
    const layout = layoutNamed(m[2] as string);
    return slide !== undefined && layout ? { kind: "layout", slide, layout } : undefined;
  }),
  rule(String.raw`(?:change|set)\s+the\s+layout\s+of\s+${SLIDE}\s+to\s+(.+)`, (m) => {
    const slide = slideRef(m[1] as string);
    const layout = layoutNamed(m[2] as string);
    return slide !== undefined && layout ? { kind: "layout", slide, layout } : undefined;
  }),
  rule(String.raw`use\s+(?:the\s+|a\s+)?(.+?)\s+layout\s+(?:for|on)\s+${SLIDE}`, (m) => {
    const slide = slideRef(m[2] as string);
    const layout = layoutNamed(m[1] as string);
    return slide !== undefined && layout ? { kind: "layout", slide, layout } : undefined;
  }),
  rule(String.raw`(?:switch|change|set)\s+(?:the\s+)?theme\s+to\s+(.+)`, (m) => {
    const themeId = themeNamed(m[1] as string);
    return themeId ? { kind: "theme", themeId } : undefined;
  }),
  rule(String.raw`use\s+(?:the\s+)?(.+?)\s+theme`, (m) => {
    const themeId = themeNamed(m[1] as string);
    return themeId ? { kind: "theme", themeId } : undefined;
  }),
  rule(
    String.raw`(shorten|expand|tighten|trim|lengthen)\s+(?:the\s+|all\s+)?(?:bullets|bullet points|lists?|text)(?:\s+(?:on|of|in)\s+${SLIDE})?`,
    (m) => {
      const slide = m[2] ? slideRef(m[2]) : undefined;
      if (m[2] && slide === undefined) return undefined;
      const kind = /shorten|tighten|trim/i.test(m[1] as string) ? "shorten" : "expand";
      return slide === undefined ? { kind } : { kind, slide };
    },
  ),
  rule(
    String.raw`(?:refresh|update)\s+(?:all\s+)?(?:the\s+)?(?:numbers|figures|data|metrics)(?:\s+from\s+the\s+latest(?:\s+\w+)*)?`,
    () => ({ kind: "refresh" }),
  ),
  rule(
    String.raw`add\s+(?:a\s+)?(?:discussion\s+)?topic\s+(?:about\s+|on\s+)?(["“'‘].+?["”'’]|[^:]+?)(?:\s*[:–-]\s*(.+))?`,
    (m) => ({
      kind: "addTopic",
      topic: unquote(m[1] as string),
      ...(m[2] ? { details: unquote(m[2]) } : {}),
    }),
  ),
  rule(String.raw`(?:remove|delete|drop)\s+(?:the\s+)?(?:discussion\s+)?topic\s+(.+)`, (m) => {
    const text = unquote(m[1] as string);
    return { kind: "removeTopic", ref: /^#?\d{1,2}$/.test(text) ? Number(text.replace("#", "")) : text };
  }),
];

function firstIntent(clause: string): Intent | undefined {
  for (const r of RULES) {
    const m = r.pattern.exec(clause);
    const intent = m ? r.intent(m) : undefined;
    if (intent) return intent;
  }
  return undefined;
}

/** Each clause as an intent, or the clauses no form matched. */
export function parseEdit(instructions: string): { intents: Intent[]; unknown: string[] } {
  const intents: Intent[] = [];
  const unknown: string[] = [];
  for (const clause of clauses(instructions)) {
    const found = firstIntent(clause);
    if (found) intents.push(found);
    else unknown.push(clause);
  }
  return { intents, unknown };
}
