import { findTheme } from "../catalog/catalog.ts";
import { AppError } from "../errors.ts";
import { checkSlide, findLayout, layouts } from "../rendering/layouts.ts";
import type { DeckSnapshot } from "../storage/schema.ts";

// A deck being changed, in memory: the only place slides, topics, name, summary and theme are
// modified. Every change is validated against the layout catalog and answers one line saying
// what changed; a generation or an edit commits the draft and its lines as one revision.
// Slide and topic numbers are 1-based, as people (and language models) count.

export type Draft = DeckSnapshot;
export type DraftSlide = Draft["slides"][number];
export type DraftTopic = Draft["topics"][number];

const MAX_SLIDES = 50;
const MAX_TOPICS = 20;

const quote = (text: string, max = 60) => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
const invalid = (message: string) => new AppError("invalid_request", message);

/** A slide's title, or its first text, for change lines. */
export function slideLabel(slide: DraftSlide): string {
  const p = slide.placeholders;
  return p.title ?? p.quote ?? Object.values(p)[0] ?? slide.layoutName;
}

function checked(slide: DraftSlide, position: number): DraftSlide {
  const { problems } = checkSlide({ index: position - 1, ...slide });
  if (problems.length)
    throw new AppError("invalid_request", problems.map((p) => p.message).join("; "), problems);
  return slide;
}

function cleanPlaceholders(placeholders: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(placeholders).filter(([, v]) => v.trim() !== ""));
}

// When a slide changes layout, a list stays a list and a title stays a title.
const LIST_KEYS = ["body", "items", "steps", "left", "right"];

export class DeckDraft {
  readonly changes: string[] = [];
  constructor(readonly deck: Draft) {}

  static empty(themeId: string): DeckDraft {
    return new DeckDraft({ name: "Untitled presentation", summary: "", themeId, slides: [], topics: [] });
  }

  private record(line: string): string {
    this.changes.push(line);
    return line;
  }

  private slideAt(n: number): DraftSlide {
    const slide = this.deck.slides[n - 1];
    if (!Number.isInteger(n) || !slide) {
      throw invalid(`There is no slide ${n}; the deck has ${this.deck.slides.length} slides`);
    }
    return slide;
  }

  private topicAt(n: number): DraftTopic {
    const topic = this.deck.topics[n - 1];
    if (!Number.isInteger(n) || !topic) {
      throw invalid(`There is no discussion topic ${n}; the deck has ${this.deck.topics.length}`);
    }
    return topic;
  }

  setName(name: string): string {
    const clean = name.trim();
    if (!clean || clean.length > 200) throw invalid("A deck's name must be 1 to 200 characters");
    this.deck.name = clean;
    return this.record(`Renamed the deck to ${quote(clean, 200)}`);
  }

  setSummary(summary: string): string {
    const clean = summary.trim();
    if (clean.length > 2000) throw invalid("A summary is at most 2,000 characters");
    this.deck.summary = clean;
    return this.record("Rewrote the summary");
  }

  setTheme(themeId: string): string {
    const theme = findTheme(themeId);
    if (!theme) throw invalid(`Unknown theme "${themeId}"; GET /v1/themes lists them`);
    this.deck.themeId = theme.id;
    return this.record(`Switched the theme to ${theme.name}`);
  }

  setPlaceholder(slideNumber: number, key: string, value: string): string {
    const slide = this.slideAt(slideNumber);
    const placeholders = cleanPlaceholders({ ...slide.placeholders, [key]: value });
    const next = checked({ layoutName: slide.layoutName, placeholders }, slideNumber);
    this.deck.slides[slideNumber - 1] = next;
    return this.record(
      value.trim()
        ? `Slide ${slideNumber}: set ${key} to ${quote(value.replace(/\n/g, " / "))}`
        : `Slide ${slideNumber}: cleared ${key}`,
    );
  }

  addSlide(layoutName: string, placeholders: Record<string, string>, position?: number): string {
    if (this.deck.slides.length >= MAX_SLIDES) throw invalid(`A deck has at most ${MAX_SLIDES} slides`);
    const at = position ?? this.deck.slides.length + 1;
    if (!Number.isInteger(at) || at < 1 || at > this.deck.slides.length + 1) {
      throw invalid(`A new slide goes at a position from 1 to ${this.deck.slides.length + 1}`);
    }
    const slide = checked({ layoutName, placeholders: cleanPlaceholders(placeholders) }, at);
    this.deck.slides.splice(at - 1, 0, slide);
    return this.record(`Added a ${layoutName} slide ${quote(slideLabel(slide))} at position ${at}`);
  }

  removeSlide(slideNumber: number): string {
    const slide = this.slideAt(slideNumber);
    if (this.deck.slides.length === 1) throw invalid("A deck keeps at least one slide");
    this.deck.slides.splice(slideNumber - 1, 1);
    return this.record(`Removed slide ${slideNumber} (${quote(slideLabel(slide))})`);
  }

  moveSlide(from: number, to: number): string {
    const slide = this.slideAt(from);
    if (!Number.isInteger(to) || to < 1 || to > this.deck.slides.length) {
      throw invalid(`Slides move to a position from 1 to ${this.deck.slides.length}`);
    }
    this.deck.slides.splice(from - 1, 1);
    this.deck.slides.splice(to - 1, 0, slide);
    return this.record(`Moved slide ${from} (${quote(slideLabel(slide))}) to position ${to}`);
  }

  /** Changes a slide's layout, carrying over the title and any list; `placeholders` fill the rest. */
  changeLayout(slideNumber: number, layoutName: string, placeholders: Record<string, string> = {}): string {
    const slide = this.slideAt(slideNumber);
    const layout = findLayout(layoutName);
    if (!layout)
      throw invalid(`Unknown layout "${layoutName}"; use one of ${layouts.map((l) => l.name).join(", ")}`);
    const carried: Record<string, string> = {};
    const list = LIST_KEYS.map((k) => slide.placeholders[k]).find(Boolean);
    for (const key of Object.keys(layout.placeholders)) {
      if (slide.placeholders[key]) carried[key] = slide.placeholders[key];
      else if (LIST_KEYS.includes(key) && list && !Object.values(carried).includes(list)) carried[key] = list;
    }
    // One list into two columns: the first half on the left, the rest on the right.
    if (layout.placeholders.right && carried.left && !carried.right && !placeholders.right) {
      const items = carried.left.split("\n").filter((l) => l.trim());
      if (items.length >= 2) {
        const half = Math.ceil(items.length / 2);
        carried.left = items.slice(0, half).join("\n");
        carried.right = items.slice(half).join("\n");
      }
    }
    const next = checked(
      { layoutName, placeholders: cleanPlaceholders({ ...carried, ...placeholders }) },
      slideNumber,
    );
    this.deck.slides[slideNumber - 1] = next;
    return this.record(`Slide ${slideNumber}: changed the layout from ${slide.layoutName} to ${layoutName}`);
  }

  addDiscussionTopic(topic: DraftTopic): string {
    if (this.deck.topics.length >= MAX_TOPICS)
      throw invalid(`A deck has at most ${MAX_TOPICS} discussion topics`);
    const clean = validTopic(topic);
    this.deck.topics.push(clean);
    return this.record(`Added discussion topic ${quote(clean.topic)}`);
  }

  updateDiscussionTopic(n: number, changes: Partial<DraftTopic>): string {
    const current = this.topicAt(n);
    const next = validTopic({ ...current, ...changes });
    this.deck.topics[n - 1] = next;
    return this.record(`Updated discussion topic ${n} (${quote(next.topic)})`);
  }

  removeDiscussionTopic(n: number): string {
    const topic = this.topicAt(n);
    this.deck.topics.splice(n - 1, 1);
    return this.record(`Removed discussion topic ${n} (${quote(topic.topic)})`);
  }
}

function validTopic(t: DraftTopic): DraftTopic {
  const topic = t.topic.trim();
  const details = t.details.trim();
  if (!topic || topic.length > 200) throw invalid("A discussion topic needs a title of 1 to 200 characters");
  if (!details || details.length > 2000)
    throw invalid("A discussion topic needs details of 1 to 2,000 characters");
  const notes = t.notes?.trim();
  return notes ? { topic, details, notes: notes.slice(0, 2000) } : { topic, details };
}
