import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoApp, startDemoApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";

describe.skipIf(engineUnavailable)("edit, revisions and restore", () => {
  let t: TestApp;
  let tenant: DemoApp["tenant"];

  beforeAll(async () => {
    ({ t, tenant } = await startDemoApp());
  });
  afterAll(() => t.close());

  const generate = async (
    instructions = "Account review for Northwind Health",
    templateId = "account-review",
  ) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/presentations/generate",
      headers: tenant.headers,
      payload: { instructions, templateId },
    });
    expect(res.json().status).toBe("ready");
    return res.json().presentationId as string;
  };
  const edit = (id: string, instructions: string, headers = tenant.headers) =>
    t.app.inject({ method: "POST", url: `/v1/presentations/${id}/edit`, headers, payload: { instructions } });
  const getDeck = async (id: string) =>
    (await t.app.inject({ url: `/v1/presentations/${id}`, headers: tenant.headers })).json();
  const titles = (deck: { slides: { placeholders: Record<string, string> }[] }) =>
    deck.slides.map((s) => s.placeholders.title ?? s.placeholders.quote);

  it("applies several forms in one edit, says what changed, and makes one revision", async () => {
    const id = await generate();
    const before = await getDeck(id);
    const res = await edit(
      id,
      'Rename the deck to "Northwind: Q3 review" and remove slide 2; move the last slide to position 2. Switch the theme to Midnight',
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe("updated");
    expect(body.revision).toBe(2);
    expect(body.changesApplied).toEqual([
      'Renamed the deck to "Northwind: Q3 review"',
      `Removed slide 2 ("${before.slides[1].placeholders.title}")`,
      `Moved slide ${before.slides.length - 1} ("${before.slides.at(-1).placeholders.title}") to position 2`,
      "Switched the theme to Midnight",
    ]);
    const after = await getDeck(id);
    expect(after.name).toBe("Northwind: Q3 review");
    expect(after.themeName).toBe("Midnight");
    expect(after.slides).toHaveLength(before.slides.length - 1);
    expect(after.slides[1].placeholders.title).toBe(before.slides.at(-1).placeholders.title);
  });

  it("changes a slide's title and text, and replaces a phrase everywhere", async () => {
    const id = await generate();
    let res = await edit(
      id,
      'Change the title of slide 3 to "Where we stand"; set the subtitle of slide 1 to "For the renewal meeting"',
    );
    expect(res.json().changesApplied).toEqual([
      'Slide 3: set title to "Where we stand"',
      'Slide 1: set subtitle to "For the renewal meeting"',
    ]);
    res = await edit(id, 'replace "Northwind Health" with "Northwind Health Inc." everywhere');
    expect(res.statusCode).toBe(200);
    const deck = await getDeck(id);
    expect(deck.name).toBe("Northwind Health Inc.: Account Review");
    expect(JSON.stringify(deck.slides)).not.toMatch(/Northwind Health(?! Inc\.)/);
    expect(res.json().changesApplied.length).toBeGreaterThan(1);
  });

  it("adds a slide researched in the workspace, changes a layout, shortens and expands bullets", async () => {
    const id = await generate();
    const before = await getDeck(id);
    let res = await edit(id, "add a slide about Globex competitive evaluations after slide 2");
    expect(res.statusCode).toBe(200);
    let deck = await getDeck(id);
    expect(deck.slides[2].layoutName).toBe("bullets");
    expect(deck.slides[2].placeholders.title).toBe("Globex competitive evaluations");
    expect(deck.slides[2].placeholders.body).toMatch(/Globex/);
    const risks =
      deck.slides.findIndex((s: { placeholders: { title?: string } }) => s.placeholders.title === "Risks") +
      1;
    res = await edit(id, `change slide ${risks} to a two-column slide`);
    expect(res.json().changesApplied).toEqual([
      `Slide ${risks}: changed the layout from bullets to two-column`,
    ]);
    res = await edit(id, "shorten the bullets on slide 3");
    deck = await getDeck(id);
    for (const line of deck.slides[2].placeholders.body.split("\n"))
      expect(line.length).toBeLessThanOrEqual(60);
    res = await edit(id, "expand the bullets on slide 3");
    expect(res.statusCode).toBe(200);
    expect((await getDeck(id)).slides.length).toBe(before.slides.length + 1);
  });

  it("adds and removes discussion topics", async () => {
    const id = await generate();
    const before = (await getDeck(id)).discussionTopics.length;
    let res = await edit(id, 'add a discussion topic "Budget": confirm the FY27 budget before renewal');
    expect(res.json().changesApplied).toEqual(['Added discussion topic "Budget"']);
    let topics = (await getDeck(id)).discussionTopics;
    expect(topics.at(-1)).toEqual({ topic: "Budget", details: "confirm the FY27 budget before renewal" });
    res = await edit(id, "remove discussion topic 1");
    topics = (await getDeck(id)).discussionTopics;
    expect(topics).toHaveLength(before);
  });

  it("refreshes the numbers from the latest entity data", async () => {
    const id = await generate();
    const actor = await t.c.workspaces.resolveActor(
      { userId: tenant.user.id, via: "api_key" },
      tenant.workspace.id,
    );
    await t.c.entities.upsert(actor, {
      entities: [
        {
          type: "account",
          externalId: "acct-1",
          name: "Northwind Health",
          fields: {
            industry: "Healthcare",
            region: "North America",
            employees: 99_999,
            annualRevenue: 777_000_000,
            tier: "Standard",
          },
          body: "Northwind Health.",
        },
      ],
    });
    const res = await edit(id, "refresh the numbers");
    expect(res.statusCode).toBe(200);
    expect(res.json().changesApplied.join("\n")).toMatch(/set metrics to "Annual revenue: \$777M/);
    const metrics = (await getDeck(id)).slides.find(
      (s: { layoutName: string }) => s.layoutName === "metrics",
    );
    expect(metrics.placeholders.metrics).toContain("Employees: 99,999");
  });

  it("answers 422 with the supported forms when any clause is not understood, and changes nothing", async () => {
    const id = await generate();
    const before = await getDeck(id);
    const res = await edit(id, 'rename the deck to "X" and make it pop');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: "edit_not_understood",
      details: [{ path: "instructions", message: "not understood: make it pop" }],
    });
    expect(res.json().supportedForms).toContain('rename the deck to "<name>"');
    expect(await getDeck(id)).toEqual(before);
    expect(
      (await t.app.inject({ url: `/v1/presentations/${id}/revisions`, headers: tenant.headers })).json()
        .current,
    ).toBe(1);
  });

  it("rejects a change the layout catalog forbids with 400, changing nothing", async () => {
    const id = await generate();
    for (const [instructions, message] of [
      ["remove slide 40", /no slide 40/],
      ['replace "Zebra" with "Horse"', /does not appear/],
      ["change slide 1 to a bar-chart slide", /"chart" is required/],
    ] as const) {
      const res = await edit(id, instructions);
      expect(res.statusCode, instructions).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(
      (await t.app.inject({ url: `/v1/presentations/${id}/revisions`, headers: tenant.headers })).json()
        .current,
    ).toBe(1);
  });

  it("refuses edits of decks that are not ready (409), by viewers (403), across workspaces (404)", async () => {
    const { id: generating } = await t.c.lifecycle.createGenerating(tenant.workspace.id, {
      name: "Pending",
      createdBy: tenant.user.id,
      generation: { instructions: "Pending", templateId: "general", themeId: "clean" },
    });
    expect((await edit(generating, "rename the deck to X")).statusCode).toBe(409);
    const id = await generate();
    const viewer = await createTenant(t.c, { role: "viewer" });
    await t.c.workspaces.addMember(tenant.workspace.id, viewer.user.id, "viewer");
    const asViewer = { ...viewer.headers, "x-workspace-id": tenant.workspace.id };
    expect((await edit(id, "rename the deck to X", asViewer)).statusCode).toBe(403);
    const other = await createTenant(t.c);
    expect((await edit(id, "rename the deck to X", other.headers)).statusCode).toBe(404);
    expect((await edit("nothex", "rename the deck to X")).statusCode).toBe(400);
  });

  it("applies concurrent edits in turn: no update is lost", async () => {
    const id = await generate();
    const results = await Promise.all([
      edit(id, 'rename the deck to "Concurrent"'),
      edit(id, "switch the theme to Harbor"),
      edit(id, 'change the title of slide 3 to "Three"'),
      edit(id, 'add a discussion topic "Parallel": it works'),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(results.map((r) => r.json().revision).sort()).toEqual([2, 3, 4, 5]);
    const deck = await getDeck(id);
    expect(deck.name).toBe("Concurrent");
    expect(deck.themeName).toBe("Harbor");
    expect(titles(deck)[2]).toBe("Three");
    expect(deck.discussionTopics.at(-1).topic).toBe("Parallel");
  });

  it("lists revisions with their changes and restores one as a new revision", async () => {
    const id = await generate();
    const original = await getDeck(id);
    await edit(id, 'rename the deck to "Second"');
    await edit(id, "remove slide 2 and remove slide 2");
    const list = (
      await t.app.inject({ url: `/v1/presentations/${id}/revisions`, headers: tenant.headers })
    ).json();
    expect(list.current).toBe(3);
    expect(list.items.map((r: { number: number; kind: string }) => [r.number, r.kind])).toEqual([
      [1, "generate"],
      [2, "edit"],
      [3, "edit"],
    ]);
    expect(list.items[0].changes[0]).toMatch(/^Generated \d+ slides from the Account review template$/);
    expect(list.items[1]).toMatchObject({
      instructions: 'rename the deck to "Second"',
      changes: ['Renamed the deck to "Second"'],
    });
    const res = await t.app.inject({
      method: "POST",
      url: `/v1/presentations/${id}/revisions/1/restore`,
      headers: tenant.headers,
    });
    expect(res.json()).toEqual({ status: "updated", changesApplied: ["Restored revision 1"], revision: 4 });
    const restored = await getDeck(id);
    expect({ ...restored, updatedAt: undefined }).toEqual({ ...original, updatedAt: undefined });
    const missing = await t.app.inject({
      method: "POST",
      url: `/v1/presentations/${id}/revisions/99/restore`,
      headers: tenant.headers,
    });
    expect(missing.statusCode).toBe(404);
  });
});
