import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestApp, type DemoApp, startDemoApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";
import { createSweeper } from "../../jobs/sweeper.ts";
import { startWorker } from "../../jobs/worker.ts";

describe.skipIf(engineUnavailable)("generate and stop", () => {
  let t: TestApp;
  let tenant: DemoApp["tenant"];

  beforeAll(async () => {
    ({ t, tenant } = await startDemoApp());
  });
  afterAll(() => t.close());

  const generate = (payload: object, headers: Record<string, string> = tenant.headers) =>
    t.app.inject({ method: "POST", url: "/v1/presentations/generate", headers, payload });
  const getDeck = async (id: string) =>
    (await t.app.inject({ url: `/v1/presentations/${id}`, headers: tenant.headers })).json();

  it("generates a grounded account review and answers 201 when it is ready", async () => {
    const res = await generate({
      instructions: "Prepare an account review for Northwind Health",
      templateId: "account-review",
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: "ready", name: "Northwind Health: Account Review" });
    expect(body.url).toBe(`${t.c.config.http.publicUrl}/p/${body.presentationId}`);
    expect(body.summary).toMatch(/^Account review of Northwind Health/);
    expect(res.headers.location).toBe(`/v1/presentations/${body.presentationId}`);
    const deck = await getDeck(body.presentationId);
    expect(deck.status).toBe("ready");
    expect(deck.templateName).toBe("Account review");
    expect(deck.slides.map((s: { layoutName: string }) => s.layoutName)).toContain("metrics");
    expect(deck.slideCount).toBe(deck.slides.length);
    expect(deck.discussionTopics.length).toBeGreaterThan(0);
  });

  it("honours slideCount", async () => {
    for (const slideCount of [3, 12]) {
      const res = await generate({
        instructions: "Account review for Blue Harbor Bank",
        templateId: "account-review",
        slideCount,
      });
      const deck = await getDeck(res.json().presentationId);
      expect(deck.slides.length, `asked ${slideCount}`).toBeLessThanOrEqual(slideCount);
      if (slideCount === 3) expect(deck.slides.length).toBe(3);
    }
  });

  it("answers 202 at once with Prefer: respond-async, and the deck becomes ready", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/presentations/generate",
      headers: { ...tenant.headers, prefer: "respond-async" },
      payload: { instructions: "Pipeline review", templateId: "pipeline-review" },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: "generating" });
    expect(res.headers["preference-applied"]).toBe("respond-async");
    const id = res.json().presentationId;
    await expect.poll(async () => (await getDeck(id)).status, { timeout: 10_000 }).toBe("ready");
  });

  it("fails the deck with a reason when the instructions name no account", async () => {
    const res = await generate({
      instructions: "Account review for a company we have never heard of",
      templateId: "account-review",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe("failed");
    expect(res.json().failureReason).toMatch(
      /do not name an account of this workspace; name one, for example/,
    );
    expect((await getDeck(res.json().presentationId)).status).toBe("failed");
  });

  it("rejects bad input with 400 naming the field, before creating anything", async () => {
    const before = (await t.app.inject({ url: "/v1/presentations", headers: tenant.headers })).json().total;
    const cases: [object, string][] = [
      [{}, "instructions"],
      [{ instructions: "x".repeat(20_001) }, "instructions"],
      [{ instructions: "Hi", templateId: "nope" }, "templateId"],
      [{ instructions: "Hi", themeId: "nope" }, "themeId"],
      [{ instructions: "Hi", slideCount: 0 }, "slideCount"],
      [{ instructions: "Hi", slideCount: 51 }, "slideCount"],
      [{ instructions: "Hi", language: "fr" }, "language"],
      [{ instructions: "Hi", colour: "red" }, "(root)"],
    ];
    for (const [payload, field] of cases) {
      const res = await generate(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().details?.[0]?.path ?? "").toContain(field === "(root)" ? "" : field);
    }
    expect((await t.app.inject({ url: "/v1/presentations", headers: tenant.headers })).json().total).toBe(
      before,
    );
  });

  it("lets editors generate and not viewers", async () => {
    const viewer = await createTenant(t.c, { role: "viewer" });
    const res = await generate({ instructions: "Hello" }, viewer.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("forbidden");
  });

  it("stops a generating deck once; anything else answers 409, other workspaces 404", async () => {
    const { id } = await t.c.lifecycle.createGenerating(tenant.workspace.id, {
      name: "Slow deck",
      createdBy: tenant.user.id,
      generation: { instructions: "Slow deck", templateId: "general", themeId: "clean" },
    });
    const stop = (headers = tenant.headers) =>
      t.app.inject({ method: "POST", url: `/v1/presentations/${id.toUpperCase()}/stop`, headers });
    const other = await createTenant(t.c);
    expect((await stop(other.headers)).statusCode).toBe(404);
    const res = await stop();
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe("stopped");
    expect((await stop()).statusCode).toBe(409);
    // A worker that picks the job up now finds nothing to do.
    await t.c.generation.run(id);
    expect((await getDeck(id)).status).toBe("stopped");
  });

  it("answers 202 when the wait runs out; the job waits for a worker, which makes the deck ready", async () => {
    const quick = await createTestApp({ GENERATE_WAIT_SECONDS: "0" });
    try {
      const owner = await createTenant(quick.c);
      const res = await quick.app.inject({
        method: "POST",
        url: "/v1/presentations/generate",
        headers: owner.headers,
        payload: { instructions: "Make a deck about onboarding. Cover accounts, laptops and training." },
      });
      expect(res.statusCode).toBe(202);
      const id = res.json().presentationId;
      const worker = await startWorker(quick.c, { concurrency: 1 });
      onTestFinished(() => worker.stop());
      await expect
        .poll(
          async () =>
            (await quick.app.inject({ url: `/v1/presentations/${id}`, headers: owner.headers })).json()
              .status,
        )
        .toBe("ready");
    } finally {
      await quick.close();
    }
  });

  it("requeues a deck whose worker died, and fails it after the last attempt", async () => {
    const make = async (name: string) => {
      const { id } = await t.c.lifecycle.createGenerating(tenant.workspace.id, {
        name,
        createdBy: tenant.user.id,
        generation: {
          instructions: "Meeting prep for Sunridge Solar",
          templateId: "meeting-prep",
          themeId: "clean",
        },
      });
      return id;
    };
    // A worker claimed each deck, then died: its lease (1 ms) has run out.
    const once = await make("Died once");
    const twice = await make("Died twice");
    expect(await t.c.lifecycle.claim(once, 1)).toBeDefined();
    expect(await t.c.lifecycle.claim(twice, 1)).toBeDefined();
    await t.c.lifecycle.releaseLease(twice);
    expect(await t.c.lifecycle.claim(twice, 1)).toBeDefined();
    await new Promise((r) => setTimeout(r, 20));
    const sweeper = createSweeper({
      lifecycle: t.c.lifecycle,
      queue: t.c.queue,
      bus: t.c.bus,
      maxAttempts: 2,
      unclaimedMs: 60_000,
      log: t.c.log,
    });
    const swept = await sweeper.sweep();
    expect(swept).toMatchObject({ requeued: 1, failed: 1 });
    await expect.poll(async () => (await getDeck(once)).status, { timeout: 10_000 }).toBe("ready");
    const failed = await getDeck(twice);
    expect(failed.status).toBe("failed");
    expect(failed.failureReason).toMatch(/interrupted 2 times/);
  });
});
