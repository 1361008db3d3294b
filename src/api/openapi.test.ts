import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { engineUnavailable } from "../../test/database.ts";

describe.skipIf(engineUnavailable)("OpenAPI document", () => {
  let t: TestApp;
  // biome-ignore lint/suspicious/noExplicitAny: assertions walk the parsed JSON document freely
  let doc: Record<string, any>;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.close());

  it("is valid OpenAPI 3.1.0 with API version 1.0.0", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
  });

  it("lists every API route, and no web page", async () => {
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        "GET /healthz",
        "GET /readyz",
        "GET /v1/presentations",
        "GET /v1/presentations/{presentationId}",
        "GET /v1/templates",
        "GET /v1/themes",
        "GET /v1/workspaces",
        "POST /v1/entities",
        "GET /v1/entities",
        "GET /v1/entities/{entityId}",
        "DELETE /v1/entities/{entityId}",
        "POST /v1/entities/search",
        "POST /v1/presentations/{presentationId}/export",
        "POST /v1/presentations/generate",
        "POST /v1/presentations/{presentationId}/stop",
        "POST /v1/presentations/{presentationId}/edit",
        "GET /v1/presentations/{presentationId}/revisions",
        "GET /v1/presentations/{presentationId}/events",
        "POST /v1/webhooks",
        "GET /v1/webhooks",
        "DELETE /v1/webhooks/{webhookId}",
        "GET /v1/webhooks/{webhookId}/deliveries",
        "POST /v1/presentations/{presentationId}/revisions/{number}/restore",
        "GET /downloads",
      ].sort(),
    );
  });

  it("declares bearer security, parameters, and success and error responses", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { oauth2: [] }]);
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: expect.stringMatching(/\/oauth\/authorize$/),
      tokenUrl: expect.stringMatching(/\/oauth\/token$/),
      scopes: expect.objectContaining({ "presentations:write": expect.any(String) }),
    });
    const list = doc.paths["/v1/presentations"].get;
    const params = list.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`);
    expect(params).toEqual(expect.arrayContaining(["query:limit", "query:offset", "header:x-workspace-id"]));
    expect(Object.keys(list.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "404", "429"]),
    );
    const get = doc.paths["/v1/presentations/{presentationId}"].get;
    expect(
      get.parameters.find((p: { name: string }) => p.name === "presentationId").schema.pattern,
    ).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.Error)).toContain("code");
    expect(doc.components.schemas.PresentationDetail).toBeDefined();
  });

  it("serves the docs page", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
  });
});
