import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";
import { allLayoutsDeck } from "../../../test/fixtures/all-layouts-deck.ts";

describe.skipIf(engineUnavailable)("export and signed downloads", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let deckId: string;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { now: () => clock });
    tenant = await createTenant(t.c);
    const row = await t.c.presentationRepository.insert(tenant.workspace.id, {
      name: "Northwind Health: Account Review (Q3)",
      status: "ready",
      themeId: "clean",
      slides: allLayoutsDeck.slides.map(({ index: _index, ...s }) => s),
      discussionTopics: allLayoutsDeck.discussionTopics,
    });
    deckId = row.id;
  });
  afterAll(() => t.close());

  const exportDeck = (payload: object | undefined, id = deckId, headers = tenant.headers) =>
    t.app.inject({
      method: "POST",
      url: `/v1/presentations/${id}/export`,
      headers,
      ...(payload ? { payload } : {}),
    });
  const download = (url: string) => {
    const u = new URL(url);
    return t.app.inject({ method: "GET", url: `${u.pathname}${u.search}` });
  };

  it("exports PPTX by default, with a link valid 14 hours that streams the file", async () => {
    const res = await exportDeck({});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.format).toBe("pptx");
    expect(new Date(body.expiresAt).getTime()).toBe(clock + 14 * 3600_000);
    const file = await download(body.downloadUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    );
    expect(file.headers["content-disposition"]).toBe(
      `attachment; filename="Northwind-Health-Account-Review-Q3.pptx"; filename*=UTF-8''Northwind-Health-Account-Review-Q3.pptx`,
    );
    expect(file.rawPayload.subarray(0, 2).toString()).toBe("PK");
    // Without a body at all, too.
    const noBody = await exportDeck(undefined);
    expect(noBody.statusCode, noBody.body).toBe(200);
  });

  it("exports PDF, and reuses the file of the same version", async () => {
    const first = (await exportDeck({ format: "pdf" })).json();
    const second = (await exportDeck({ format: "pdf" })).json();
    expect(new URL(first.downloadUrl).searchParams.get("key")).toBe(
      new URL(second.downloadUrl).searchParams.get("key"),
    );
    const file = await download(second.downloadUrl);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("refuses a deck that is not ready, a bad format, and another workspace's deck", async () => {
    const generating = await t.c.presentationRepository.insert(tenant.workspace.id, {
      name: "Draft",
      status: "generating",
    });
    const notReady = await exportDeck({}, generating.id);
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json().code).toBe("presentation_not_ready");
    for (const payload of [{ format: "docx" }, { format: "pdf", colour: "red" }]) {
      const bad = await exportDeck(payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe("invalid_request");
    }
    expect((await exportDeck({}, "not-an-id")).statusCode).toBe(400);
    const other = await createTenant(t.c);
    expect((await exportDeck({}, deckId, other.headers)).statusCode).toBe(404);
    const viewer = await createTenant(t.c, { role: "viewer" });
    expect((await exportDeck({}, deckId, viewer.headers)).statusCode).toBe(404); // not in the viewer's workspace
  });

  it("lets a viewer export", async () => {
    const viewer = await createTenant(t.c, { role: "viewer" });
    const row = await t.c.presentationRepository.insert(viewer.workspace.id, {
      name: "Small",
      status: "ready",
      slides: [{ layoutName: "title", placeholders: { title: "Hello" } }],
    });
    const res = await exportDeck({ format: "pdf" }, row.id, viewer.headers);
    expect(res.statusCode).toBe(200);
  });

  it("answers 403 for an altered or expired link", async () => {
    const { downloadUrl } = (await exportDeck({})).json();
    const tamper = (param: string, value: string) => {
      const u = new URL(downloadUrl);
      u.searchParams.set(param, value);
      return u.toString();
    };
    for (const url of [
      tamper("sig", "x"),
      tamper("expires", String(clock + 1e9)),
      tamper("key", "exports/other.pptx"),
      tamper("name", "evil.exe"),
    ]) {
      const res = await download(url);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("forbidden");
    }
    clock += 14 * 3600_000 + 1000;
    const expired = await download(downloadUrl);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toContain("expired");
  });
});
