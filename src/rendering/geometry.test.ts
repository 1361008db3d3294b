import { describe, expect, it } from "vitest";
import { allLayoutsDeck } from "../../test/fixtures/all-layouts-deck.ts";
import { themes } from "../catalog/themes.ts";
import { fontMetrics } from "./fonts.ts";
import { type Element, layoutSlide, SLIDE } from "./geometry.ts";
import { parseSlides } from "./layouts.ts";

const inside = (e: Element) => {
  const { x, y, w, h } = e.box;
  return x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= SLIDE.width + 0.01 && y + h <= SLIDE.height + 0.01;
};

describe("slide geometry", () => {
  const parsed = parseSlides(allLayoutsDeck.slides);

  it.each(themes.map((t) => [t.id, t] as const))(
    "lays out every layout inside the page in the %s theme",
    (_id, theme) => {
      for (const slide of parsed) {
        const g = layoutSlide(slide, theme);
        expect(g.warnings, `${slide.layout.name}`).toEqual([]);
        expect(g.elements.length).toBeGreaterThan(0);
        for (const e of g.elements) {
          expect(inside(e), `${slide.layout.name}: ${JSON.stringify(e.box)}`).toBe(true);
          if (e.kind !== "text") continue;
          // Every drawn line fits the box's width at the chosen size, with the same font files.
          const metrics = fontMetrics(e.font.family, e.font.weight);
          const indent = e.bullets ? 1.1 * e.font.size : 0;
          for (const line of e.paragraphs.flat())
            expect(metrics.widthAt1pt(line) * e.font.size).toBeLessThanOrEqual(e.box.w - indent + 0.01);
          const lines = e.paragraphs.flat().length;
          expect(lines * e.font.size * e.lineHeight).toBeLessThanOrEqual(e.box.h + e.font.size); // gaps aside
        }
      }
    },
  );

  it("shrinks long text, then shortens it and warns", () => {
    const [clean] = themes;
    const long = parseSlides([
      {
        index: 2,
        layoutName: "bullets",
        placeholders: {
          title: "Many points",
          body: Array.from(
            { length: 40 },
            (_, i) => `Point ${i + 1}: a sentence about renewal risk, support plans and pricing`,
          ).join("\n"),
        },
      },
    ]);
    const g = layoutSlide(long[0] as (typeof long)[number], clean as (typeof themes)[number]);
    const body = g.elements.find((e) => e.kind === "text" && e.bullets);
    expect(body?.kind === "text" && body.font.size).toBe(12);
    expect(g.warnings).toEqual(["slide 3: the list is too long for its box and was shortened"]);
  });

  it("is deterministic", () => {
    const theme = themes[2] as (typeof themes)[number];
    const once = parsed.map((s) => layoutSlide(s, theme));
    const twice = parsed.map((s) => layoutSlide(s, theme));
    expect(JSON.stringify(once)).toBe(JSON.stringify(twice));
  });

  it("sizes table columns and charts from the content", () => {
    const theme = themes[0] as (typeof themes)[number];
    const table = layoutSlide(
      parsed.find((s) => s.layout.name === "table") as (typeof parsed)[number],
      theme,
    ).elements.find((e) => e.kind === "table");
    expect(table?.kind).toBe("table");
    if (table?.kind === "table") {
      expect(table.columnWidths.reduce((a, b) => a + b, 0)).toBeCloseTo(table.box.w, 5);
      expect(table.columnWidths[0]).toBeGreaterThan(table.columnWidths[1] as number); // "Beacon Security" > "Proposal"
    }
    const chart = layoutSlide(
      parsed.find((s) => s.layout.name === "line-chart") as (typeof parsed)[number],
      theme,
    ).elements.find((e) => e.kind === "chart");
    expect(chart).toMatchObject({
      chart: "line",
      points: expect.arrayContaining([{ label: "Sep", value: 1840, display: "1,840" }]),
    });
  });
});
