import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { engineUnavailable } from "../../test/database.ts";
import { createTenant } from "../../test/factories.ts";

describe.skipIf(engineUnavailable)("authentication and workspace access", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await createTenant(t.c);
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: "GET", url, headers });

  it.each([
    ["no Authorization header", {}],
    ["a non-Bearer scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["a malformed bearer", { authorization: "Bearer" }],
    ["an unknown key", { authorization: `Bearer ak_${"A".repeat(43)}` }],
    ["a token that is not a key", { authorization: "Bearer hello" }],
  ])("401 with WWW-Authenticate for %s", async (_label, headers) => {
    for (const url of ["/v1/workspaces", "/v1/presentations", "/v1/templates"]) {
      const res = await get(url, { "x-workspace-id": tenant.workspace.id, ...headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer /);
      expect(res.json().code).toBe("unauthorized");
    }
  });

  it("401 once a key is revoked, at once", async () => {
    const other = await createTenant(t.c);
    expect((await get("/v1/workspaces", other.headers)).statusCode).toBe(200);
    const [key] = await t.c.apiKeys.list(other.user.id);
    await t.c.apiKeys.revoke(key?.id ?? "", other.user.id);
    const res = await get("/v1/workspaces", other.headers);
    expect(res.statusCode).toBe(401);
  });

  it("records when a key was last used", async () => {
    const other = await createTenant(t.c);
    await get("/v1/workspaces", other.headers);
    const [key] = await t.c.apiKeys.list(other.user.id);
    expect(key?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("400 when X-Workspace-Id is missing or malformed on workspace endpoints", async () => {
    const missing = await get("/v1/presentations", { authorization: tenant.headers.authorization });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0].path).toBe("headers.x-workspace-id");
    const malformed = await get("/v1/themes", { ...tenant.headers, "x-workspace-id": "nope" });
    expect(malformed.statusCode).toBe(400);
  });

  it("404 for a workspace that does not exist or that the caller is not a member of", async () => {
    const unknown = await get("/v1/templates", { ...tenant.headers, "x-workspace-id": "f".repeat(24) });
    expect(unknown.statusCode).toBe(404);
    const stranger = await createTenant(t.c);
    const foreign = await get("/v1/templates", {
      ...tenant.headers,
      "x-workspace-id": stranger.workspace.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe("not_found");
  });

  it("matches the workspace id case-insensitively", async () => {
    const res = await get("/v1/templates", {
      ...tenant.headers,
      "x-workspace-id": tenant.workspace.id.toUpperCase(),
    });
    expect(res.statusCode).toBe(200);
  });

  it("403 plan_required on a free workspace, which is also left out of the workspace list", async () => {
    const free = await createTenant(t.c, { plan: "free" });
    for (const url of ["/v1/presentations", "/v1/templates", "/v1/themes"]) {
      const res = await get(url, free.headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("plan_required");
    }
    const list = await get("/v1/workspaces", free.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
  });

  it("lets a viewer read templates, themes and presentations", async () => {
    const viewer = await createTenant(t.c, { role: "viewer" });
    for (const url of ["/v1/presentations", "/v1/templates", "/v1/themes"]) {
      expect((await get(url, viewer.headers)).statusCode).toBe(200);
    }
    const list = await get("/v1/workspaces", viewer.headers);
    expect(list.json()).toEqual([expect.objectContaining({ id: viewer.workspace.id, role: "viewer" })]);
  });
});
