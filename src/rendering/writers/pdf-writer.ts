import PDFDocument from "pdfkit";
import { fontkitFont } from "../fonts.ts";
import {
  type ChartElement,
  chartLayout,
  placeLines,
  type RectElement,
  SLIDE,
  type SlideGeometry,
  type TableElement,
  type TextElement,
  usedFamilies,
} from "../geometry.ts";

// Writes the geometry as a vector PDF: real text in embedded subsets of the theme's TTF fonts,
// shapes and charts as paths. One page per slide, the page the size of the slide.

const hex = (c: string) => `#${c}`;
const fontName = (family: string, weight: string) => `${family}-${weight}`;

function drawText(doc: PDFKit.PDFDocument, e: TextElement): void {
  doc.font(fontName(e.font.family, e.font.weight)).fontSize(e.font.size).fillColor(hex(e.font.color));
  for (const line of placeLines(e)) {
    if (line.bullet) doc.text("•", line.x - e.font.size * 1.1, line.y, { lineBreak: false });
    doc.text(line.text, line.x, line.y, { width: line.width, align: e.align, lineBreak: false });
  }
}

function drawRect(doc: PDFKit.PDFDocument, e: RectElement): void {
  const { x, y, w, h } = e.box;
  (e.radius > 0 ? doc.roundedRect(x, y, w, h, e.radius) : doc.rect(x, y, w, h)).fill(hex(e.fill));
}

function drawTable(doc: PDFKit.PDFDocument, e: TableElement): void {
  const rows = [e.header, ...e.rows];
  const pad = 6;
  rows.forEach((row, r) => {
    const y = e.box.y + r * e.rowHeight;
    const fill = r === 0 ? e.headerFill : r % 2 === 0 ? e.stripeFill : "FFFFFF";
    doc.rect(e.box.x, y, e.box.w, e.rowHeight).fill(hex(fill));
    let x = e.box.x;
    row.forEach((cell, c) => {
      const w = e.columnWidths[c] as number;
      doc
        .font(fontName(e.font.family, r === 0 ? "bold" : "regular"))
        .fontSize(e.font.size)
        .fillColor(hex(r === 0 ? e.headerColor : e.font.color))
        .text(cell, x + pad, y + (e.rowHeight - e.font.size * 1.2) / 2, {
          width: w - 2 * pad,
          lineBreak: false,
          ellipsis: true,
        });
      x += w;
    });
  });
  doc
    .lineWidth(0.5)
    .strokeColor("#D0D5DD")
    .rect(e.box.x, e.box.y, e.box.w, rows.length * e.rowHeight)
    .stroke();
}

function drawChart(doc: PDFKit.PDFDocument, e: ChartElement): void {
  const c = chartLayout(e);
  doc.font(fontName(e.font.family, "regular")).fontSize(e.font.size);
  for (const t of c.ticks) {
    doc
      .lineWidth(0.5)
      .strokeColor("#D0D5DD")
      .moveTo(c.plot.x, t.y)
      .lineTo(c.plot.x + c.plot.w, t.y)
      .stroke();
    doc.fillColor(hex(e.axisColor)).text(t.label, e.box.x, t.y - e.font.size * 0.6, {
      width: c.labelWidth - 8,
      align: "right",
      lineBreak: false,
    });
  }
  for (const p of c.points) {
    doc.fillColor(hex(e.axisColor)).text(p.label.text, p.label.x, p.label.y, {
      width: p.label.w,
      align: "center",
      lineBreak: false,
      ellipsis: true,
    });
  }
  if (e.chart === "bar") {
    for (const p of c.points) {
      doc.rect(p.bar.x, p.bar.y, p.bar.w, p.bar.h).fill(hex(e.color));
      doc.fillColor(hex(e.font.color)).text(p.value.text, p.label.x, p.bar.y - e.font.size * 1.4, {
        width: p.label.w,
        align: "center",
        lineBreak: false,
      });
    }
  } else {
    doc.lineWidth(3).strokeColor(hex(e.color));
    for (const [i, p] of c.points.entries()) {
      if (i === 0) doc.moveTo(p.value.x, p.value.y);
      else doc.lineTo(p.value.x, p.value.y);
    }
    doc.stroke();
    for (const p of c.points) doc.circle(p.value.x, p.value.y, 4.5).fill(hex(e.color));
  }
}

export type PdfDeck = { name: string; author?: string; slides: SlideGeometry[]; topics?: string };

export function writePdf(deck: PdfDeck): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [SLIDE.width, SLIDE.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: deck.name, Author: deck.author ?? "Decksmith", Creator: "Decksmith" },
  });
  // Only the families the deck uses, from bytes read once per process.
  for (const family of usedFamilies(deck.slides)) {
    // pdfkit takes a parsed fontkit font as well as bytes (its types say bytes only).
    for (const weight of ["regular", "bold"] as const)
      doc.registerFont(fontName(family, weight), fontkitFont(family, weight) as unknown as Buffer);
  }
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  for (const g of deck.slides) {
    doc.addPage();
    doc.rect(0, 0, SLIDE.width, SLIDE.height).fill(hex(g.background));
    for (const e of g.elements) {
      if (e.kind === "text") drawText(doc, e);
      else if (e.kind === "rect") drawRect(doc, e);
      else if (e.kind === "table") drawTable(doc, e);
      else drawChart(doc, e);
    }
  }
  doc.end();
  return done;
}
