import fs from "node:fs";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { chromiumMissing, launchBrowser } from "../../test/browser.ts";
import { createTenant, createUser, deck } from "../../test/factories.ts";
import { allLayoutsDeck } from "../../test/fixtures/all-layouts-deck.ts";
import { loadDemoData } from "../entities/demo-loader.ts";

const fixture = {
  name: allLayoutsDeck.name,
  status: "ready" as const,
  summary: allLayoutsDeck.summary,
  templateId: "account-review",
  themeId: "clean",
  slides: allLayoutsDeck.slides,
  discussionTopics: allLayoutsDeck.discussionTopics,
};

async function signedIn(t: TestApp, userId: string) {
  const { token } = await t.c.sessions.create(userId);
  const session = await t.c.sessions.resolve(token);
  return { cookie: `ds_session=${token}`, csrf: session?.csrfToken ?? "" };
}

describe("viewer over HTTP", () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createTenant>>;
  let deckId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createTenant(t.c);
    deckId = (await t.c.presentationRepository.insert(owner.workspace.id, fixture)).id;
  });
  afterAll(() => t?.close());

  it("sends a visitor without a session to sign in, and back", async () => {
    const res = await t.app.inject({ url: `/p/${deckId}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/signin?next=${encodeURIComponent(`/p/${deckId}`)}`);
  });

  it("shows the deck to a member: every slide, the topics, export buttons, strict headers", async () => {
    const { cookie } = await signedIn(t, owner.user.id);
    const res = await t.app.inject({ url: `/p/${deckId}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["content-security-policy"]).toContain("font-src 'self'");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body.match(/class="frame"/g)).toHaveLength(allLayoutsDeck.slides.length);
    expect(res.body).toContain("Agree a 2-hour response target before renewal.");
    expect(res.body).toContain('id="export-pptx"');
    expect(res.body).toContain("/fonts/Inter/bold.ttf");
  });

  it("answers 404 for a deck in a workspace the user is not a member of, or a bad id", async () => {
    const stranger = await createTenant(t.c);
    const { cookie } = await signedIn(t, stranger.user.id);
    for (const url of [`/p/${deckId}`, "/p/not-an-id", "/p/6b0000000000000000000099"]) {
      const res = await t.app.inject({ url, headers: { cookie } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe("not_found");
    }
  });

  it("lets a viewer of a free-plan workspace see its decks (the plan gates the API only)", async () => {
    const free = await createTenant(t.c, { plan: "free", role: "viewer" });
    const id = (await t.c.presentationRepository.insert(free.workspace.id, deck({ name: "Free deck" }))).id;
    const { cookie } = await signedIn(t, free.user.id);
    const res = await t.app.inject({ url: `/p/${id}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Free deck");
  });

  it("says a deck is still generating, follows its progress, and offers no export", async () => {
    const id = (
      await t.c.presentationRepository.insert(owner.workspace.id, deck({ status: "generating", slides: [] }))
    ).id;
    const { cookie } = await signedIn(t, owner.user.id);
    const res = await t.app.inject({ url: `/p/${id}`, headers: { cookie } });
    expect(res.body).toContain("still writing this deck");
    expect(res.body).toContain('new EventSource(location.pathname + "/events")');
    expect(res.body).toContain('<noscript><meta http-equiv="refresh" content="5"></noscript>');
    expect(res.body).not.toContain('id="export-pptx"');
  });

  it("exports from a form with a CSRF token, then redirects to the signed download", async () => {
    const { cookie, csrf } = await signedIn(t, owner.user.id);
    const post = (fields: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: `/p/${deckId}/export`,
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(fields).toString(),
      });
    expect((await post({ format: "pdf" })).statusCode).toBe(403);
    const res = await post({ _csrf: csrf, format: "pdf" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/downloads\?/);
    const file = await t.app.inject({ url: String(res.headers.location) });
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.headers["content-disposition"]).toContain("Northwind-Health-Account-Review.pdf");
    expect((await post({ _csrf: csrf, format: "docx" })).statusCode).toBe(400);
  });

  it("serves the theme fonts, and nothing else from /fonts", async () => {
    const font = await t.app.inject({ url: "/fonts/Source%20Sans%203/bold.ttf" });
    expect(font.statusCode).toBe(200);
    expect(font.headers["content-type"]).toBe("font/ttf");
    expect(font.rawPayload.readUInt32BE(0)).toBe(0x00010000); // TrueType
    for (const url of ["/fonts/Comic%20Sans/regular.ttf", "/fonts/Inter/..%2F..%2Fpackage.json"]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});

describe.skipIf(chromiumMissing)("viewer in Chromium", () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let deckId: string;
  let workspaceId: string;
  let page: Page;
  const password = "correct horse battery";

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const user = await createUser(t.c, "viewer");
    const ws = await t.c.workspaces.create({ name: "Sales", plan: "pro" }, user.id);
    deckId = (await t.c.presentationRepository.insert(ws.id, fixture)).id;
    workspaceId = ws.id;
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    await page.goto(`${base}/p/${deckId}`);
    await page.fill("#email", user.email);
    await page.fill("#password", password);
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/p/${deckId}#1`);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const visible = () => page.locator(".frame:not([hidden])");
  const counter = () => page.textContent("#counter");

  it("shows one slide at a time, scaled to fit the window at 16:9", async () => {
    expect(await visible().count()).toBe(1);
    expect(await counter()).toBe(`1 / ${allLayoutsDeck.slides.length}`);
    const box = await visible().boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    expect(box.width).toBeLessThanOrEqual(1280);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(box.width / box.height).toBeCloseTo(16 / 9, 1);
    // The slide inside fills its frame exactly.
    const slide = await page.locator(".frame:not([hidden]) .slide").boundingBox();
    expect(slide?.width).toBeCloseTo(box.width, 0);

    await page.setViewportSize({ width: 700, height: 900 });
    // The page scales on its resize event, which may come a frame later.
    await expect
      .poll(async () => (await visible().boundingBox())?.width ?? Infinity)
      .toBeLessThanOrEqual(700);
    expect((await visible().boundingBox())?.width).toBeLessThan(box.width);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("moves with the arrow keys, Home and End, and keeps the place in the address", async () => {
    const last = allLayoutsDeck.slides.length;
    await page.keyboard.press("ArrowRight");
    expect(await counter()).toBe(`2 / ${last}`);
    expect(new URL(page.url()).hash).toBe("#2");
    expect(await visible().getAttribute("id")).toBe("slide-2");
    await page.keyboard.press("End");
    expect(await counter()).toBe(`${last} / ${last}`);
    expect(await page.isDisabled("#next")).toBe(true);
    await page.keyboard.press("ArrowLeft");
    expect(await counter()).toBe(`${last - 1} / ${last}`);
    await page.keyboard.press("Home");
    expect(await counter()).toBe(`1 / ${last}`);
    await page.click("#next");
    expect(await counter()).toBe(`2 / ${last}`);
    await page.goto(`${base}/p/${deckId}#7`);
    await page.reload();
    expect(await counter()).toBe(`7 / ${last}`);
    expect(await page.textContent(".frame:not([hidden])")).toContain("Beacon Security");
  });

  it("draws with the theme's fonts from this server", async () => {
    await page.evaluate(() => document.fonts.ready);
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((f) => f.status === "loaded").map((f) => `${f.family} ${f.weight}`),
    );
    expect(loaded).toEqual(expect.arrayContaining(["Inter 400", "Inter 700"]));
  });

  it("lists the discussion topics below the slides", async () => {
    const topics = await page.textContent("#topics");
    expect(topics).toContain("Support response times");
    expect(topics).toContain("Globex evaluation");
  });

  it("shows a deck generated from the workspace's data", async () => {
    const owner = await t.c.workspaces.operatorActor(workspaceId);
    await loadDemoData(t.c.entities, owner);
    const { body } = await t.c.generation.generate(
      owner,
      { instructions: "Account review for Northwind Health", templateId: "account-review" },
      { respondAsync: true },
    );
    await t.c.generation.run(body.presentationId);
    const deck = await t.c.presentations.get(owner, body.presentationId);
    expect(deck.status).toBe("ready");
    await page.goto(`${base}/p/${body.presentationId}`);
    expect(await page.textContent("#deck-name")).toBe("Northwind Health: Account Review");
    expect(await page.locator(".frame").count()).toBe(deck.slides.length);
    expect(await counter()).toBe(`1 / ${deck.slides.length}`);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await page.textContent(".frame:not([hidden])")).toContain("Annual revenue");
    expect(await page.textContent("#topics")).toContain(deck.discussionTopics[0]?.topic ?? "");
    await page.goto(`${base}/p/${deckId}`);
  });

  it("shows a deck's progress while it is written, then the deck", async () => {
    const owner = await t.c.workspaces.operatorActor(workspaceId);
    const { body } = await t.c.generation.generate(
      owner,
      { instructions: "Make a deck about onboarding. Cover laptops, accounts and training." },
      { respondAsync: true },
    );
    await page.goto(`${base}/p/${body.presentationId}`);
    expect(await page.textContent("#status")).toContain("still writing this deck");
    await t.c.bus.publish(workspaceId, body.presentationId, {
      type: "slide",
      data: { n: 2, of: 5, title: "Laptops" },
    });
    await expect.poll(() => page.textContent("#status")).toBe("Writing slide 2 of 5: Laptops");
    await t.c.generation.run(body.presentationId); // the worker finishes: the page reloads itself
    await expect.poll(() => page.locator(".frame").count(), { timeout: 10_000 }).toBeGreaterThan(2);
    expect(await page.locator("#status").count()).toBe(0);
    await page.goto(`${base}/p/${deckId}`);
  });

  it("downloads the PPTX and the PDF from the export buttons", async () => {
    for (const [format, magic] of [
      ["pptx", "PK"],
      ["pdf", "%PDF-"],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent("download"), page.click(`#export-${format}`)]);
      expect(download.suggestedFilename()).toBe(`Northwind-Health-Account-Review.${format}`);
      const file = await download.path();
      expect(fs.readFileSync(file).subarray(0, magic.length).toString()).toBe(magic);
    }
  });
});
