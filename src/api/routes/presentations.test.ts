import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant, deck } from "../../../test/factories.ts";

describe.skipIf(engineUnavailable)("presentations read API", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let other: Awaited<ReturnType<typeof createTenant>>;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await createTenant(t.c);
    other = await createTenant(t.c);
    // 25 decks, one second apart, so the newest-first order is known.
    for (let i = 0; i < 25; i++) {
      const row = await t.c.presentationRepository.insert(
        tenant.workspace.id,
        deck({ name: `Deck ${i}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) }, i === 24 ? 20 : 2),
      );
      ids.push(row.id);
    }
    await t.c.presentationRepository.insert(other.workspace.id, deck({ name: "Other workspace's deck" }));
  });
  afterAll(() => t.close());

  const list = (query = "", headers = tenant.headers) =>
    t.app.inject({ method: "GET", url: `/v1/presentations${query}`, headers });

  it("lists newest first with the spec's item shape, 20 by default, and the workspace total", async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(25);
    expect(body.items).toHaveLength(20);
    expect(body.items[0]).toEqual({
      id: ids[24],
      name: "Deck 24",
      status: "ready",
      summary: "A test deck",
      slideCount: 20,
      createdAt: "2026-01-01T00:00:24.000Z",
      templateName: "Account review",
      themeName: "Clean",
    });
    expect(body.items.map((i: { name: string }) => i.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Deck ${24 - i}`),
    );
  });

  it("pages with limit and offset", async () => {
    const res = await list("?limit=5&offset=22");
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: { name: string }) => i.name)).toEqual(["Deck 2", "Deck 1", "Deck 0"]);
    expect(res.json().total).toBe(25);
    const all = await list("?limit=100");
    expect(all.json().items).toHaveLength(25);
    const past = await list("?offset=1000");
    expect(past.json()).toEqual({ items: [], total: 25 });
  });

  it.each([
    ["limit=0", "querystring.limit"],
    ["limit=101", "querystring.limit"],
    ["limit=-1", "querystring.limit"],
    ["limit=abc", "querystring.limit"],
    ["limit=2.5", "querystring.limit"],
    ["offset=-1", "querystring.offset"],
    ["offset=abc", "querystring.offset"],
  ])("rejects %s with 400 naming the field", async (query, field) => {
    const res = await list(`?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "invalid_request", details: [{ path: field }] });
    expect(res.json().error).toBe(res.json().message);
  });

  it("returns one presentation with slides and discussion topics", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/v1/presentations/${ids[24]}`,
      headers: tenant.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: ids[24],
      name: "Deck 24",
      status: "ready",
      slideCount: 20,
      templateId: "account-review",
      themeId: "clean",
    });
    expect(body.slides).toHaveLength(20);
    expect(body.slides[0]).toEqual({
      index: 0,
      layoutName: "title",
      placeholders: { title: "Slide 1", body: "Point one\nPoint two for slide 1" },
    });
    expect(body.slides[19].index).toBe(19);
    expect(body.discussionTopics).toEqual([
      { topic: "Renewal", details: "Discuss renewal timing", notes: "Ask about budget" },
    ]);
  });

  it("accepts upper-case ids", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/v1/presentations/${ids[3]?.toUpperCase()}`,
      headers: tenant.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(ids[3]);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const missing = await t.app.inject({
      method: "GET",
      url: `/v1/presentations/${"0".repeat(24)}`,
      headers: tenant.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe("not_found");
    const malformed = await t.app.inject({
      method: "GET",
      url: "/v1/presentations/not-an-id",
      headers: tenant.headers,
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details[0].path).toBe("params.presentationId");
  });

  it("keeps workspaces apart: another workspace's deck is 404 and never listed", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/v1/presentations/${ids[0]}`,
      headers: other.headers,
    });
    expect(res.statusCode).toBe(404);
    const otherList = await list("?limit=100", other.headers);
    expect(otherList.json().total).toBe(1);
    expect(otherList.json().items.map((i: { id: string }) => i.id)).not.toContain(ids[0]);
    // Other's key with tenant's workspace id: not a member, so the workspace does not exist for it.
    const cross = await list("", { ...other.headers, "x-workspace-id": tenant.workspace.id });
    expect(cross.statusCode).toBe(404);
  });

  it("lets a viewer read", async () => {
    const viewer = await createTenant(t.c, { role: "viewer" });
    await t.c.presentationRepository.insert(viewer.workspace.id, deck());
    const res = await list("", viewer.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(1);
  });

  it("shows a new deck at once, even right after the same page was read", async () => {
    const before = (await list("?limit=1", other.headers)).json();
    const missing = await t.app.inject({
      method: "GET",
      url: `/v1/presentations/${"e".repeat(24)}`,
      headers: other.headers,
    });
    expect(missing.statusCode).toBe(404);
    const row = await t.c.presentationRepository.insert(other.workspace.id, deck({ name: "Fresh" }));
    const after = (await list("?limit=1", other.headers)).json();
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0].id).toBe(row.id);
  });

  it("leaves out optional fields rather than sending null", async () => {
    const row = await t.c.presentationRepository.insert(other.workspace.id, {
      name: "Being generated",
      status: "generating",
    });
    const res = await t.app.inject({
      method: "GET",
      url: `/v1/presentations/${row.id}`,
      headers: other.headers,
    });
    expect(res.json()).toMatchObject({
      name: "Being generated",
      status: "generating",
      slideCount: 0,
      slides: [],
      discussionTopics: [],
    });
    expect(res.json()).not.toHaveProperty("summary");
    expect(res.json()).not.toHaveProperty("templateName");
  });
});
