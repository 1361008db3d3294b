import { describe, expect, it } from "vitest";
import { allLayoutsDeck } from "../../test/fixtures/all-layouts-deck.ts";
import { AppError } from "../errors.ts";
import { checkSlide, layouts, parseSlides } from "./layouts.ts";
import {
  parseBullets,
  parseChart,
  parseMetrics,
  parseNumber,
  parsePeople,
  parseTable,
  parseTimeline,
} from "./placeholder-formats.ts";

describe("placeholder formats", () => {
  it("parses bullets, dropping list markers and blank lines", () => {
    expect(parseBullets("- one\n\n* two\n• three\n4. four")).toEqual(["one", "two", "three", "four"]);
    expect(() => parseBullets(" \n ")).toThrow("at least one line");
  });

  it("parses markdown pipe tables and names a ragged row", () => {
    expect(parseTable("| A | B |\n|---|:---:|\n| 1 | 2 |\nx | y")).toEqual({
      header: ["A", "B"],
      rows: [
        ["1", "2"],
        ["x", "y"],
      ],
    });
    expect(() => parseTable("| A | B |\n|---|---|\n| 1 |")).toThrow("row 1 has 1 cells, the header has 2");
    expect(() => parseTable("| A | B |")).toThrow("at least one row");
    expect(() => parseTable("just text")).toThrow("line 1 is not a table row");
  });

  it("reads numbers with separators, currencies, suffixes and percentages", () => {
    expect(parseNumber("1,200")?.value).toBe(1200);
    expect(parseNumber("$1.2M")?.value).toBe(1_200_000);
    expect(parseNumber("-4.5k")?.value).toBe(-4500);
    expect(parseNumber("35%")).toEqual({ value: 35, display: "35%" });
    expect(parseNumber("lots")).toBeUndefined();
  });

  it("parses charts and names the bad line", () => {
    expect(parseChart("Q1: 10\nQ2: 1,500")).toEqual([
      { label: "Q1", value: 10, display: "10" },
      { label: "Q2", value: 1500, display: "1,500" },
    ]);
    expect(() => parseChart("Q1: 10\nQ2: many")).toThrow('line 2: "many" is not a number');
    expect(() => parseChart("Q1: 10")).toThrow("at least two");
    expect(() => parseChart("Q1 10\nQ2: 3")).toThrow('line 1 should be "label: value"');
  });

  it("parses people, metrics and timelines", () => {
    expect(parsePeople("Ada | CTO | likes charts\nBo | CFO")).toEqual([
      { name: "Ada", title: "CTO", note: "likes charts" },
      { name: "Bo", title: "CFO" },
    ]);
    expect(() => parsePeople("Ada")).toThrow('"Name | Title | note"');
    expect(parseMetrics("ARR: $4M | +10%\nChurn: 2%")).toEqual([
      { label: "ARR", value: "$4M", note: "+10%" },
      { label: "Churn", value: "2%" },
    ]);
    expect(() => parseMetrics("ARR: $4M")).toThrow("2 to 4 metrics");
    expect(() => parseMetrics("a: 1\nb: 2\nc: 3\nd: 4\ne: 5")).toThrow("got 5");
    expect(parseTimeline("Jan 5: Kickoff\n2026-02-01: Go-live: phase 1")).toEqual([
      { when: "Jan 5", what: "Kickoff" },
      { when: "2026-02-01", what: "Go-live: phase 1" },
    ]);
  });
});

describe("layout catalog", () => {
  it("has at least twelve layouts, each with a title-like required placeholder", () => {
    expect(layouts.length).toBeGreaterThanOrEqual(12);
    for (const l of layouts) expect(Object.values(l.placeholders).some((p) => p.required)).toBe(true);
  });

  it("accepts the fixture deck, one slide of every layout", () => {
    const parsed = parseSlides(allLayoutsDeck.slides);
    expect(parsed.map((s) => s.layout.name).sort()).toEqual(layouts.map((l) => l.name).sort());
    const table = parsed.find((s) => s.layout.name === "table");
    expect(table?.values.table).toMatchObject({ header: ["Opportunity", "Stage", "Amount", "Close"] });
  });

  it("names the slide and the key of every problem", () => {
    const problems = checkSlide({
      index: 4,
      layoutName: "bar-chart",
      placeholders: { title: "", chart: "a: 1\nb: x", colour: "red" },
    }).problems;
    expect(problems.map((p) => p.path)).toEqual([
      "slides.4.placeholders.colour",
      "slides.4.placeholders.title",
      "slides.4.placeholders.chart",
    ]);
    expect(problems[2]?.message).toBe(
      'slide 5 (bar-chart): "chart" line 2: "x" is not a number ("label: value" lines, values numeric (1,200 · $1.2M · 35%))',
    );
    expect(checkSlide({ index: 0, layoutName: "nope", placeholders: {} }).problems[0]?.message).toContain(
      'unknown layout "nope"',
    );
  });

  it("throws one 400 listing every problem of every slide", () => {
    try {
      parseSlides([
        { index: 0, layoutName: "title", placeholders: {} },
        { index: 1, layoutName: "metrics", placeholders: { title: "KPIs", metrics: "only: 1" } },
      ]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("invalid_request");
      expect((err as AppError).details?.map((d) => d.path)).toEqual([
        "slides.0.placeholders.title",
        "slides.1.placeholders.metrics",
      ]);
    }
  });
});
