import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoApp, startDemoApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";
import { collectEvents } from "../../../test/sse.ts";

describe.skipIf(engineUnavailable)("progress stream (Server-Sent Events)", () => {
  let t: TestApp;
  let tenant: DemoApp["tenant"];
  let base: string;

  beforeAll(async () => {
    ({ t, tenant } = await startDemoApp());
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const generate = async (payload: object, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/v1/presentations/generate`, {
      method: "POST",
      headers: { ...tenant.headers, "content-type": "application/json", ...headers },
      body: JSON.stringify(payload),
    });
    return (await res.json()).presentationId as string;
  };

  it("streams a generation in order: status, outline, every slide, ready", async () => {
    const id = await generate(
      { instructions: "Account review for Northwind Health", templateId: "account-review", slideCount: 6 },
      { prefer: "respond-async" },
    );
    const events = await collectEvents(
      `${base}/v1/presentations/${id}/events`,
      tenant.headers,
      (e) => e.event === "presentation.ready",
    );
    expect(events.map((e) => e.event)).toEqual([
      "status",
      "outline",
      "slide",
      "slide",
      "slide",
      "slide",
      "slide",
      "slide",
      "presentation.ready",
    ]);
    expect(events[1]?.data).toMatchObject({ slideCount: 6 });
    expect(events.slice(2, 8).map((e) => `${e.data.n}/${e.data.of}`)).toEqual([
      "1/6",
      "2/6",
      "3/6",
      "4/6",
      "5/6",
      "6/6",
    ]);
    expect(events[8]?.data).toMatchObject({ revision: 1, slideCount: 6 });
    const ids = events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);

    // Resume after the outline: only what came later.
    const resumed = await collectEvents(
      `${base}/v1/presentations/${id}/events`,
      { ...tenant.headers, "last-event-id": String(ids[1]) },
      (e) => e.event === "presentation.ready",
    );
    expect(resumed.map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id));
  });

  it("goes on with edits and exports on the same stream", async () => {
    const id = await generate({
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
    });
    const seen = collectEvents(
      `${base}/v1/presentations/${id}/events?lastEventId=0`,
      tenant.headers,
      (e) => e.event === "export.ready",
    );
    await new Promise((r) => setTimeout(r, 100));
    const post = (path: string, body: object) =>
      fetch(`${base}/v1/presentations/${id}/${path}`, {
        method: "POST",
        headers: { ...tenant.headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post("edit", { instructions: 'rename the deck to "Streamed"' })).status).toBe(200);
    expect((await post("export", { format: "pdf" })).status).toBe(200);
    const events = await seen;
    const updated = events.find((e) => e.event === "presentation.updated");
    expect(updated?.data).toMatchObject({
      revision: 2,
      kind: "edit",
      changes: ['Renamed the deck to "Streamed"'],
    });
    expect(events.at(-1)?.data).toMatchObject({ format: "pdf" });
  });

  it("forgets events after the retention, and keeps newer ones", async () => {
    const old = await t.c.bus.publish(tenant.workspace.id, "6b00000000000000000000aa", {
      type: "presentation.stopped",
      data: {},
    });
    const recent = await t.c.bus.publish(tenant.workspace.id, "6b00000000000000000000aa", {
      type: "presentation.stopped",
      data: {},
    });
    await t.c.database.query(
      "update presentation_events set created_at = now() - interval '31 days' where id = $1",
      [old.id],
    );
    expect(await t.c.eventRepository.prune(30)).toBe(1);
    const left = await t.c.eventRepository.after(tenant.workspace.id, "6b00000000000000000000aa", 0);
    expect(left.map((e) => e.id)).toEqual([recent.id]);
  });

  it("answers 404 across workspaces and 400 for a bad Last-Event-ID", async () => {
    const id = await generate({ instructions: "Make a deck about onboarding. Cover laptops and training." });
    const other = await createTenant(t.c);
    expect((await fetch(`${base}/v1/presentations/${id}/events`, { headers: other.headers })).status).toBe(
      404,
    );
    const bad = await fetch(`${base}/v1/presentations/${id}/events`, {
      headers: { ...tenant.headers, "last-event-id": "abc" },
    });
    expect(bad.status).toBe(400);
  });
});
