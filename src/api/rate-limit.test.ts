import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { engineUnavailable } from "../../test/database.ts";
import { createTenant } from "../../test/factories.ts";

describe.skipIf(engineUnavailable)("rate limiting", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: "5" });
  });
  afterAll(() => t.close());

  it("answers 429 with Retry-After and RateLimit headers past the limit, per API key", async () => {
    const a = await createTenant(t.c);
    const b = await createTenant(t.c);
    const get = (headers: Record<string, string>) =>
      t.app.inject({ method: "GET", url: "/v1/workspaces", headers });
    for (let i = 0; i < 5; i++) {
      const ok = await get(a.headers);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers["ratelimit-limit"]).toBe("5");
      expect(ok.headers["ratelimit-remaining"]).toBe(String(4 - i));
    }
    const limited = await get(a.headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe("rate_limited");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
    // Another key has its own budget.
    expect((await get(b.headers)).statusCode).toBe(200);
  });

  it("does not limit health checks", async () => {
    for (let i = 0; i < 8; i++) {
      expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    }
  });
});
