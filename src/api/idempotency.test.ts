import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type DemoApp, startDemoApp, type TestApp } from "../../test/app.ts";
import { engineUnavailable } from "../../test/database.ts";
import { createTenant } from "../../test/factories.ts";

describe.skipIf(engineUnavailable)("Idempotency-Key", () => {
  let t: TestApp;
  let tenant: DemoApp["tenant"];

  beforeAll(async () => {
    ({ t, tenant } = await startDemoApp());
  });
  afterAll(() => t.close());

  const post = (
    url: string,
    payload: object,
    key?: string,
    headers: Record<string, string> = tenant.headers,
  ) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { ...headers, ...(key ? { "idempotency-key": key } : {}) },
      payload,
    });
  const total = async () =>
    (await t.app.inject({ url: "/v1/presentations", headers: tenant.headers })).json().total;

  it("replays the first answer of a generate for the same key and body, creating one deck", async () => {
    const before = await total();
    const body = { instructions: "Account review for Northwind Health", templateId: "account-review" };
    const first = await post("/v1/presentations/generate", body, "gen-1");
    expect(first.statusCode).toBe(201);
    const again = await post(
      "/v1/presentations/generate",
      { templateId: "account-review", instructions: "Account review for Northwind Health" },
      "gen-1",
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.json()).toEqual(first.json());
    expect(await total()).toBe(before + 1);
  });

  it("refuses the same key with another body (422), and keeps keys apart per workspace and caller", async () => {
    await post(
      "/v1/presentations/generate",
      { instructions: "Make a deck about travel. Cover trains and planes." },
      "shared-key",
    );
    const other = await post(
      "/v1/presentations/generate",
      { instructions: "Make a deck about food." },
      "shared-key",
    );
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: "idempotency_key_reused" });
    const someoneElse = await createTenant(t.c);
    const theirs = await post(
      "/v1/presentations/generate",
      { instructions: "Make a deck about food." },
      "shared-key",
      someoneElse.headers,
    );
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("covers edits, exports and entity upserts", async () => {
    const id = (
      await post("/v1/presentations/generate", {
        instructions: "Meeting prep for Sunridge Solar",
        templateId: "meeting-prep",
      })
    ).json().presentationId;
    const edit = { instructions: 'rename the deck to "Once"' };
    const e1 = await post(`/v1/presentations/${id}/edit`, edit, "edit-1");
    const e2 = await post(`/v1/presentations/${id}/edit`, edit, "edit-1");
    expect(e2.json()).toEqual(e1.json());
    expect(
      (await t.app.inject({ url: `/v1/presentations/${id}/revisions`, headers: tenant.headers })).json()
        .current,
    ).toBe(2);

    const x1 = await post(`/v1/presentations/${id}/export`, { format: "pdf" }, "export-1");
    const x2 = await post(`/v1/presentations/${id}/export`, { format: "pdf" }, "export-1");
    expect(x2.json().downloadUrl).toBe(x1.json().downloadUrl);

    const entities = { entities: [{ type: "account", externalId: "idem-1", name: "Idempotent Inc." }] };
    const u1 = await post("/v1/entities", entities, "upsert-1");
    const u2 = await post("/v1/entities", entities, "upsert-1");
    expect(u1.json().items[0].status).toBe("created");
    expect(u2.json()).toEqual(u1.json()); // replayed: "created", not "updated"
    expect(u2.headers["idempotent-replayed"]).toBe("true");
  });

  it("does not keep answers a retry should redo, and rejects malformed keys", async () => {
    const missing = await post(
      "/v1/presentations/6b0000000000000000000099/edit",
      { instructions: "rename the deck to X" },
      "not-found-1",
    );
    expect(missing.statusCode).toBe(404);
    const again = await post(
      "/v1/presentations/6b0000000000000000000099/edit",
      { instructions: "rename the deck to X" },
      "not-found-1",
    );
    expect(again.headers["idempotent-replayed"]).toBe("true"); // a 404 is an answer: replayed
    const { id: pending } = await t.c.lifecycle.createGenerating(tenant.workspace.id, {
      name: "Pending",
      createdBy: tenant.user.id,
      generation: { instructions: "x", templateId: "general", themeId: "clean" },
    });
    const conflict = await post(
      `/v1/presentations/${pending}/edit`,
      { instructions: "rename the deck to X" },
      "busy-1",
    );
    expect(conflict.statusCode).toBe(409);
    const retry = await post(
      `/v1/presentations/${pending}/edit`,
      { instructions: "rename the deck to X" },
      "busy-1",
    );
    expect(retry.headers["idempotent-replayed"]).toBeUndefined(); // a 409 released the key
    for (const key of ["", "x".repeat(256), "with space"]) {
      const res = await post("/v1/presentations/generate", { instructions: "Hi" }, undefined, {
        ...tenant.headers,
        "idempotency-key": key,
      });
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
    }
  });
});

describe.skipIf(engineUnavailable)("Idempotency-Key with requests in flight", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  beforeAll(async () => {
    // No worker: a generate waits out its 2 s, so a duplicate arrives while it is in flight.
    t = await createTestApp({ GENERATE_WAIT_SECONDS: "2" });
    tenant = await createTenant(t.c);
  });
  afterAll(() => t.close());

  it("answers 409 to a concurrent duplicate, then replays the first answer", async () => {
    const send = () =>
      t.app.inject({
        method: "POST",
        url: "/v1/presentations/generate",
        headers: { ...tenant.headers, "idempotency-key": "concurrent-1" },
        payload: { instructions: "Make a deck about patience." },
      });
    const first = send();
    await new Promise((r) => setTimeout(r, 300));
    const duplicate = await send();
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toMatch(/still being processed/);
    const answered = await first;
    expect(answered.statusCode).toBe(202);
    const replay = await send();
    expect(replay.statusCode).toBe(202);
    expect(replay.json().presentationId).toBe(answered.json().presentationId);
    expect((await t.app.inject({ url: "/v1/presentations", headers: tenant.headers })).json().total).toBe(1);
  });
});
