import { findTheme } from "../catalog/catalog.ts";
import { DEFAULT_THEME_ID, type Theme } from "../catalog/themes.ts";
import type { DiscussionTopic, PresentationDetail } from "../presentations/presentation-schemas.ts";
import { layoutSlide, type SlideGeometry } from "./geometry.ts";
import { parseSlides } from "./layouts.ts";
import { writeHtml } from "./writers/html-writer.ts";
import { writePdf } from "./writers/pdf-writer.ts";
import { writePptx } from "./writers/pptx-writer.ts";

// From a deck in the API's PresentationDetail shape to geometry, then to each format.

export type RenderableDeck = Pick<PresentationDetail, "name" | "slides" | "discussionTopics"> & {
  themeId?: string;
};

export function themeOf(deck: { themeId?: string }): Theme {
  return findTheme(deck.themeId) ?? (findTheme(DEFAULT_THEME_ID) as Theme);
}

/** Every slide's geometry; throws one 400 naming each bad slide and key. */
export function deckGeometry(deck: RenderableDeck): SlideGeometry[] {
  const theme = themeOf(deck);
  return parseSlides(deck.slides).map((s) => layoutSlide(s, theme));
}

/** Discussion topics as plain text, for speaker notes. */
export function topicsText(topics: DiscussionTopic[]): string {
  return topics
    .map((t, i) => `${i + 1}. ${t.topic}\n${t.details}${t.notes ? `\nNotes: ${t.notes}` : ""}`)
    .join("\n\n");
}

export async function renderPptx(deck: RenderableDeck): Promise<Buffer> {
  const topics = deck.discussionTopics.length
    ? `Discussion topics\n\n${topicsText(deck.discussionTopics)}`
    : undefined;
  return writePptx({ name: deck.name, slides: deckGeometry(deck), notes: topics });
}

/**
 * A PDF has no speaker notes, so discussion topics get a page of their own at the end, laid out
 * like any bullets slide.
 */
export async function renderPdf(deck: RenderableDeck): Promise<Buffer> {
  const slides = deckGeometry(deck);
  if (deck.discussionTopics.length > 0) {
    const items = deck.discussionTopics.map((t) => `${t.topic}: ${t.details}`).join("\n");
    const [topics] = parseSlides([
      {
        index: slides.length,
        layoutName: "bullets",
        placeholders: { title: "Discussion topics", body: items.slice(0, 4000) },
      },
    ]);
    if (topics) slides.push(layoutSlide(topics, themeOf(deck)));
  }
  return writePdf({ name: deck.name, slides });
}

/** A standalone HTML file of the deck (fonts embedded). */
export function renderHtml(deck: RenderableDeck): string {
  return writeHtml({ name: deck.name, slides: deckGeometry(deck) });
}
