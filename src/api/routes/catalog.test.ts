import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant, createUser } from "../../../test/factories.ts";

describe.skipIf(engineUnavailable)("workspaces, templates and themes", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await createTenant(t.c, { name: "Acme" });
  });
  afterAll(() => t.close());

  it("lists the caller's workspaces with API access, without needing X-Workspace-Id", async () => {
    const enterprise = await t.c.workspaces.create({ name: "Big Co", plan: "enterprise" }, tenant.user.id);
    await t.c.workspaces.create({ name: "Hobby", plan: "free" }, tenant.user.id);
    const someoneElses = await createUser(t.c);
    await t.c.workspaces.create({ name: "Not mine", plan: "pro" }, someoneElses.id);

    const res = await t.app.inject({
      method: "GET",
      url: "/v1/workspaces",
      headers: { authorization: tenant.headers.authorization },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: tenant.workspace.id,
        name: "Acme",
        plan: "pro",
        role: "owner",
        createdAt: expect.stringMatching(/Z$/),
      },
      { id: enterprise.id, name: "Big Co", plan: "enterprise", role: "owner", createdAt: expect.any(String) },
    ]);
  });

  it("lists at least six templates as a plain array of the spec's shape", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/templates", headers: tenant.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body.length).toBeGreaterThanOrEqual(6);
    for (const template of body) {
      expect(Object.keys(template).sort()).toEqual(["description", "id", "name", "suggestedEntityTypes"]);
      expect(template.suggestedEntityTypes).toBeInstanceOf(Array);
    }
    expect(body.map((x: { id: string }) => x.id)).toEqual(
      expect.arrayContaining([
        "account-review",
        "quarterly-business-review",
        "deal-review",
        "meeting-prep",
        "pipeline-review",
        "general",
      ]),
    );
  });

  it("lists at least six themes with colours and fonts", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/themes", headers: tenant.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.length).toBeGreaterThanOrEqual(6);
    expect(new Set(body.map((x: { id: string }) => x.id)).size).toBe(body.length);
    expect(body[0]).toMatchObject({
      id: "clean",
      name: "Clean",
      colors: { background: "FFFFFF" },
      fonts: { heading: "Inter" },
    });
  });
});
