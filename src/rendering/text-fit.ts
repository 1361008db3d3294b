import type { Metrics } from "./fonts.ts";

// Fits text into a box with real font metrics: try the largest size, shrink a point at a time to
// the minimum, and only then cut lines and end with an ellipsis, reporting the overflow so the
// deck can warn about it. Every writer draws the lines this returns, at the size it returns.

export type FitRequest = {
  /** Paragraphs (bullets, or one paragraph of text). */
  paragraphs: string[];
  metrics: Metrics;
  width: number;
  height: number;
  maxSize: number;
  minSize: number;
  /** Line height as a multiple of the font size. */
  lineHeight?: number;
  /** Extra space between paragraphs, as a multiple of the font size. */
  paragraphGap?: number;
  /** Width taken by a bullet marker before each paragraph's first line, as a multiple of size. */
  indent?: number;
};

export type FittedText = {
  size: number;
  /** Lines per paragraph, as drawn. */
  paragraphs: string[][];
  /** Height the lines take, in points. */
  height: number;
  overflow: boolean;
};

const ELLIPSIS = "…";

/** Greedy word wrap; a word longer than the line is broken across lines. */
export function wrapParagraph(text: string, metrics: Metrics, size: number, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  const fits = (t: string) => metrics.widthAt1pt(t) * size <= width;
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    if (fits(word)) {
      line = word;
      continue;
    }
    // Break a word wider than the line, character by character.
    let piece = "";
    for (const ch of word) {
      if (piece && !fits(piece + ch)) {
        lines.push(piece);
        piece = ch;
      } else piece += ch;
    }
    line = piece;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [""];
}

export function fitText(request: FitRequest): FittedText {
  const { metrics, width, height, maxSize, minSize } = request;
  const lineHeight = request.lineHeight ?? 1.2;
  const gap = request.paragraphGap ?? 0;
  const indent = request.indent ?? 0;
  const layout = (size: number) => {
    const paragraphs = request.paragraphs.map((p) => wrapParagraph(p, metrics, size, width - indent * size));
    const lines = paragraphs.reduce((n, p) => n + p.length, 0);
    const total = lines * size * lineHeight + Math.max(0, paragraphs.length - 1) * gap * size;
    return { paragraphs, total };
  };
  for (let size = maxSize; size >= minSize; size -= 1) {
    const { paragraphs, total } = layout(size);
    if (total <= height + 0.01) return { size, paragraphs, height: total, overflow: false };
  }
  // Still too long at the minimum size: keep the lines that fit and end with an ellipsis.
  const size = minSize;
  const { paragraphs } = layout(size);
  const kept: string[][] = [];
  let used = 0;
  let full = false;
  for (const p of paragraphs) {
    const lines: string[] = [];
    for (const line of p) {
      const next = used + (lines.length === 0 && kept.length > 0 ? gap * size : 0) + size * lineHeight;
      if (next > height + 0.01) {
        full = true;
        break;
      }
      used = next;
      lines.push(line);
    }
    if (lines.length > 0) kept.push(lines);
    if (full) break;
  }
  const last = kept[kept.length - 1];
  if (last && last.length > 0) {
    let text = last[last.length - 1] as string;
    while (text && metrics.widthAt1pt(text + ELLIPSIS) * size > width - indent * size)
      text = text.slice(0, -1);
    last[last.length - 1] = text.trimEnd() + ELLIPSIS;
  }
  return { size, paragraphs: kept, height: used, overflow: true };
}
