import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { allLayoutsDeck } from "../../../test/fixtures/all-layouts-deck.ts";
import { axisTicks } from "../geometry.ts";
import { renderPdf } from "../render.ts";

const poppler = fs.existsSync("/usr/bin/pdftotext") && fs.existsSync("/usr/bin/pdffonts");
if (!poppler)
  console.warn(
    "[pdf] text and font checks skipped: pdftotext/pdffonts not found (apt-get install poppler-utils)",
  );

describe("PDF writer", () => {
  let file: string;
  let bytes: Buffer;

  beforeAll(async () => {
    bytes = await renderPdf(allLayoutsDeck);
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-pdf-")), "deck.pdf");
    fs.writeFileSync(file, bytes);
  });

  it("writes one page per slide plus a discussion topics page", () => {
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const pages = bytes.toString("latin1").match(/\/Type \/Page\b/g) ?? [];
    expect(pages).toHaveLength(allLayoutsDeck.slides.length + 1);
    expect(bytes.toString("latin1")).toContain("/MediaBox [0 0 960 540]");
  });

  it.skipIf(!poppler)("has extractable text and embedded subset fonts", () => {
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    for (const phrase of [
      "Account Review",
      "Beacon Security",
      "Maria Chen",
      "Pipeline by stage",
      "420,000",
      "Discussion topics",
      "Globex evaluation",
    ]) {
      expect(text).toContain(phrase);
    }
    const fonts = execFileSync("pdffonts", [file], { encoding: "utf8" }).split("\n").slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) {
      expect(line).toMatch(/\+Inter/); // subset prefix
      expect(line).toMatch(/\byes\s+yes\b/); // embedded, subset
    }
  });

  it("chooses round axis ticks", () => {
    expect(axisTicks([95_000, 420_000, 310_000])).toEqual([0, 100_000, 200_000, 300_000, 400_000, 500_000]);
    expect(axisTicks([-5, 12])).toEqual([-5, 0, 5, 10, 15]);
  });
});
