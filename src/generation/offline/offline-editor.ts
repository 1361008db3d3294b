import { AppError } from "../../errors.ts";
import type { DeckDraft, Draft, DraftSlide } from "../deck-draft.ts";
import type { Research } from "../deck-tools.ts";
import { type Intent, parseEdit, type SlideRef, SUPPORTED_FORMS } from "./edit-forms.ts";
import { clip, firstSentence, money } from "./format.ts";

// The edit planner without a language model: each understood clause becomes deck-tool calls on
// the draft, in order, so slide numbers in a later clause refer to the deck as earlier clauses
// left it. If any clause is not understood, nothing is changed.

export type EditEnv = {
  draft: DeckDraft;
  research: Research;
  /** The deck composed again from its original request over today's data, for "refresh". */
  recompose?: () => Promise<Draft>;
};

const LIST_KEYS = ["body", "items", "steps", "left", "right"];
const DATA_LAYOUTS = new Set(["metrics", "table", "bar-chart", "line-chart", "people", "timeline"]);
const DATA_KEYS = ["metrics", "table", "chart", "people", "events", "caption"];

function resolve(draft: DeckDraft, ref: SlideRef): number {
  return ref === "last" ? draft.deck.slides.length : ref;
}

function slideAt(draft: DeckDraft, n: number): DraftSlide {
  const slide = draft.deck.slides[n - 1];
  if (!slide)
    throw new AppError(
      "invalid_request",
      `There is no slide ${n}; the deck has ${draft.deck.slides.length} slides`,
    );
  return slide;
}

/** "text" and "body" mean a slide's main text, whatever its layout calls it. */
function placeholderKey(slide: DraftSlide, word: string): string {
  const main: Record<string, string> = {
    bullets: "body",
    agenda: "items",
    closing: "steps",
    quote: "quote",
    title: "subtitle",
    section: "subtitle",
    "two-column": "left",
  };
  if (word === "title" && slide.layoutName === "quote") return "quote";
  if (["text", "body", "content", "bullets", "points"].includes(word)) return main[slide.layoutName] ?? word;
  return word;
}

function position(
  draft: DeckDraft,
  where: Extract<Intent, { kind: "moveSlide" }>["to"] | undefined,
  adding: boolean,
): number {
  const count = draft.deck.slides.length;
  const end = adding ? count + 1 : count;
  if (where === undefined || where === "end") return end;
  if (where === "start") return 1;
  if ("at" in where) return where.at;
  if ("after" in where) return resolve(draft, where.after) + (adding ? 1 : 0);
  return resolve(draft, where.before) - (adding ? 0 : 1);
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
/** The first clause of a bullet, at most about 60 characters. */
const shortened = (line: string) => clip(line.split(/;|\s[–—-]\s|\s\(|:\s(?=[A-Z])/)[0] ?? line, 60);

async function addSlideAbout(env: EditEnv, subject: string, at: number) {
  const hits = (await env.research.search(subject, undefined, 5)).slice(0, 4);
  if (hits.length === 0)
    throw new AppError(
      "invalid_request",
      `Found nothing about "${subject}" in the workspace to put on a slide`,
    );
  const facts = hits.map((h) => {
    const values = Object.entries(h.fields)
      .filter(([, v]) => v !== null && v !== "" && typeof v !== "object")
      .slice(0, 3)
      .map(([k, v]) => `${k} ${typeof v === "number" && /amount|revenue|value/i.test(k) ? money(v) : v}`);
    const detail = h.snippet ? firstSentence(h.snippet.replace(/\*\*/g, "")) : values.join(", ");
    return clip(`${h.name}${detail ? `: ${detail}` : ""}`, 160);
  });
  const title = clip(subject.charAt(0).toUpperCase() + subject.slice(1), 200);
  env.draft.addSlide("bullets", { title, body: facts.join("\n") }, at);
}

async function refresh(env: EditEnv) {
  if (!env.recompose) {
    throw new AppError(
      "invalid_request",
      "This deck was not generated from workspace data, so it has no numbers to refresh",
    );
  }
  const fresh = await env.recompose();
  const { draft } = env;
  let changed = 0;
  draft.deck.slides.forEach((slide, i) => {
    if (!DATA_LAYOUTS.has(slide.layoutName)) return;
    const match = fresh.slides.find(
      (f) => f.layoutName === slide.layoutName && f.placeholders.title === slide.placeholders.title,
    );
    if (!match) return;
    for (const key of DATA_KEYS) {
      const now = match.placeholders[key];
      if (now !== undefined && now !== slide.placeholders[key]) {
        draft.setPlaceholder(i + 1, key, now);
        changed++;
      }
    }
  });
  if (fresh.summary && fresh.summary !== draft.deck.summary && changed > 0) draft.setSummary(fresh.summary);
}

async function apply(env: EditEnv, intent: Intent): Promise<void> {
  const { draft } = env;
  switch (intent.kind) {
    case "rename":
      draft.setName(intent.name);
      return;
    case "summary":
      draft.setSummary(intent.text);
      return;
    case "placeholder": {
      const n = resolve(draft, intent.slide);
      draft.setPlaceholder(n, placeholderKey(slideAt(draft, n), intent.key), intent.value);
      return;
    }
    case "replace": {
      const swap = (text: string) => text.split(intent.from).join(intent.to);
      const before = draft.changes.length;
      if (draft.deck.name.includes(intent.from)) draft.setName(swap(draft.deck.name));
      if (draft.deck.summary.includes(intent.from)) draft.setSummary(swap(draft.deck.summary));
      draft.deck.slides.forEach((slide, i) => {
        for (const [key, value] of Object.entries(slide.placeholders)) {
          if (value.includes(intent.from)) draft.setPlaceholder(i + 1, key, swap(value));
        }
      });
      draft.deck.topics.forEach((t, i) => {
        if ([t.topic, t.details, t.notes ?? ""].some((v) => v.includes(intent.from))) {
          draft.updateDiscussionTopic(i + 1, {
            topic: swap(t.topic),
            details: swap(t.details),
            ...(t.notes ? { notes: swap(t.notes) } : {}),
          });
        }
      });
      if (draft.changes.length === before)
        throw new AppError("invalid_request", `"${intent.from}" does not appear in the deck`);
      return;
    }
    case "addSlide":
      await addSlideAbout(env, intent.subject, position(draft, intent.position, true));
      return;
    case "removeSlides":
      // Numbers refer to the deck before this clause: remove from the back.
      for (const n of [...new Set(intent.slides.map((r) => resolve(draft, r)))].sort((a, b) => b - a))
        draft.removeSlide(n);
      return;
    case "moveSlide":
      draft.moveSlide(resolve(draft, intent.slide), position(draft, intent.to, false));
      return;
    case "layout":
      draft.changeLayout(resolve(draft, intent.slide), intent.layout);
      return;
    case "theme":
      draft.setTheme(intent.themeId);
      return;
    case "shorten":
    case "expand": {
      const targets =
        intent.slide === undefined ? draft.deck.slides.map((_, i) => i + 1) : [resolve(draft, intent.slide)];
      for (const n of targets) {
        const slide = slideAt(draft, n);
        for (const key of LIST_KEYS.filter((k) => slide.placeholders[k])) {
          const current = lines(slide.placeholders[key] as string);
          let next = current;
          if (intent.kind === "shorten") next = current.slice(0, 4).map(shortened);
          else if (key !== "right" && current.length < 6) {
            const hits = await env.research.search(slide.placeholders.title ?? current[0] ?? "", ["note"], 4);
            const extra = hits
              .map((h) =>
                clip(firstSentence((h.snippet ?? h.name).replace(/\*\*/g, "").replace(/^…/, "")), 140),
              )
              .filter((line) => !current.some((c) => c.includes(line.slice(0, 30))));
            next = [...current, ...extra.slice(0, Math.min(2, 6 - current.length))];
          }
          if (next.join("\n") !== current.join("\n")) draft.setPlaceholder(n, key, next.join("\n"));
        }
      }
      return;
    }
    case "refresh":
      await refresh(env);
      return;
    case "addTopic": {
      let details = intent.details;
      let notes: string | undefined;
      if (!details) {
        const [note] = await env.research.search(intent.topic, ["note"], 1);
        details = note
          ? clip(firstSentence((note.snippet ?? note.name).replace(/\*\*/g, "")), 300)
          : `Discuss ${intent.topic}`;
        notes = note ? `Source: ${note.name}` : undefined;
      }
      draft.addDiscussionTopic({ topic: intent.topic, details, ...(notes ? { notes } : {}) });
      return;
    }
    case "removeTopic": {
      const ref = intent.ref;
      const n =
        typeof ref === "number"
          ? ref
          : draft.deck.topics.findIndex((t) => t.topic.toLowerCase().includes(ref.toLowerCase())) + 1;
      if (n < 1) throw new AppError("invalid_request", `No discussion topic matches "${ref}"`);
      draft.removeDiscussionTopic(n);
      return;
    }
  }
}

/** Applies the instructions to the draft, or throws 422 listing what was not understood. */
export async function editOffline(env: EditEnv, instructions: string): Promise<void> {
  const { intents, unknown } = parseEdit(instructions);
  if (unknown.length > 0 || intents.length === 0) {
    const what = unknown.length ? unknown.map((u) => `"${clip(u, 120)}"`).join(", ") : "nothing to do";
    throw new AppError(
      "edit_not_understood",
      `Not understood: ${what}. Nothing was changed. The built-in editor understands the forms listed in supportedForms; set LLM_PROVIDER for free-form edits.`,
      unknown.map((u) => ({ path: "instructions", message: `not understood: ${clip(u, 200)}` })),
      SUPPORTED_FORMS,
    );
  }
  for (const intent of intents) await apply(env, intent);
}
