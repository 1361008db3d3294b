import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type DemoApp, startDemoApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";
import { startReceiver } from "../../../test/webhook-receiver.ts";

type Delivery = {
  status: string;
  eventType: string;
  attempts: { responseStatus?: number; error?: string; durationMs: number }[];
};

describe.skipIf(engineUnavailable)("webhooks", () => {
  let t: TestApp;
  let tenant: DemoApp["tenant"];

  beforeAll(async () => {
    ({ t, tenant } = await startDemoApp({
      WEBHOOKS_ALLOW_PRIVATE: "true",
      WEBHOOK_TIMEOUT_SECONDS: "1",
      WEBHOOK_RETRY_DELAY_SECONDS: "1",
      WEBHOOK_MAX_ATTEMPTS: "3",
    }));
  });
  afterAll(() => t.close());

  const api = (method: string, url: string, payload?: object, headers = tenant.headers) =>
    t.app.inject({ method: method as "GET", url, headers, ...(payload ? { payload } : {}) });
  const register = async (url: string, events: string[]) => {
    const res = await api("POST", "/v1/webhooks", { url, events, description: "test" });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; secret: string };
  };
  const deliveries = async (id: string) =>
    (await api("GET", `/v1/webhooks/${id}/deliveries`)).json().items as Delivery[];

  it("signs every event per Standard Webhooks, and sends only what was subscribed", async () => {
    const receiver = await startReceiver();
    const all = await register(receiver.url, [
      "presentation.ready",
      "presentation.updated",
      "presentation.failed",
      "presentation.stopped",
      "export.ready",
    ]);
    expect(all.secret).toMatch(/^whsec_/);
    const readyOnly = await startReceiver();
    await register(readyOnly.url, ["presentation.ready"]);

    const generated = await api("POST", "/v1/presentations/generate", {
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
    });
    const id = generated.json().presentationId;
    await api("POST", `/v1/presentations/${id}/edit`, { instructions: 'rename the deck to "Hooked"' });
    await api("POST", `/v1/presentations/${id}/export`, { format: "pptx" });
    await api("POST", "/v1/presentations/generate", {
      instructions: "Account review for nobody we know",
      templateId: "account-review",
    });
    const { id: pending } = await t.c.lifecycle.createGenerating(tenant.workspace.id, {
      name: "Pending",
      createdBy: tenant.user.id,
      generation: { instructions: "x", templateId: "general", themeId: "clean" },
    });
    await api("POST", `/v1/presentations/${pending}/stop`);

    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(5);
    const verifier = new Webhook(all.secret);
    const payloads = receiver.received.map(
      (r) =>
        verifier.verify(r.body, r.headers) as {
          type: string;
          workspaceId: string;
          timestamp: string;
          data: Record<string, unknown>;
        },
    );
    expect(payloads.map((p) => p.type).sort()).toEqual([
      "export.ready",
      "presentation.failed",
      "presentation.ready",
      "presentation.stopped",
      "presentation.updated",
    ]);
    const ready = payloads.find((p) => p.type === "presentation.ready");
    expect(ready).toMatchObject({
      workspaceId: tenant.workspace.id,
      data: {
        revision: 1,
        presentation: {
          id,
          status: "ready",
          name: "Northwind Health: Account Review",
          templateName: "Account review",
        },
      },
    });
    expect(payloads.find((p) => p.type === "presentation.updated")?.data).toMatchObject({
      revision: 2,
      changes: ['Renamed the deck to "Hooked"'],
    });
    expect(payloads.find((p) => p.type === "presentation.failed")?.data.reason).toMatch(
      /do not name an account/,
    );
    // A forged or altered body does not verify.
    const first = receiver.received[0];
    expect(() => verifier.verify(`${first?.body} `, first?.headers ?? {})).toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another secret 32 bytes long!!!!").toString("base64")}`).verify(
        first?.body ?? "",
        first?.headers ?? {},
      ),
    ).toThrow();

    await expect.poll(() => readyOnly.received.length, { timeout: 5_000 }).toBe(1);
    expect(JSON.parse(readyOnly.received[0]?.body ?? "{}").type).toBe("presentation.ready");
    const recorded = await deliveries(all.id);
    expect(recorded).toHaveLength(5);
    expect(recorded.every((d) => d.status === "succeeded" && d.attempts[0]?.responseStatus === 200)).toBe(
      true,
    );
    await receiver.close();
    await readyOnly.close();
  });

  it("retries a receiver that answers 500, then 200, recording each attempt", async () => {
    const receiver = await startReceiver((n) => ({ status: n === 0 ? 500 : 200 }));
    const hook = await register(receiver.url, ["export.ready"]);
    const generated = await api("POST", "/v1/presentations/generate", {
      instructions: "Meeting prep for Sunridge Solar",
      templateId: "meeting-prep",
    });
    await api("POST", `/v1/presentations/${generated.json().presentationId}/export`, { format: "pdf" });
    await expect
      .poll(async () => (await deliveries(hook.id))[0]?.status, { timeout: 15_000 })
      .toBe("succeeded");
    const [delivery] = await deliveries(hook.id);
    expect(delivery?.attempts.map((a) => a.responseStatus)).toEqual([500, 200]);
    expect(delivery?.attempts[0]?.error).toBe("answered 500");
    // The same webhook-id on every attempt, so a receiver can drop duplicates.
    expect(receiver.received[0]?.headers["webhook-id"]).toBe(receiver.received[1]?.headers["webhook-id"]);
    await receiver.close();
  });

  it("gives up on a receiver that never answers in time, after the last attempt", async () => {
    const receiver = await startReceiver(() => ({ delayMs: 3_000 }));
    const hook = await register(receiver.url, ["export.ready"]);
    const generated = await api("POST", "/v1/presentations/generate", {
      instructions: "Deal review: Atlas Analytics for Northwind Health",
      templateId: "deal-review",
    });
    await api("POST", `/v1/presentations/${generated.json().presentationId}/export`, { format: "pptx" });
    await expect
      .poll(async () => (await deliveries(hook.id))[0]?.status, { timeout: 30_000, interval: 500 })
      .toBe("failed");
    const [delivery] = await deliveries(hook.id);
    expect(delivery?.attempts).toHaveLength(3);
    for (const a of delivery?.attempts ?? []) {
      expect(a.error).toBe("no answer within 1 s");
      expect(a.durationMs).toBeGreaterThanOrEqual(900);
    }
    await receiver.close();
  }, 40_000);

  it("lets only admins and owners manage webhooks, within their workspace", async () => {
    const hook = await register("http://127.0.0.1:9/never", ["presentation.ready"]);
    const list = (await api("GET", "/v1/webhooks")).json();
    expect(list.find((h: { id: string }) => h.id === hook.id)).toMatchObject({
      url: "http://127.0.0.1:9/never",
      events: ["presentation.ready"],
    });
    expect(JSON.stringify(list)).not.toContain("whsec_");
    const editor = await createTenant(t.c, { role: "editor" });
    await t.c.workspaces.addMember(tenant.workspace.id, editor.user.id, "editor");
    const asEditor = { ...editor.headers, "x-workspace-id": tenant.workspace.id };
    expect((await api("GET", "/v1/webhooks", undefined, asEditor)).statusCode).toBe(403);
    const other = await createTenant(t.c);
    expect((await api("DELETE", `/v1/webhooks/${hook.id}`, undefined, other.headers)).statusCode).toBe(404);
    expect((await api("DELETE", `/v1/webhooks/${hook.id}`)).statusCode).toBe(204);
    expect((await api("GET", `/v1/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
    for (const [body, field] of [
      [{ url: "https://example.com/hook", events: [] }, "body.events"],
      [{ url: "https://example.com/hook", events: ["presentation.exploded"] }, "body.events.0"],
      [{ url: "https://example.com/hook", events: ["export.ready", "export.ready"] }, "body.events"],
    ] as const) {
      const res = await api("POST", "/v1/webhooks", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].path).toBe(field);
    }
  });
});

describe.skipIf(engineUnavailable)("webhook target URLs", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await createTenant(t.c);
  });
  afterAll(() => t.close());

  it.each([
    ["http://127.0.0.1:8080/hook", /private, loopback or link-local/],
    ["http://localhost/hook", /private, loopback or link-local/],
    ["http://10.1.2.3/hook", /private/],
    ["http://192.168.1.10/hook", /private/],
    ["http://169.254.169.254/latest/meta-data", /link-local/],
    ["http://[::1]:3000/hook", /private/],
    ["http://[fd00::1]/hook", /private/],
    ["ftp://example.com/hook", /must start with https:\/\/ or http:\/\//],
    ["https://user:pass@example.com/hook", /user name or password/],
    ["not a url", /is not a URL/],
  ])("refuses %s", async (url, message) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/webhooks",
      headers: tenant.headers,
      payload: { url, events: ["presentation.ready"] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(res.json().details[0].path).toBe("url");
  });
});
