import * as pptxgen from "pptxgenjs";
import type { ChartElement, RectElement, SlideGeometry, TableElement, TextElement } from "../geometry.ts";

// pptxgenjs ships one CommonJS-style declaration file for both builds: TypeScript sees the class
// at default.default, while the ES build Node loads exports it as default.
type PptxClass = typeof pptxgen.default.default;
const loaded = pptxgen as unknown as { default: PptxClass & { default?: PptxClass } };
const PptxGenJS: PptxClass = loaded.default.default ?? loaded.default;
type Pptx = InstanceType<PptxClass>;
type Slide = ReturnType<Pptx["addSlide"]>;
type TableCell = pptxgen.default.TableCell;

// Writes the geometry as a PowerPoint file people can edit: real text boxes (paragraphs, not
// pictures of text), native tables and native charts with their data. Units: points → inches.

export type DeckForWriting = {
  name: string;
  author?: string;
  slides: SlideGeometry[];
  /** Discussion topics go into the last slide's speaker notes (see docs/rendering.md). */
  notes?: string;
};

const inch = (pt: number) => Math.round((pt / 72) * 10_000) / 10_000;
const pos = (b: { x: number; y: number; w: number; h: number }) => ({
  x: inch(b.x),
  y: inch(b.y),
  w: inch(b.w),
  h: inch(b.h),
});

function addText(slide: Slide, e: TextElement): void {
  // One run per paragraph: PowerPoint wraps within the box at the fitted size, as measured here.
  const runs = e.paragraphs.map((lines, i) => ({
    text: lines.join(" "),
    options: {
      breakLine: i < e.paragraphs.length - 1,
      bullet: e.bullets ? { indent: e.font.size * 1.1 } : false,
      paraSpaceAfter: e.paragraphGap * e.font.size,
    },
  }));
  slide.addText(runs, {
    ...pos(e.box),
    fontFace: e.font.family,
    fontSize: e.font.size,
    bold: e.font.weight === "bold",
    color: e.font.color,
    align: e.align,
    valign: e.valign,
    lineSpacingMultiple: e.lineHeight,
    margin: 0,
    fit: "none",
    wrap: true,
  });
}

function addRect(pptx: Pptx, slide: Slide, e: RectElement): void {
  slide.addShape(e.radius > 0 ? pptx.ShapeType.roundRect : pptx.ShapeType.rect, {
    ...pos(e.box),
    fill: { color: e.fill },
    line: { color: e.fill, width: 0 },
    rectRadius: e.radius > 0 ? Math.min(0.5, e.radius / Math.min(e.box.w, e.box.h)) : undefined,
  });
}

function addTable(slide: Slide, e: TableElement): void {
  const cell = (text: string, header: boolean, row: number): TableCell => ({
    text,
    options: {
      bold: header,
      color: header ? e.headerColor : e.font.color,
      fill: { color: header ? e.headerFill : row % 2 === 1 ? e.stripeFill : "FFFFFF" },
    },
  });
  slide.addTable(
    [e.header.map((h) => cell(h, true, 0)), ...e.rows.map((r, i) => r.map((c) => cell(c, false, i)))],
    {
      ...pos(e.box),
      colW: e.columnWidths.map(inch),
      rowH: inch(e.rowHeight),
      fontFace: e.font.family,
      fontSize: e.font.size,
      valign: "middle",
      margin: [0, 0.08, 0, 0.08], // inches, for table cells
      border: { type: "solid", pt: 0.5, color: "D0D5DD" },
    },
  );
}

function addChart(pptx: Pptx, slide: Slide, e: ChartElement): void {
  const data = [
    { name: "Value", labels: e.points.map((p) => p.label), values: e.points.map((p) => p.value) },
  ];
  slide.addChart(e.chart === "bar" ? pptx.ChartType.bar : pptx.ChartType.line, data, {
    ...pos(e.box),
    barDir: "col",
    chartColors: [e.color],
    showLegend: false,
    showValue: e.chart === "bar",
    dataLabelFormatCode: "#,##0",
    catAxisLabelColor: e.axisColor,
    valAxisLabelColor: e.axisColor,
    catAxisLabelFontFace: e.font.family,
    valAxisLabelFontFace: e.font.family,
    catAxisLabelFontSize: e.font.size,
    valAxisLabelFontSize: e.font.size,
    valAxisLabelFormatCode: "#,##0",
    lineSize: 3,
    lineDataSymbolSize: 8,
  });
}

export async function writePptx(deck: DeckForWriting): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = "LAYOUT_WIDE"; // 13.333 × 7.5 in: the geometry's 960 × 540 pt
  pptx.title = deck.name;
  pptx.author = deck.author ?? "Decksmith";
  pptx.company = "Decksmith";
  deck.slides.forEach((g, i) => {
    const slide = pptx.addSlide();
    slide.background = { color: g.background };
    for (const e of g.elements) {
      if (e.kind === "text") addText(slide, e);
      else if (e.kind === "rect") addRect(pptx, slide, e);
      else if (e.kind === "table") addTable(slide, e);
      else addChart(pptx, slide, e);
    }
    if (deck.notes && i === deck.slides.length - 1) slide.addNotes(deck.notes);
  });
  return (await pptx.write({ outputType: "nodebuffer" })) as Buffer;
}
