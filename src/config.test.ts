import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("config", () => {
  it("has defaults for a laptop", () => {
    const c = loadConfig({});
    expect(c.http).toMatchObject({ port: 3000, host: "127.0.0.1", publicUrl: "http://127.0.0.1:3000" });
    expect(c.storage).toEqual({ dataDir: path.resolve("data"), databaseUrl: undefined });
    expect(c.rateLimitPerMinute).toBeGreaterThan(0);
  });

  it("reads the environment", () => {
    const c = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://u@db/decksmith",
      PUBLIC_URL: "https://decks.example.com/",
    });
    expect(c.http.port).toBe(8080);
    expect(c.http.publicUrl).toBe("https://decks.example.com");
    expect(c.storage.databaseUrl).toBe("postgres://u@db/decksmith");
  });

  it("names every bad variable", () => {
    expect(() => loadConfig({ PORT: "abc", DATABASE_URL: "mysql://x", PUBLIC_URL: "not a url" })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: "99999", DATABASE_URL: "mysql://x" });
    } catch (err) {
      expect((err as Error).message).toContain("PORT");
      expect((err as Error).message).toContain("DATABASE_URL");
    }
  });
});
