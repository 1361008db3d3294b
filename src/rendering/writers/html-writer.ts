import fs from "node:fs";
import { escapeHtml as esc } from "../../web/html.ts";
import { type FontFamily, type FontWeight, fontPath } from "../fonts.ts";
import {
  type ChartElement,
  chartLayout,
  type Element,
  placeLines,
  type RectElement,
  SLIDE,
  type SlideGeometry,
  type TableElement,
  type TextElement,
  usedFamilies,
} from "../geometry.ts";

// Writes the geometry as HTML: each slide a 960 × 540 box of absolutely placed lines, shapes, a
// table and SVG charts, the same boxes as the PPTX and PDF. The fonts are the same TTF files,
// served by the viewer or embedded as data URLs in a standalone file.

export type FontSource = (family: FontFamily, weight: FontWeight) => string;

/** Fonts as data URLs: a standalone file that renders the same anywhere, offline. */
export const embeddedFonts: FontSource = (family, weight) =>
  `data:font/ttf;base64,${fs.readFileSync(fontPath(family, weight)).toString("base64")}`;

const px = (n: number) => `${Math.round(n * 100) / 100}px`;
const box = (b: { x: number; y: number; w: number; h: number }) =>
  `left:${px(b.x)};top:${px(b.y)};width:${px(b.w)};height:${px(b.h)}`;
const font = (e: { font: TextElement["font"] }) =>
  `font-family:'${e.font.family}';font-weight:${e.font.weight === "bold" ? 700 : 400};font-size:${px(e.font.size)};color:#${e.font.color}`;

function text(e: TextElement): string {
  return placeLines(e)
    .map((l) => {
      const bullet = l.bullet
        ? `<span class="b" style="left:${px(l.x - e.font.size * 1.1)};top:${px(l.y)};${font(e)};line-height:${e.lineHeight}">•</span>`
        : "";
      return `${bullet}<span class="l" style="left:${px(l.x)};top:${px(l.y)};width:${px(l.width)};text-align:${e.align};${font(e)};line-height:${e.lineHeight}">${esc(l.text)}</span>`;
    })
    .join("");
}

const rect = (e: RectElement) =>
  `<div class="r" style="${box(e.box)};background:#${e.fill};border-radius:${px(e.radius)}"></div>`;

function table(e: TableElement): string {
  const cols = e.columnWidths.map((w) => `<col style="width:${px(w)}">`).join("");
  const row = (cells: string[], r: number) =>
    `<tr style="height:${px(e.rowHeight)};background:#${r === 0 ? e.headerFill : r % 2 === 0 ? e.stripeFill : "FFFFFF"}">${cells
      .map((c) => (r === 0 ? `<th style="color:#${e.headerColor}">${esc(c)}</th>` : `<td>${esc(c)}</td>`))
      .join("")}</tr>`;
  return `<table class="t" style="left:${px(e.box.x)};top:${px(e.box.y)};width:${px(e.box.w)};${font(e)}"><colgroup>${cols}</colgroup>${[e.header, ...e.rows].map(row).join("")}</table>`;
}

function chart(e: ChartElement): string {
  const c = chartLayout(e);
  const t = (x: number, y: number, s: string, anchor: string, color: string) =>
    `<text x="${x}" y="${y}" text-anchor="${anchor}" fill="#${color}">${esc(s)}</text>`;
  const parts = [
    ...c.ticks.map(
      (k) =>
        `<line x1="${c.plot.x}" x2="${c.plot.x + c.plot.w}" y1="${k.y}" y2="${k.y}" stroke="#D0D5DD" stroke-width="0.5"/>${t(c.plot.x - 8, k.y + e.font.size * 0.35, k.label, "end", e.axisColor)}`,
    ),
    ...c.points.map((p) =>
      t(p.label.x + p.label.w / 2, p.label.y + e.font.size, p.label.text, "middle", e.axisColor),
    ),
  ];
  if (e.chart === "bar") {
    for (const p of c.points) {
      parts.push(
        `<rect x="${p.bar.x}" y="${p.bar.y}" width="${p.bar.w}" height="${p.bar.h}" fill="#${e.color}"/>`,
      );
      parts.push(t(p.value.x, p.bar.y - e.font.size * 0.5, p.value.text, "middle", e.font.color));
    }
  } else {
    parts.push(
      `<polyline fill="none" stroke="#${e.color}" stroke-width="3" points="${c.points.map((p) => `${p.value.x},${p.value.y}`).join(" ")}"/>`,
    );
    for (const p of c.points)
      parts.push(`<circle cx="${p.value.x}" cy="${p.value.y}" r="4.5" fill="#${e.color}"/>`);
  }
  return `<svg class="c" viewBox="0 0 ${SLIDE.width} ${SLIDE.height}" style="font-family:'${e.font.family}';font-size:${e.font.size}px">${parts.join("")}</svg>`;
}

const element = (e: Element) =>
  e.kind === "text" ? text(e) : e.kind === "rect" ? rect(e) : e.kind === "table" ? table(e) : chart(e);

/** One slide as an HTML fragment (a .slide element), for the viewer and the standalone file. */
export function slideHtml(g: SlideGeometry): string {
  return `<section class="slide" data-index="${g.index}" data-layout="${g.layout}" style="background:#${g.background}">${g.elements.map(element).join("")}</section>`;
}

/** The CSS the fragments need, with @font-face rules for the families used. */
export function slideCss(families: Iterable<FontFamily>, source: FontSource): string {
  const faces = [...new Set(families)].flatMap((f) =>
    (["regular", "bold"] as const).map(
      (w) =>
        `@font-face{font-family:'${f}';font-weight:${w === "bold" ? 700 : 400};src:url(${source(f, w)}) format('truetype')}`,
    ),
  );
  return `${faces.join("")}
.slide{position:relative;width:${SLIDE.width}px;height:${SLIDE.height}px;overflow:hidden}
.slide .l,.slide .b{position:absolute;white-space:pre;overflow:visible}
.slide .r{position:absolute}
.slide .t{position:absolute;border-collapse:collapse;table-layout:fixed}
.slide .t th,.slide .t td{padding:0 6px;text-align:left;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;border:0.5px solid #D0D5DD}
.slide .c{position:absolute;left:0;top:0;width:${SLIDE.width}px;height:${SLIDE.height}px}`;
}

/** A standalone HTML document: every slide, one under the other, fonts embedded. */
export function writeHtml(
  deck: { name: string; slides: SlideGeometry[] },
  source: FontSource = embeddedFonts,
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(deck.name)}</title>
<style>body{margin:0;background:#E5E7EB;display:flex;flex-direction:column;align-items:center;gap:24px;padding:24px}${slideCss(usedFamilies(deck.slides), source)}</style>
</head><body>${deck.slides.map(slideHtml).join("\n")}</body></html>`;
}
