import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/app.ts";
import { createTenant } from "../../../test/factories.ts";
import { loadDemoData } from "../../entities/demo-loader.ts";
import { parseSlides } from "../../rendering/layouts.ts";
import type { GenerationRequest } from "../../storage/schema.ts";
import { deckAsText } from "../deck-tools.ts";
import { workspaceReader } from "../workspace-reader.ts";
import { composeOffline, pickSubject } from "./composer.ts";

// Golden decks: every template over the demo CRM. A change to the composer shows up as a diff of
// these files, to be read and accepted (vitest -u) or fixed.

const cases: [string, GenerationRequest][] = [
  [
    "account-review",
    {
      templateId: "account-review",
      instructions: "Prepare an account review for Northwind Health",
      themeId: "clean",
    },
  ],
  [
    "quarterly-business-review",
    {
      templateId: "quarterly-business-review",
      instructions: "QBR for Blue Harbor Bank",
      themeId: "clean",
      tone: "formal",
      slideCount: 10,
    },
  ],
  [
    "deal-review",
    {
      templateId: "deal-review",
      instructions: "Deal review: the Atlas Analytics opportunity with Northwind Health",
      themeId: "clean",
    },
  ],
  [
    "meeting-prep",
    {
      templateId: "meeting-prep",
      instructions: "Prep me for my meeting with Maria Chen at Northwind Health",
      themeId: "clean",
      audience: "the account team",
    },
  ],
  [
    "pipeline-review",
    {
      templateId: "pipeline-review",
      instructions: "Pipeline review for the sales leadership meeting",
      themeId: "clean",
      slideCount: 8,
    },
  ],
  [
    "general",
    {
      templateId: "general",
      themeId: "clean",
      instructions:
        "Make a presentation about our remote work policy. Cover benefits, challenges and tools. Remote work saves two hours of commuting a day, and the benefits include focus time. The main challenges are communication and isolation. Our tools are Slack, Zoom and Notion.",
    },
  ],
];

describe("offline composer over the demo data", () => {
  let t: TestApp;
  let reader: ReturnType<typeof workspaceReader>;

  beforeAll(async () => {
    t = await createTestApp();
    const tenant = await createTenant(t.c);
    const actor = await t.c.workspaces.resolveActor(
      { userId: tenant.user.id, via: "api_key" },
      tenant.workspace.id,
    );
    await loadDemoData(t.c.entities, actor);
    reader = workspaceReader(actor, t.c);
  });
  afterAll(() => t?.close());

  it.each(cases)(
    "composes the %s golden deck, the same every time, and every slide renders",
    async (name, request) => {
      const deck = await composeOffline(request, reader);
      expect(() => parseSlides(deck.slides.map((s, index) => ({ index, ...s })))).not.toThrow();
      if (request.slideCount) expect(deck.slides.length).toBeLessThanOrEqual(request.slideCount);
      expect(deckAsText(await composeOffline(request, reader))).toBe(deckAsText(deck));
      await expect(`${deckAsText(deck)}\n`).toMatchFileSnapshot(`../../../test/golden/${name}.txt`);
    },
  );

  it("grounds every number on a slide in the workspace's entities", async () => {
    const deck = await composeOffline(cases[0]?.[1] as GenerationRequest, reader);
    const metrics = deck.slides.find((s) => s.layoutName === "metrics")?.placeholders.metrics ?? "";
    const hit = (await reader.search("Northwind Health", ["account"], 1))[0];
    const northwind = hit && (await reader.get(hit.id));
    const revenue = Number(northwind?.fields.annualRevenue);
    expect(metrics).toContain(
      `Annual revenue: $${revenue >= 1e9 ? `${Number((revenue / 1e9).toFixed(1))}B` : `${Math.round(revenue / 1e6)}M`}`,
    );
    expect(metrics).toContain(`Employees: ${Number(northwind?.fields.employees).toLocaleString("en-US")}`);
  });

  it("refuses a language it cannot write", async () => {
    await expect(
      composeOffline({ ...(cases[5]?.[1] as GenerationRequest), language: "fr" }, reader),
    ).rejects.toThrow(/English only/);
  });
});

describe("picking the subject", () => {
  const accounts = [
    { name: "Northwind Health" },
    { name: "Mercy Valley Hospital" },
    { name: "Summit Children's Hospital" },
  ];
  it.each([
    ["QBR for Northwind Health", "Northwind Health"],
    ["review of northwind", "Northwind Health"],
    ["the Mercy Valley account", "Mercy Valley Hospital"],
    ["a hospital we know", undefined],
    ["something else entirely", undefined],
  ])("%s → %s", (instructions, expected) => {
    expect(pickSubject(instructions, accounts)?.name).toBe(expected);
  });
});
