import { describe, expect, it } from "vitest";
import { demoClient, serverSandbox } from "../../test/cli.ts";
import { deckWriter, startFakeLlm } from "../../test/fake-llm.ts";
import { freePort } from "../../test/postgres-cluster.ts";

// The real `decksmith serve` process, killed with SIGKILL while a language model is writing a
// deck, then started again: the deck must end ready or failed, never stay generating.

describe("a server killed mid-generation", () => {
  const sandbox = serverSandbox();

  it("leaves no deck generating once it runs again", async () => {
    const llm = await startFakeLlm(deckWriter({ delayMs: 10_000 })); // slow: the kill lands mid-call
    const port = await freePort();
    const env = sandbox.env(port);
    const killed = await sandbox.start(
      { ...env, LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: llm.url, LLM_MODEL: "slow" },
      ["--json"],
    );
    const client = demoClient(killed, port);
    const { status: code, presentationId } = await client.generateAsync({
      instructions: "Make a deck about our hiring plan. Cover roles, budget and timeline.",
    });
    expect(code).toBe(202);
    // The worker has claimed the deck and is waiting for the model.
    await expect.poll(() => llm.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
    killed.child.kill("SIGKILL");
    await killed.stop();
    await llm.close();

    // Started again without a language model: the built-in composer finishes the deck.
    await sandbox.start(env);
    await expect.poll(() => client.status(presentationId), { timeout: 15_000 }).toBe("ready");
    const deck = await client.getDeck(presentationId);
    expect(deck.slides.map((s: { placeholders: { title?: string } }) => s.placeholders.title)).toEqual(
      expect.arrayContaining(["Roles", "Budget", "Timeline"]),
    );
  }, 60_000);
});
