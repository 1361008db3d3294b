import JSZip from "jszip";
import { beforeAll, describe, expect, it } from "vitest";
import { allLayoutsDeck } from "../../../test/fixtures/all-layouts-deck.ts";
import { renderPptx } from "../render.ts";

describe("PPTX writer", () => {
  let zip: JSZip;
  let bytes: Buffer;
  const file = (name: string) => zip.file(name)?.async("string") ?? Promise.resolve("");

  beforeAll(async () => {
    bytes = await renderPptx(allLayoutsDeck);
    zip = await JSZip.loadAsync(bytes);
  });

  it("writes a zip with one slide per slide of the deck", () => {
    expect(bytes.subarray(0, 2).toString()).toBe("PK");
    const slides = Object.keys(zip.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/.test(f));
    expect(slides).toHaveLength(allLayoutsDeck.slides.length);
  });

  it("keeps text as editable text", async () => {
    const title = await file("ppt/slides/slide1.xml");
    expect(title).toContain("<a:t>Northwind Health: Account Review</a:t>");
    expect(title).toContain('typeface="Inter"');
    const bullets = await file("ppt/slides/slide5.xml");
    expect(bullets).toContain("<a:buChar");
    expect(bullets).toContain("Support response times slipped to 9 hours");
  });

  it("writes native tables and charts, not pictures", async () => {
    const table = await file("ppt/slides/slide7.xml");
    expect(table).toContain("<a:tbl>");
    expect(table).toContain("<a:t>Beacon Security</a:t>");
    const charts = Object.keys(zip.files).filter((f) => /^ppt\/charts\/chart\d+\.xml$/.test(f));
    expect(charts).toHaveLength(2);
    const xml = (await Promise.all(charts.map((c) => file(c)))).join("");
    expect(xml).toContain("<c:barChart>");
    expect(xml).toContain("<c:lineChart>");
    expect(xml).toContain("<c:v>1840</c:v>");
    // No pictures at all; each chart carries its data as an embedded workbook, editable in PowerPoint.
    expect(Object.values(zip.files).filter((f) => f.name.startsWith("ppt/media/") && !f.dir)).toEqual([]);
    expect(Object.keys(zip.files).filter((f) => f.endsWith(".xlsx"))).toHaveLength(2);
  });

  it("puts discussion topics in the last slide's notes and sets the document title", async () => {
    const notes = Object.keys(zip.files).filter((f) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(f));
    const all = (await Promise.all(notes.map((n) => file(n)))).join("");
    expect(all).toContain("Support response times");
    expect(all).toContain("Maria raised it twice.");
    expect(await file("docProps/core.xml")).toContain(
      "<dc:title>Northwind Health: Account Review</dc:title>",
    );
  });

  it("refuses a deck with a bad placeholder, naming the slide and key", async () => {
    const bad = {
      ...allLayoutsDeck,
      slides: [{ index: 0, layoutName: "bar-chart", placeholders: { title: "x", chart: "a: 1\nb: lots" } }],
    };
    await expect(renderPptx(bad)).rejects.toMatchObject({
      code: "invalid_request",
      details: [{ path: "slides.0.placeholders.chart" }],
    });
  });
});
