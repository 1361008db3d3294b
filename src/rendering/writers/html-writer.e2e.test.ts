import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumMissing, launchBrowser } from "../../../test/browser.ts";
import { runCli } from "../../../test/cli.ts";
import { allLayoutsDeck } from "../../../test/fixtures/all-layouts-deck.ts";
import { renderHtml } from "../render.ts";

describe("HTML writer and decksmith render", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-render-"));
  const deckFile = path.join(dir, "deck.json");
  let browser: Browser | undefined;

  beforeAll(async () => {
    fs.writeFileSync(deckFile, JSON.stringify(allLayoutsDeck));
    if (!chromiumMissing) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(chromiumMissing)(
    "draws every slide in Chromium with the theme's fonts, inside its slide",
    async () => {
      const file = path.join(dir, "deck.html");
      fs.writeFileSync(file, renderHtml(allLayoutsDeck));
      const page = await (browser as Browser).newPage();
      await page.goto(`file://${file}`);
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.fonts.check("bold 16px Inter"))).toBe(true);
      const report = await page.$$eval(".slide", (slides) =>
        slides.map((s) => {
          const frame = s.getBoundingClientRect();
          const outside = [...s.querySelectorAll(".l")].filter((l) => {
            const r = l.getBoundingClientRect();
            return (
              r.left < frame.left - 1 ||
              r.right > frame.right + 1 ||
              r.top < frame.top - 1 ||
              r.bottom > frame.bottom + 1
            );
          }).length;
          return { layout: s.getAttribute("data-layout"), text: s.textContent ?? "", outside };
        }),
      );
      expect(report).toHaveLength(allLayoutsDeck.slides.length);
      expect(report.every((r) => r.outside === 0)).toBe(true);
      expect(report.find((r) => r.layout === "table")?.text).toContain("Beacon Security");
      expect(await page.locator(".slide[data-layout='bar-chart'] svg rect").count()).toBe(4);
      await page.close();
    },
  );

  it("renders a deck file to PPTX, PDF and HTML from the command line", async () => {
    for (const format of ["pptx", "pdf", "html"]) {
      const out = path.join(dir, `out.${format}`);
      const r = await runCli(["render", "--input", deckFile, "--format", format, "--out", out, "--json"], {});
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ format, slides: 13 });
      expect(fs.statSync(out).size).toBeGreaterThan(10_000);
    }
  });

  it("names the slide and key of a bad placeholder, and rejects a bad format", async () => {
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(
      bad,
      JSON.stringify({
        ...allLayoutsDeck,
        slides: [{ index: 0, layoutName: "people", placeholders: { title: "Team", people: "Just a name" } }],
      }),
    );
    const r = await runCli(
      ["render", "--input", bad, "--format", "pdf", "--out", path.join(dir, "x.pdf")],
      {},
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('slide 1 (people): "people" line 1 should be "Name | Title | note"');
    const f = await runCli(["render", "--input", deckFile, "--format", "docx", "--out", "x"], {});
    expect(f.code).toBe(1);
    expect(f.stderr).toContain("--format must be one of pptx, pdf, html");
  });
});
