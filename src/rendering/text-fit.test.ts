import fs from "node:fs";
import * as fontkit from "fontkit";
import { describe, expect, it } from "vitest";
import { fontFamilies, fontMetrics, fontPath } from "./fonts.ts";
import { fitText, wrapParagraph } from "./text-fit.ts";

describe("fonts", () => {
  it("resolves a regular and a bold TTF for every theme family", () => {
    for (const family of fontFamilies) {
      for (const weight of ["regular", "bold"] as const) {
        const file = fontPath(family, weight);
        expect(file).toMatch(/\.ttf$/);
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      }
    }
  });

  it("measures like the font's own layout, within kerning", () => {
    const inter = fontMetrics("Inter");
    const font = fontkit.openSync(fontPath("Inter", "regular")) as fontkit.Font;
    const text = "Quarterly business review for Northwind Health";
    const exact = font.layout(text).advanceWidth / font.unitsPerEm;
    expect(inter.widthAt1pt(text)).toBeGreaterThanOrEqual(exact - 0.01);
    expect(inter.widthAt1pt(text)).toBeLessThan(exact * 1.03);
    expect(fontMetrics("Inter", "bold").widthAt1pt(text)).toBeGreaterThan(inter.widthAt1pt(text));
  });
});

describe("text fitting", () => {
  const metrics = fontMetrics("Inter");

  it("wraps within the width and breaks words wider than a line", () => {
    const lines = wrapParagraph(
      "Support response times slipped to nine hours this quarter",
      metrics,
      20,
      200,
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(metrics.widthAt1pt(l) * 20).toBeLessThanOrEqual(200);
    const long = wrapParagraph("Supercalifragilisticexpialidocious", metrics, 30, 120);
    expect(long.join("")).toBe("Supercalifragilisticexpialidocious");
    for (const l of long) expect(metrics.widthAt1pt(l) * 30).toBeLessThanOrEqual(120);
  });

  it("keeps short text at the largest size", () => {
    const fit = fitText({
      paragraphs: ["Agenda"],
      metrics,
      width: 800,
      height: 60,
      maxSize: 40,
      minSize: 20,
    });
    expect(fit).toMatchObject({ size: 40, paragraphs: [["Agenda"]], overflow: false });
  });

  it("shrinks longer text until it fits", () => {
    const paragraphs = Array.from(
      { length: 6 },
      (_, i) => `Point number ${i + 1} about renewal risk and the support plan we agreed`,
    );
    const fit = fitText({
      paragraphs,
      metrics,
      width: 500,
      height: 300,
      maxSize: 28,
      minSize: 12,
      paragraphGap: 0.4,
    });
    expect(fit.overflow).toBe(false);
    expect(fit.size).toBeLessThan(28);
    expect(fit.size).toBeGreaterThanOrEqual(12);
    expect(fit.height).toBeLessThanOrEqual(300);
  });

  it("cuts and ellipsizes at the minimum size, and says it overflowed", () => {
    const text = "word ".repeat(2000);
    const fit = fitText({
      paragraphs: [text, "second paragraph"],
      metrics,
      width: 300,
      height: 100,
      maxSize: 24,
      minSize: 12,
    });
    expect(fit.overflow).toBe(true);
    expect(fit.size).toBe(12);
    expect(fit.height).toBeLessThanOrEqual(100);
    const last = fit.paragraphs.at(-1)?.at(-1) ?? "";
    expect(last.endsWith("…")).toBe(true);
    expect(metrics.widthAt1pt(last) * 12).toBeLessThanOrEqual(300);
  });
});
