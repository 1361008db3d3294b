import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { engineUnavailable } from "../../test/database.ts";
import { createTenant } from "../../test/factories.ts";

// The error mechanism is global; a JSON route registered for the test exercises body parsing
// until the service has JSON-body endpoints of its own.
describe.skipIf(engineUnavailable)("error responses", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT_BYTES: "2048" }, (app) => {
      app.post(
        "/test/echo",
        { schema: { body: z.object({ name: z.string().min(1), count: z.int().min(0) }) } },
        async (request) => request.body,
      );
      app.get("/test/crash", async () => {
        throw new Error("secret internal detail");
      });
    });
    tenant = await createTenant(t.c);
  });
  afterAll(() => t.close());

  const expectError = (
    res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
    status: number,
    code: string,
  ) => {
    expect(res.statusCode).toBe(status);
    expect(String(res.headers["content-type"])).toMatch(/^application\/json/);
    const body = res.json() as Record<string, unknown>;
    expect(body.code).toBe(code);
    expect(typeof body.error).toBe("string");
    expect(body.message).toBe(body.error);
    return body;
  };

  it("404 for an unknown route", async () => {
    expectError(await t.app.inject({ method: "GET", url: "/v1/nothing-here" }), 404, "not_found");
  });

  it("405 with Allow for a known path and the wrong method", async () => {
    const res = await t.app.inject({ method: "DELETE", url: "/v1/presentations", headers: tenant.headers });
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.allow).toBe("GET, HEAD");
    const withParam = await t.app.inject({ method: "PUT", url: `/v1/presentations/${"a".repeat(24)}` });
    expectError(withParam, 405, "method_not_allowed");
  });

  it("400 for malformed JSON", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      headers: { "content-type": "application/json" },
      payload: '{"name": ',
    });
    expectError(res, 400, "invalid_request");
  });

  it("400 with details naming every bad field", async () => {
    const res = await t.app.inject({ method: "POST", url: "/test/echo", payload: { name: "", count: -1 } });
    const body = expectError(res, 400, "invalid_request");
    expect(body.details).toEqual([
      { path: "body.name", message: expect.any(String) },
      { path: "body.count", message: expect.any(String) },
    ]);
  });

  it("413 for a body over the limit", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      payload: { name: "x".repeat(5000), count: 1 },
    });
    expectError(res, 413, "payload_too_large");
  });

  it("415 for a content type other than JSON", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      headers: { "content-type": "text/csv" },
      payload: "a,b",
    });
    expectError(res, 415, "unsupported_media_type");
  });

  it("500 without the internal detail or a stack trace", async () => {
    const res = await t.app.inject({ method: "GET", url: "/test/crash" });
    const body = expectError(res, 500, "internal_error");
    expect(JSON.stringify(body)).not.toContain("secret internal detail");
    expect(JSON.stringify(body)).not.toContain("at ");
  });
});
