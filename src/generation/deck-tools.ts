import { z } from "zod";
import { themes } from "../catalog/themes.ts";
import { formatDescriptions, layouts } from "../rendering/layouts.ts";
import type { DeckDraft, Draft } from "./deck-draft.ts";

// The deck tools: what an agent (a language model, the offline edit planner, later MCP clients)
// may do to a deck. Each has a description and a zod input schema, and answers one line of text;
// the changing ones go through DeckDraft, which validates and records the change.

export type EntityHit = {
  id: string;
  type: string;
  name: string;
  fields: Record<string, unknown>;
  snippet?: string;
};

/** Read access to the workspace's entities, already scoped to the caller. */
export type Research = {
  search(query: string, types?: string[], limit?: number): Promise<EntityHit[]>;
  get(id: string): Promise<(EntityHit & { body: string; links: string[] }) | undefined>;
};

export type ToolEnv = { draft: DeckDraft; research: Research };

type ToolSpec<S extends z.ZodType> = {
  description: string;
  input: S;
  /** Whether the tool changes the deck. */
  changes: boolean;
  run(env: ToolEnv, input: z.output<S>): string | Promise<string>;
};
const defineTool = <S extends z.ZodType>(spec: ToolSpec<S>) => spec;

const slideNumber = z.number().int().min(1).describe("Slide number, counting from 1");
const topicNumber = z.number().int().min(1).describe("Discussion topic number, counting from 1");
const placeholders = z
  .record(z.string(), z.string())
  .describe("Placeholder values by key; see the layout catalog in readDeck for keys and formats");

/** The deck as text a model (or a person) can read: slides with their placeholders, topics. */
export function deckAsText(deck: Draft): string {
  const slides = deck.slides.map((s, i) => {
    const values = Object.entries(s.placeholders).map(([k, v]) => `  ${k}: ${v.replace(/\n/g, "\n    ")}`);
    return `Slide ${i + 1} (${s.layoutName})\n${values.join("\n")}`;
  });
  const topics = deck.topics.map(
    (t, i) => `${i + 1}. ${t.topic}: ${t.details}${t.notes ? ` (notes: ${t.notes})` : ""}`,
  );
  return [
    `Name: ${deck.name}`,
    `Summary: ${deck.summary || "(none)"}`,
    `Theme: ${deck.themeId}`,
    "",
    ...slides,
    "",
    "Discussion topics:",
    ...(topics.length ? topics : ["(none)"]),
  ].join("\n");
}

/** The layouts and placeholder formats, for prompts and tool descriptions. */
export function layoutCatalogText(): string {
  return layouts
    .map((l) => {
      const keys = Object.entries(l.placeholders).map(
        ([k, p]) => `${k}${p.required ? "" : "?"} (${formatDescriptions[p.format]})`,
      );
      return `- ${l.name}: ${l.description}. Placeholders: ${keys.join("; ")}`;
    })
    .join("\n");
}

export const deckTools = {
  readDeck: defineTool({
    description: "Read the whole deck: name, summary, theme, every slide's layout and placeholders, topics",
    input: z.object({}),
    changes: false,
    run: (env) => deckAsText(env.draft.deck),
  }),
  searchEntities: defineTool({
    description:
      "Search the workspace's CRM data (accounts, contacts, opportunities, notes, products) by meaning and keywords",
    input: z.object({
      query: z.string().min(1).max(500),
      types: z.array(z.string()).max(10).optional().describe("Only these entity types"),
      limit: z.number().int().min(1).max(20).optional(),
    }),
    changes: false,
    run: async (env, i) => JSON.stringify(await env.research.search(i.query, i.types, i.limit ?? 8)),
  }),
  getEntity: defineTool({
    description: "One entity with all its fields, its text and the ids of the entities it links to",
    input: z.object({ id: z.string().min(1).max(64) }),
    changes: false,
    run: async (env, i) => {
      const entity = await env.research.get(i.id);
      return entity ? JSON.stringify(entity) : `No entity with id ${i.id} in this workspace`;
    },
  }),
  setPlaceholder: defineTool({
    description: "Set one placeholder of a slide (an empty value clears an optional one)",
    input: z.object({ slide: slideNumber, key: z.string().min(1).max(50), value: z.string().max(20_000) }),
    changes: true,
    run: (env, i) => env.draft.setPlaceholder(i.slide, i.key, i.value),
  }),
  addSlide: defineTool({
    description: "Add a slide with a layout and its placeholders, at a position (default: the end)",
    input: z.object({
      layout: z.string().describe("A layout name from the catalog"),
      position: z.number().int().min(1).optional().describe("Where the new slide goes, counting from 1"),
      placeholders,
    }),
    changes: true,
    run: (env, i) => env.draft.addSlide(i.layout, i.placeholders, i.position),
  }),
  removeSlide: defineTool({
    description: "Remove a slide",
    input: z.object({ slide: slideNumber }),
    changes: true,
    run: (env, i) => env.draft.removeSlide(i.slide),
  }),
  moveSlide: defineTool({
    description: "Move a slide to another position",
    input: z.object({ slide: slideNumber, to: slideNumber }),
    changes: true,
    run: (env, i) => env.draft.moveSlide(i.slide, i.to),
  }),
  changeLayout: defineTool({
    description: "Give a slide another layout; the title and any list carry over, placeholders fill the rest",
    input: z.object({ slide: slideNumber, layout: z.string(), placeholders: placeholders.optional() }),
    changes: true,
    run: (env, i) => env.draft.changeLayout(i.slide, i.layout, i.placeholders),
  }),
  setName: defineTool({
    description: "Rename the deck",
    input: z.object({ name: z.string().min(1).max(200) }),
    changes: true,
    run: (env, i) => env.draft.setName(i.name),
  }),
  setSummary: defineTool({
    description: "Replace the deck's summary (a few sentences)",
    input: z.object({ summary: z.string().max(2000) }),
    changes: true,
    run: (env, i) => env.draft.setSummary(i.summary),
  }),
  addDiscussionTopic: defineTool({
    description: "Add a discussion topic for the meeting",
    input: z.object({
      topic: z.string().min(1).max(200),
      details: z.string().min(1).max(2000),
      notes: z.string().max(2000).optional(),
    }),
    changes: true,
    run: (env, i) => env.draft.addDiscussionTopic(i),
  }),
  updateDiscussionTopic: defineTool({
    description: "Change a discussion topic's title, details or notes",
    input: z.object({
      number: topicNumber,
      topic: z.string().min(1).max(200).optional(),
      details: z.string().min(1).max(2000).optional(),
      notes: z.string().max(2000).optional(),
    }),
    changes: true,
    run: (env, { number, ...changes }) => env.draft.updateDiscussionTopic(number, changes),
  }),
  removeDiscussionTopic: defineTool({
    description: "Remove a discussion topic",
    input: z.object({ number: topicNumber }),
    changes: true,
    run: (env, i) => env.draft.removeDiscussionTopic(i.number),
  }),
  setTheme: defineTool({
    description: `Switch the deck's theme: ${themes.map((t) => t.id).join(", ")}`,
    input: z.object({ themeId: z.string() }),
    changes: true,
    run: (env, i) => env.draft.setTheme(i.themeId),
  }),
};
