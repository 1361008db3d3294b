import { describe, expect, it } from "vitest";
import { queryWords, reciprocalRankFusion, snippetFor } from "./fusion.ts";

describe("fusion", () => {
  it("rewards items ranked well in both lists", () => {
    const fused = reciprocalRankFusion([
      ["a", "b", "c"],
      ["c", "a", "d"],
    ]);
    expect(fused.map((f) => f.id)).toEqual(["a", "c", "b", "d"]);
    expect(fused[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 10);
  });

  it("keeps only the distinct words of a query, safe for a tsquery", () => {
    expect(queryWords("Customers' churn & risk: 2026! churn")).toEqual([
      "customers",
      "churn",
      "risk",
      "2026",
    ]);
    expect(queryWords("!!! ???")).toEqual([]);
  });

  it("picks the sentence that shares most words with the query", () => {
    const body =
      "Kickoff went well. They are considering cancelling the contract at renewal. Lunch next week.";
    expect(snippetFor(body, "cancelling contract")).toBe(
      "They are considering cancelling the contract at renewal.",
    );
    expect(snippetFor(body, "zebra")).toBe("Kickoff went well.");
    expect(snippetFor("x".repeat(500), "x").length).toBe(200);
  });
});
