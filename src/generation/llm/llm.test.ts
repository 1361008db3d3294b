import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { DeckDraft } from "../deck-draft.ts";
import type { Research } from "../deck-tools.ts";
import type { WorkspaceReader } from "../offline/composer.ts";
import { extractJson } from "./json-output.ts";
import { createLlmComposer } from "./llm-composer.ts";
import { createLlmEditor } from "./llm-editor.ts";
import type { LlmUsage } from "./usage.ts";

// The language-model path against the AI SDK's mock model: no network, exact answers.

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const text = (t: string) => ({
  content: [{ type: "text" as const, text: t }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage,
  warnings: [],
});
const toolCall = (name: string, input: object) => ({
  content: [
    { type: "tool-call" as const, toolCallId: `c-${name}`, toolName: name, input: JSON.stringify(input) },
  ],
  finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
  usage,
  warnings: [],
});

const research = {
  search: async () => [
    { id: "e1", type: "account", name: "Northwind Health", fields: { annualRevenue: 420_000_000 } },
  ],
  get: async () => undefined,
  linkedTo: async () => [],
  ofType: async () => [],
} as unknown as WorkspaceReader & Research;
const signal = new AbortController().signal;

describe("structured output", () => {
  it("finds the JSON in fences or prose", () => {
    expect(extractJson('Sure!\n```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(extractJson('The plan: {"a": [1, 2]} hope it helps')).toEqual({ a: [1, 2] });
    expect(() => extractJson("no json here")).toThrow(/no JSON/);
  });
});

describe("LLM composer", () => {
  /** Answers by what the prompt asks for, as calls run in parallel: queues per kind of prompt. */
  const router = (queues: { outline: string[]; slide: string[]; topics: string[] }) =>
    new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const asked = JSON.stringify(prompt);
        const queue = /Plan the deck/.test(asked)
          ? queues.outline
          : /Placeholders of the/.test(asked)
            ? queues.slide
            : queues.topics;
        return text(queue.shift() ?? "{}");
      },
    });

  it("outlines, fills slides, writes topics, and repairs a malformed answer", async () => {
    const model = router({
      outline: [
        '{"name": "Northwind", "slides": [', // cut off: repaired on the next try
        JSON.stringify({
          name: "Northwind review",
          summary: "Where it stands.",
          slides: [
            { layout: "title", title: "Northwind", brief: "" },
            { layout: "bullets", title: "Facts", brief: "Revenue" },
          ],
        }),
      ],
      slide: [
        JSON.stringify({ placeholders: { title: "Northwind review" } }),
        JSON.stringify({ placeholders: { title: "Facts", body: "Annual revenue $420M" } }),
      ],
      topics: [JSON.stringify({ topics: [{ topic: "Renewal", details: "Timing" }] })],
    });
    let reported: LlmUsage | undefined;
    const compose = createLlmComposer({ model, timeoutMs: 5_000, concurrency: 1 }, (u) => (reported = u));
    const deck = await compose(
      { instructions: "Review Northwind", templateId: "account-review", themeId: "clean" },
      research,
      signal,
    );
    expect(deck).toMatchObject({
      name: "Northwind review",
      summary: "Where it stands.",
      themeId: "clean",
      topics: [{ topic: "Renewal", details: "Timing" }],
    });
    expect(deck.slides).toEqual([
      { layoutName: "title", placeholders: { title: "Northwind review" } },
      { layoutName: "bullets", placeholders: { title: "Facts", body: "Annual revenue $420M" } },
    ]);
    expect(reported).toEqual({ calls: 5, inputTokens: 500, outputTokens: 100 });
    // The repair prompt told the model what was wrong.
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain(
      "That answer cannot be used: it is not valid JSON",
    );
  });

  it("sends a slide that breaks the layout back with the catalog's message", async () => {
    const model = router({
      outline: [
        JSON.stringify({
          name: "D",
          summary: "S",
          slides: [{ layout: "bar-chart", title: "Pipeline", brief: "" }],
        }),
      ],
      slide: [
        JSON.stringify({ placeholders: { title: "Pipeline", chart: "just words" } }),
        JSON.stringify({ placeholders: { title: "Pipeline", chart: "Proposal: $300K\nNegotiation: $250K" } }),
      ],
      topics: [JSON.stringify({ topics: [] })],
    });
    const deck = await createLlmComposer({ model, timeoutMs: 5_000, concurrency: 2 })(
      { instructions: "x", templateId: "general", themeId: "clean" },
      research,
      signal,
    );
    expect(deck.slides[0]?.placeholders.chart).toBe("Proposal: $300K\nNegotiation: $250K");
    const repair = model.doGenerateCalls
      .map((c) => JSON.stringify(c.prompt))
      .find((p) => p.includes("That answer cannot be used"));
    expect(repair).toMatch(/slide 1 \(bar-chart\): \\"chart\\" line 1 should be/);
  });

  it("fails with a reason after the repairs run out", async () => {
    const model = new MockLanguageModelV3({ doGenerate: async () => text("never JSON") });
    const compose = createLlmComposer({ model, timeoutMs: 5_000, concurrency: 1 });
    await expect(
      compose({ instructions: "x", templateId: "general", themeId: "clean" }, research, signal),
    ).rejects.toThrow(/no valid outline after 3 tries/);
  });
});

describe("LLM editor", () => {
  const deck = () =>
    new DeckDraft({
      name: "Old name",
      summary: "",
      themeId: "clean",
      slides: [{ layoutName: "title", placeholders: { title: "Hello" } }],
      topics: [],
    });

  it("reads the deck, researches, then changes it through the tools", async () => {
    const answers = [
      toolCall("readDeck", {}),
      toolCall("searchEntities", { query: "Northwind" }),
      toolCall("setName", { name: "Northwind review" }),
      toolCall("addSlide", {
        layout: "bullets",
        placeholders: { title: "Revenue", body: "Annual revenue $420M" },
      }),
      text("Renamed the deck and added a revenue slide."),
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => answers.shift() ?? text("done") });
    const draft = deck();
    await createLlmEditor({ model, timeoutMs: 5_000, concurrency: 1, maxSteps: 10 }).edit(
      { draft, research },
      "Rename it and add revenue",
      signal,
    );
    expect(draft.changes).toEqual([
      'Renamed the deck to "Northwind review"',
      'Added a bullets slide "Revenue" at position 2',
    ]);
    // The search result went back to the model.
    expect(JSON.stringify(model.doGenerateCalls[2]?.prompt)).toContain("Northwind Health");
  });

  it("refuses changes before the deck is read, and hands tool errors back to the model", async () => {
    const answers = [
      toolCall("setName", { name: "Too early" }),
      toolCall("readDeck", {}),
      toolCall("removeSlide", { slide: 9 }),
      toolCall("setName", { name: "Fixed" }),
      text("done"),
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => answers.shift() ?? text("done") });
    const draft = deck();
    await createLlmEditor({ model, timeoutMs: 5_000, concurrency: 1, maxSteps: 10 }).edit(
      { draft, research },
      "rename",
      signal,
    );
    expect(draft.changes).toEqual(['Renamed the deck to "Fixed"']);
    const prompts = model.doGenerateCalls.map((c) => JSON.stringify(c.prompt));
    expect(prompts[1]).toContain("call readDeck first");
    expect(prompts[3]).toContain("There is no slide 9");
  });

  it("stops at the step limit, and answers 422 when nothing changed", async () => {
    const model = new MockLanguageModelV3({ doGenerate: async () => toolCall("readDeck", {}) });
    await expect(
      createLlmEditor({ model, timeoutMs: 5_000, concurrency: 1, maxSteps: 3 }).edit(
        { draft: deck(), research },
        "do something",
        signal,
      ),
    ).rejects.toMatchObject({ code: "edit_not_understood" });
    expect(model.doGenerateCalls).toHaveLength(3);
  });
});
