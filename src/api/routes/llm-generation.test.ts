import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";
import { type ChatRequest, deckWriter, type FakeLlm, startFakeLlm } from "../../../test/fake-llm.ts";

// Generation and editing with LLM_PROVIDER=openai-compatible against a local server speaking the
// OpenAI protocol: the real provider client over real HTTP.

describe.skipIf(engineUnavailable)("with a language model over the OpenAI protocol", () => {
  let llm: FakeLlm;
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let script: (request: ChatRequest) => ReturnType<ReturnType<typeof deckWriter>>;

  beforeAll(async () => {
    llm = await startFakeLlm((request) => script(request));
    t = await createTestApp(
      {
        LLM_PROVIDER: "openai-compatible",
        LLM_BASE_URL: llm.url,
        LLM_MODEL: "fake-model",
        LLM_TIMEOUT_SECONDS: "1",
      },
      undefined,
      { worker: true },
    );
    tenant = await createTenant(t.c);
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  const generate = (payload: object) =>
    t.app.inject({ method: "POST", url: "/v1/presentations/generate", headers: tenant.headers, payload });

  it("generates a deck: outline, slides in parallel, topics; a malformed answer is repaired", async () => {
    script = deckWriter({ malformedFirst: true });
    const before = llm.requests.length;
    const res = await generate({
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
      slideCount: 5,
      language: "fr",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json(), res.json().failureReason).toMatchObject({
      status: "ready",
      name: "Northwind Health: Account Review",
    });
    const deck = (
      await t.app.inject({ url: `/v1/presentations/${res.json().presentationId}`, headers: tenant.headers })
    ).json();
    expect(deck.slides.map((s: { layoutName: string }) => s.layoutName)).toEqual([
      "title",
      "metrics",
      "bullets",
      "bullets",
      "closing",
    ]);
    expect(deck.discussionTopics).toEqual([
      { topic: "Support response times", details: "Agree a 2-hour target before renewal." },
    ]);
    const calls = llm.requests.slice(before);
    // 2 outline answers (one repaired) + 5 slides + topics, all with the configured model.
    expect(calls).toHaveLength(8);
    expect(calls.every((c) => c.model === "fake-model")).toBe(true);
    expect(JSON.stringify(calls[0]?.messages)).toContain("Write in fr");
    expect(JSON.stringify(calls[1]?.messages)).toContain("That answer cannot be used");
  });

  it("edits through a tool-calling loop that reads the deck first", async () => {
    script = deckWriter();
    const id = (await generate({ instructions: "Account review for Northwind Health", slideCount: 3 })).json()
      .presentationId;
    script = (request) => {
      const toolResults = request.messages.filter((m) => m.role === "tool").length;
      if (toolResults === 0) return { toolCalls: [{ name: "readDeck", arguments: {} }] };
      if (toolResults === 1)
        return {
          toolCalls: [
            { name: "setName", arguments: { name: "Northwind: renewal plan" } },
            { name: "moveSlide", arguments: { slide: 3, to: 2 } },
          ],
        };
      return { content: "Renamed the deck and moved the closing slide forward." };
    };
    const before = llm.requests.length;
    const res = await t.app.inject({
      method: "POST",
      url: `/v1/presentations/${id}/edit`,
      headers: tenant.headers,
      payload: { instructions: "Call it the renewal plan and put next steps second" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: "updated",
      changesApplied: [
        'Renamed the deck to "Northwind: renewal plan"',
        'Moved slide 3 ("Next steps") to position 2',
      ],
      revision: 2,
    });
    const calls = llm.requests.slice(before);
    expect(calls).toHaveLength(3);
    expect(calls[0]?.tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(["readDeck", "searchEntities", "setPlaceholder", "addSlide"]),
    );
    expect(JSON.stringify(calls[1]?.messages)).toContain("Slide 1 (title)");
  });

  it("fails the deck with a reason when the model does not answer in time", async () => {
    script = () => ({ content: "{}", delayMs: 2_500 });
    const res = await generate({ instructions: "Anything", slideCount: 2 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: "failed",
      failureReason: "The language model did not answer within 1 s",
    });
  });

  it("accepts any language, because the model writes it", async () => {
    script = deckWriter();
    expect((await generate({ instructions: "Bonjour", language: "fr", slideCount: 2 })).statusCode).toBe(201);
  });
});
