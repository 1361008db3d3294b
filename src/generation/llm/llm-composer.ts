import type { LanguageModel } from "ai";
import { z } from "zod";
import { findTemplate } from "../../catalog/catalog.ts";
import { checkSlide, findLayout, formatDescriptions, layouts } from "../../rendering/layouts.ts";
import type { GenerationRequest } from "../../storage/schema.ts";
import type { Draft, DraftSlide } from "../deck-draft.ts";
import type { EntityHit } from "../deck-tools.ts";
import type { DeckComposer } from "../generation-service.ts";
import { clip } from "../offline/format.ts";
import { generateJson, type LlmCall } from "./json-output.ts";
import { emptyUsage, type LlmUsage } from "./usage.ts";

// Generation with a language model: research the workspace, write an outline (structured
// output), then fill the slides in parallel with bounded concurrency while the discussion topics
// are written.
// Every answer is validated against the layout catalog and repaired or retried when it fails.

export type LlmSettings = { model: LanguageModel; timeoutMs: number; concurrency: number };

const outlineSchema = z.object({
  name: z.string().min(1).max(200),
  summary: z.string().min(1).max(2000),
  slides: z
    .array(
      z.object({
        layout: z.string(),
        title: z.string().min(1).max(200),
        brief: z.string().max(2000).default(""),
      }),
    )
    .min(1)
    .max(50),
});
const slideSchema = z.object({ placeholders: z.record(z.string(), z.string()) });
const topicsSchema = z.object({
  topics: z
    .array(
      z.object({
        topic: z.string().min(1).max(200),
        details: z.string().min(1).max(2000),
        notes: z.string().max(2000).optional(),
      }),
    )
    .max(8),
});

export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return results;
}

/** Workspace records as compact lines a model can cite. */
export function dataLines(hits: EntityHit[]): string {
  if (hits.length === 0) return "(no matching records)";
  return hits
    .map((h) => {
      const fields = Object.entries(h.fields)
        .filter(([, v]) => v !== null && v !== "")
        .map(([k, v]) => `${k}=${v}`)
        .join(", ");
      return `- [${h.type}] ${h.name}${fields ? ` (${fields})` : ""}${h.snippet ? `: ${clip(h.snippet.replace(/\*\*/g, ""), 300)}` : ""}`;
    })
    .join("\n");
}

function systemPrompt(request: GenerationRequest): string {
  const template = findTemplate(request.templateId);
  return [
    "You write presentation decks for Decksmith. Decks are grounded in the workspace's own CRM data.",
    "Use only numbers, names and facts that appear in the workspace data you are given; never invent figures.",
    `Write in ${request.language ?? "English"}.${request.tone ? ` Tone: ${request.tone}.` : ""}${request.audience ? ` Audience: ${request.audience}.` : ""}`,
    template ? `Template: ${template.name}: ${template.description}` : "",
    "Always answer with one JSON value and nothing else.",
  ]
    .filter(Boolean)
    .join("\n");
}

const layoutSpec = (name: string) => {
  const layout = findLayout(name);
  if (!layout) return "";
  return Object.entries(layout.placeholders)
    .map(
      ([k, p]) =>
        `"${k}"${p.required ? " (required)" : " (optional)"}: ${formatDescriptions[p.format]}, at most ${p.maxLength} characters`,
    )
    .join("\n");
};

export function createLlmComposer(settings: LlmSettings, onUsage?: (usage: LlmUsage) => void): DeckComposer {
  return async (request, reader, signal, progress) => {
    const usage = emptyUsage();
    const call: LlmCall = { model: settings.model, timeoutMs: settings.timeoutMs, signal, usage };
    const system = systemPrompt(request);
    try {
      const data = dataLines(await reader.search(request.instructions, undefined, 15));
      const count = request.slideCount;
      const outline = await generateJson(call, {
        system,
        what: "outline",
        schema: outlineSchema,
        prompt: [
          `Instructions: ${request.instructions}`,
          `Workspace data:\n${data}`,
          `Layouts:\n${layouts.map((l) => `- ${l.name}: ${l.description}`).join("\n")}`,
          `Plan the deck${count ? ` in exactly ${count} slides` : ""}: the first slide uses the "title" layout.`,
          'Answer as JSON: {"name": "...", "summary": "2-3 sentences", "slides": [{"layout": "<layout name>", "title": "...", "brief": "what this slide says, with the figures it uses"}]}',
        ].join("\n\n"),
        check: (o) => {
          const unknown = o.slides.filter((s) => !findLayout(s.layout)).map((s) => s.layout);
          if (unknown.length)
            return `unknown layouts ${unknown.join(", ")}; use one of ${layouts.map((l) => l.name).join(", ")}`;
          if (count && o.slides.length !== count)
            return `the deck must have exactly ${count} slides, not ${o.slides.length}`;
          return undefined;
        },
      });
      progress?.outline(outline.slides.map((s) => s.title));
      let written = 0;
      // Topics need only the outline: they are written while the slides are.
      const slidesWritten = mapLimit(
        outline.slides,
        settings.concurrency,
        async (planned, index): Promise<DraftSlide> => {
          try {
            const { placeholders } = await generateJson(call, {
              system,
              what: `slide ${index + 1}`,
              schema: slideSchema,
              prompt: [
                `Deck: ${outline.name}. Slide ${index + 1} of ${outline.slides.length}: "${planned.title}" (${planned.layout}).`,
                `What it says: ${planned.brief || planned.title}`,
                `Workspace data:\n${data}`,
                `Placeholders of the ${planned.layout} layout:\n${layoutSpec(planned.layout)}`,
                'Answer as JSON: {"placeholders": {"<key>": "<value>", ...}}',
              ].join("\n\n"),
              check: (s) => {
                const problems = checkSlide({
                  index,
                  layoutName: planned.layout,
                  placeholders: s.placeholders,
                }).problems;
                return problems.length ? problems.map((p) => p.message).join("; ") : undefined;
              },
            });
            progress?.slide(++written, outline.slides.length, planned.title);
            return { layoutName: planned.layout, placeholders };
          } catch (err) {
            if (signal.aborted) throw err;
            // One slide the model cannot get right does not sink the deck: its plan, as bullets.
            const body = (planned.brief || planned.title)
              .split(/(?<=[.!?])\s+/)
              .map((l) => clip(l, 200))
              .join("\n");
            progress?.slide(++written, outline.slides.length, planned.title);
            return { layoutName: "bullets", placeholders: { title: planned.title, body } };
          }
        },
      );
      const topicsWritten = generateJson(call, {
        system,
        what: "discussion topics",
        schema: topicsSchema,
        prompt: [
          `Deck: ${outline.name}. ${outline.summary}`,
          `Slides: ${outline.slides.map((s) => s.title).join("; ")}`,
          `Workspace data:\n${data}`,
          'Suggest up to 5 discussion topics for the meeting. Answer as JSON: {"topics": [{"topic": "...", "details": "...", "notes": "optional"}]}',
        ].join("\n\n"),
      });
      const [slides, { topics }] = await Promise.all([slidesWritten, topicsWritten]);
      const draft: Draft = {
        name: outline.name,
        summary: outline.summary,
        themeId: request.themeId,
        slides,
        topics,
      };
      return draft;
    } finally {
      onUsage?.(usage);
    }
  };
}
