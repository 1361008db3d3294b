import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allLayoutsDeck } from "../../../test/fixtures/all-layouts-deck.ts";
import {
  libreOfficeMissing,
  pdfFonts,
  pdfPageCount,
  pdfText,
  sofficeConvert,
} from "../../../test/libreoffice.ts";
import { renderPptx } from "../render.ts";

// The PPTX as an office suite sees it: LibreOffice opens it and prints it to PDF.
describe.skipIf(libreOfficeMissing)("PPTX in LibreOffice", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-lo-"));
  let pdf: string;

  beforeAll(async () => {
    const pptx = path.join(dir, "deck.pptx");
    fs.writeFileSync(pptx, await renderPptx(allLayoutsDeck));
    pdf = sofficeConvert(pptx, "pdf", dir);
  }, 180_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("opens and converts with one page per slide", () => {
    expect(pdfPageCount(pdf)).toBe(allLayoutsDeck.slides.length);
  });

  it("keeps every slide's text, including tables, charts and people", () => {
    const text = pdfText(pdf).replace(/\s+/g, " ");
    for (const phrase of [
      "Northwind Health: Account Review",
      "Account at a glance",
      "Support response times slipped to 9 hours",
      "Beacon Security", // table cell
      "Pipeline by stage", // chart title
      "Maria Chen", // people
      "Next steps",
    ]) {
      expect(text, phrase).toContain(phrase);
    }
  });

  it("sets the theme's font, found through the bundled TTFs", () => {
    expect(pdfFonts(pdf)).toMatch(/Inter/);
  });
});
