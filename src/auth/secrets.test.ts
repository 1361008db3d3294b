import { describe, expect, it } from "vitest";
import { API_KEY_PATTERN, hashPassword, newApiKey, safeEqual, sha256, verifyPassword } from "./secrets.ts";

describe("secrets", () => {
  it("makes ak_ keys of 32 random bytes in base62, stored only as a SHA-256 hash", () => {
    const a = newApiKey();
    const b = newApiKey();
    expect(a.key).toMatch(API_KEY_PATTERN);
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toBe(sha256(a.key));
    expect(a.hash).not.toContain(a.key.slice(3));
    expect(a.prefix).toBe(a.key.slice(0, 10));
  });

  it("hashes passwords with a salt and verifies them", async () => {
    const one = await hashPassword("correct horse");
    const two = await hashPassword("correct horse");
    expect(one).not.toBe(two);
    expect(one).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", one)).toBe(true);
    expect(await verifyPassword("wrong horse", one)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });

  it("compares strings of any length without throwing", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
