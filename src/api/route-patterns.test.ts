import { describe, expect, it } from "vitest";
import { RoutePatterns } from "./error-handler.ts";

describe("RoutePatterns", () => {
  it("finds the methods of a path, with parameters", () => {
    const p = new RoutePatterns();
    p.add("/v1/presentations", ["GET", "HEAD"]);
    p.add("/v1/presentations/:presentationId", "GET");
    p.add("/v1/presentations/:presentationId/edit", "POST");
    expect(p.methodsFor("/v1/presentations")).toEqual(["GET", "HEAD"]);
    expect(p.methodsFor("/v1/presentations/abc")).toEqual(["GET"]);
    expect(p.methodsFor("/v1/presentations/abc/edit")).toEqual(["POST"]);
    expect(p.methodsFor("/v1/nothing")).toEqual([]);
  });
});
