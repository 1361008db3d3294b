import type { Theme } from "../catalog/themes.ts";
import { type FontFamily, type FontWeight, fontMetrics, isFontFamily } from "./fonts.ts";
import type { ParsedSlide } from "./layouts.ts";
import type { ChartPoint, Metric, Person, Table, TimelineEvent } from "./placeholder-formats.ts";
import { fitText } from "./text-fit.ts";

// One function computes every box of a slide (position, size, font size after fitting) from its
// layout, the theme and the content. The PPTX, PDF and HTML writers only draw what this returns,
// so the three outputs match. Units are points on a 16:9 page of 960 × 540 (13.333 × 7.5 in).

export const SLIDE = { width: 960, height: 540 } as const;
const MARGIN = 48;
const FIT_SLACK = 0.92;
const CONTENT_TOP = 120;
const CONTENT = {
  x: MARGIN,
  y: CONTENT_TOP,
  w: SLIDE.width - 2 * MARGIN,
  h: SLIDE.height - CONTENT_TOP - MARGIN,
};

export type Box = { x: number; y: number; w: number; h: number };
export type Font = { family: FontFamily; weight: FontWeight; size: number; color: string };

export type TextElement = {
  kind: "text";
  box: Box;
  font: Font;
  align: "left" | "center" | "right";
  valign: "top" | "middle" | "bottom";
  lineHeight: number;
  paragraphGap: number;
  bullets: boolean;
  /** Lines per paragraph, already wrapped with the font's metrics. */
  paragraphs: string[][];
};
export type RectElement = { kind: "rect"; box: Box; fill: string; radius: number };
export type TableElement = {
  kind: "table";
  box: Box;
  header: string[];
  rows: string[][];
  columnWidths: number[];
  rowHeight: number;
  font: Font;
  headerFill: string;
  headerColor: string;
  stripeFill: string;
};
export type ChartElement = {
  kind: "chart";
  chart: "bar" | "line";
  box: Box;
  points: ChartPoint[];
  color: string;
  axisColor: string;
  font: Font;
};
export type Element = TextElement | RectElement | TableElement | ChartElement;

export type SlideGeometry = {
  index: number;
  layout: string;
  background: string;
  elements: Element[];
  warnings: string[];
};

type Ctx = { theme: Theme; heading: FontFamily; body: FontFamily; warnings: string[]; index: number };

function text(
  ctx: Ctx,
  box: Box,
  paragraphs: string[],
  o: {
    family?: FontFamily;
    weight?: FontWeight;
    max: number;
    min: number;
    color?: string;
    align?: TextElement["align"];
    valign?: TextElement["valign"];
    bullets?: boolean;
    what: string;
  },
): TextElement {
  const family = o.family ?? ctx.body;
  const weight = o.weight ?? "regular";
  const lineHeight = 1.2;
  const paragraphGap = o.bullets ? 0.45 : 0.2;
  const indent = o.bullets ? 1.1 : 0;
  // Fit into slightly less than the box: a viewer without the theme's fonts substitutes others,
  // which are often a few percent wider.
  const fit = fitText({
    paragraphs,
    metrics: fontMetrics(family, weight),
    width: box.w * FIT_SLACK,
    height: box.h,
    maxSize: o.max,
    minSize: o.min,
    lineHeight,
    paragraphGap,
    indent,
  });
  if (fit.overflow)
    ctx.warnings.push(`slide ${ctx.index + 1}: ${o.what} is too long for its box and was shortened`);
  return {
    kind: "text",
    box,
    font: { family, weight, size: fit.size, color: o.color ?? ctx.theme.colors.text },
    align: o.align ?? "left",
    valign: o.valign ?? "top",
    lineHeight,
    paragraphGap,
    bullets: Boolean(o.bullets),
    paragraphs: fit.paragraphs,
  };
}

const titleText = (ctx: Ctx, title: string) =>
  text(ctx, { x: MARGIN, y: 40, w: SLIDE.width - 2 * MARGIN, h: 64 }, [title], {
    family: ctx.heading,
    weight: "bold",
    max: 34,
    min: 20,
    valign: "middle",
    what: "the title",
  });

function bulletsBox(ctx: Ctx, box: Box, items: string[], what: string): TextElement {
  return text(ctx, box, items, { max: 24, min: 12, bullets: true, what });
}

function metricsCards(ctx: Ctx, metrics: Metric[]): Element[] {
  const gap = 24;
  const w = (CONTENT.w - gap * (metrics.length - 1)) / metrics.length;
  const y = CONTENT.y + 40;
  const h = 220;
  return metrics.flatMap((m, i) => {
    const x = CONTENT.x + i * (w + gap);
    const inner = { x: x + 20, w: w - 40 };
    return [
      { kind: "rect", box: { x, y, w, h }, fill: ctx.theme.colors.surface, radius: 10 } satisfies RectElement,
      text(ctx, { ...inner, y: y + 24, h: 80 }, [m.value], {
        family: ctx.heading,
        weight: "bold",
        max: 44,
        min: 18,
        color: ctx.theme.colors.accent,
        what: `metric "${m.label}"`,
      }),
      text(ctx, { ...inner, y: y + 110, h: 44 }, [m.label], {
        weight: "bold",
        max: 18,
        min: 11,
        what: `metric label "${m.label}"`,
      }),
      ...(m.note
        ? [
            text(ctx, { ...inner, y: y + 158, h: 44 }, [m.note], {
              max: 15,
              min: 10,
              color: ctx.theme.colors.mutedText,
              what: `note of "${m.label}"`,
            }),
          ]
        : []),
    ];
  });
}

function table(ctx: Ctx, t: Table, box: Box): TableElement {
  const rowsCount = t.rows.length + 1;
  // Columns share the width in proportion to their longest cell, within limits.
  const metrics = fontMetrics(ctx.body);
  const natural = t.header.map(
    (h, c) => Math.max(metrics.widthAt1pt(h), ...t.rows.map((r) => metrics.widthAt1pt(r[c] ?? ""))) + 1.5,
  );
  const sum = natural.reduce((a, b) => a + b, 0);
  const columnWidths = natural.map((n) => Math.max(box.w * 0.08, (n / sum) * box.w));
  const scale = box.w / columnWidths.reduce((a, b) => a + b, 0);
  for (let i = 0; i < columnWidths.length; i++) columnWidths[i] = (columnWidths[i] as number) * scale;
  // The largest size at which every cell fits its column on one line and every row fits the box.
  let size = 18;
  const fits = (s: number) =>
    rowsCount * s * 2 <= box.h &&
    [t.header, ...t.rows].every((r) =>
      r.every((cell, c) => metrics.widthAt1pt(cell) * s <= (columnWidths[c] as number) - 12),
    );
  while (size > 9 && !fits(size)) size -= 1;
  if (!fits(size))
    ctx.warnings.push(
      `slide ${ctx.index + 1}: the table is too large for the slide; cells may wrap or be cut`,
    );
  return {
    kind: "table",
    box: { ...box, h: Math.min(box.h, rowsCount * size * 2) },
    header: t.header,
    rows: t.rows,
    columnWidths,
    rowHeight: size * 2,
    font: { family: ctx.body, weight: "regular", size, color: ctx.theme.colors.text },
    headerFill: ctx.theme.colors.accent,
    headerColor: "FFFFFF",
    stripeFill: ctx.theme.colors.surface,
  };
}

function peopleCards(ctx: Ctx, people: Person[]): Element[] {
  const shown = people.slice(0, 6);
  if (people.length > 6)
    ctx.warnings.push(`slide ${ctx.index + 1}: only the first 6 of ${people.length} people fit`);
  const columns = shown.length <= 3 ? shown.length : 3;
  const rows = Math.ceil(shown.length / columns);
  const gap = 20;
  const w = (CONTENT.w - gap * (columns - 1)) / columns;
  const h = Math.min(200, (CONTENT.h - gap * (rows - 1)) / rows); // cards, not columns
  const top = CONTENT.y + (CONTENT.h - (rows * h + (rows - 1) * gap)) / 2; // centred in the body
  return shown.flatMap((p, i) => {
    const x = CONTENT.x + (i % columns) * (w + gap);
    const y = top + Math.floor(i / columns) * (h + gap);
    const inner = { x: x + 18, w: w - 36 };
    return [
      { kind: "rect", box: { x, y, w, h }, fill: ctx.theme.colors.surface, radius: 10 } satisfies RectElement,
      text(ctx, { ...inner, y: y + 16, h: 34 }, [p.name], {
        family: ctx.heading,
        weight: "bold",
        max: 22,
        min: 12,
        what: `name "${p.name}"`,
      }),
      text(ctx, { ...inner, y: y + 52, h: 28 }, [p.title], {
        max: 16,
        min: 10,
        color: ctx.theme.colors.accent,
        what: `title of ${p.name}`,
      }),
      ...(p.note
        ? [
            text(ctx, { ...inner, y: y + 84, h: h - 100 }, [p.note], {
              max: 15,
              min: 10,
              color: ctx.theme.colors.mutedText,
              what: `note on ${p.name}`,
            }),
          ]
        : []),
    ];
  });
}

function timeline(ctx: Ctx, events: TimelineEvent[]): Element[] {
  const shown = events.slice(0, 6);
  if (events.length > 6)
    ctx.warnings.push(`slide ${ctx.index + 1}: only the first 6 of ${events.length} events fit`);
  // Dates above the line and events below it, the whole band a little above the body's middle.
  const lineY = CONTENT.y + CONTENT.h * 0.42;
  const step = CONTENT.w / shown.length;
  return [
    {
      kind: "rect",
      box: { x: CONTENT.x, y: lineY - 2, w: CONTENT.w, h: 4 },
      fill: ctx.theme.colors.accent,
      radius: 2,
    } satisfies RectElement,
    ...shown.flatMap((e, i) => {
      const cx = CONTENT.x + step * i + step / 2;
      const w = step - 16;
      return [
        {
          kind: "rect",
          box: { x: cx - 9, y: lineY - 9, w: 18, h: 18 },
          fill: ctx.theme.colors.accent,
          radius: 9,
        } satisfies RectElement,
        text(ctx, { x: cx - w / 2, y: lineY - 70, w, h: 50 }, [e.when], {
          weight: "bold",
          max: 18,
          min: 10,
          align: "center",
          valign: "bottom",
          what: `date "${e.when}"`,
        }),
        text(ctx, { x: cx - w / 2, y: lineY + 24, w, h: 200 }, [e.what], {
          max: 16,
          min: 10,
          align: "center",
          color: ctx.theme.colors.mutedText,
          what: `event "${e.when}"`,
        }),
      ];
    }),
  ];
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** A source line under a table or chart, when there is one. */
const captionText = (ctx: Ctx, caption: string | undefined): Element[] =>
  caption
    ? [
        text(ctx, { x: CONTENT.x, y: SLIDE.height - MARGIN - 24, w: CONTENT.w, h: 24 }, [caption], {
          max: 13,
          min: 10,
          color: ctx.theme.colors.mutedText,
          what: "the caption",
        }),
      ]
    : [];

/** The geometry of one parsed slide in a theme. */
export function layoutSlide(slide: ParsedSlide, theme: Theme): SlideGeometry {
  const ctx: Ctx = {
    theme,
    heading: isFontFamily(theme.fonts.heading) ? theme.fonts.heading : "Inter",
    body: isFontFamily(theme.fonts.body) ? theme.fonts.body : "Inter",
    warnings: [],
    index: slide.index,
  };
  const v = slide.values;
  const title = str(v.title) ?? "";
  const accentBar: RectElement = {
    kind: "rect",
    box: { x: MARGIN, y: 104, w: 64, h: 5 },
    fill: theme.colors.accent,
    radius: 2,
  };
  let elements: Element[];
  switch (slide.layout.name) {
    case "title":
      elements = [
        { kind: "rect", box: { x: 0, y: 0, w: 16, h: SLIDE.height }, fill: theme.colors.accent, radius: 0 },
        text(ctx, { x: 96, y: 150, w: 768, h: 170 }, [title], {
          family: ctx.heading,
          weight: "bold",
          max: 54,
          min: 28,
          valign: "bottom",
          what: "the title",
        }),
        ...(str(v.subtitle)
          ? [
              text(ctx, { x: 96, y: 340, w: 768, h: 80 }, [str(v.subtitle) as string], {
                max: 24,
                min: 14,
                color: theme.colors.mutedText,
                what: "the subtitle",
              }),
            ]
          : []),
      ];
      break;
    case "section":
      elements = [
        {
          kind: "rect",
          box: { x: 0, y: 0, w: SLIDE.width, h: SLIDE.height },
          fill: theme.colors.accent,
          radius: 0,
        },
        text(ctx, { x: 96, y: 170, w: 768, h: 130 }, [title], {
          family: ctx.heading,
          weight: "bold",
          max: 48,
          min: 26,
          color: "FFFFFF",
          valign: "bottom",
          what: "the title",
        }),
        ...(str(v.subtitle)
          ? [
              text(ctx, { x: 96, y: 316, w: 768, h: 70 }, [str(v.subtitle) as string], {
                max: 24,
                min: 14,
                color: "FFFFFF",
                what: "the subtitle",
              }),
            ]
          : []),
      ];
      break;
    case "agenda":
    case "bullets":
    case "closing": {
      const items = (v.items ?? v.body ?? v.steps) as string[] | undefined;
      elements = [
        titleText(ctx, title),
        accentBar,
        ...(items ? [bulletsBox(ctx, CONTENT, items, "the list")] : []),
      ];
      break;
    }
    case "two-column": {
      const w = (CONTENT.w - 32) / 2;
      const column = (x: number, heading: string | undefined, items: string[], what: string): Element[] => [
        ...(heading
          ? [
              text(ctx, { x, y: CONTENT.y, w, h: 36 }, [heading], {
                weight: "bold",
                max: 22,
                min: 14,
                color: theme.colors.accent,
                what: `${what} heading`,
              }),
            ]
          : []),
        bulletsBox(
          ctx,
          { x, y: CONTENT.y + (heading ? 44 : 0), w, h: CONTENT.h - (heading ? 44 : 0) },
          items,
          what,
        ),
      ];
      elements = [
        titleText(ctx, title),
        accentBar,
        ...column(CONTENT.x, str(v.leftTitle), v.left as string[], "the left column"),
        ...column(CONTENT.x + w + 32, str(v.rightTitle), v.right as string[], "the right column"),
      ];
      break;
    }
    case "metrics":
      elements = [titleText(ctx, title), accentBar, ...metricsCards(ctx, v.metrics as Metric[])];
      break;
    case "table": {
      const caption = str(v.caption);
      const box = { ...CONTENT, h: CONTENT.h - (caption ? 32 : 0) };
      elements = [
        titleText(ctx, title),
        accentBar,
        table(ctx, v.table as Table, box),
        ...captionText(ctx, caption),
      ];
      break;
    }
    case "bar-chart":
    case "line-chart": {
      const caption = str(v.caption);
      elements = [
        titleText(ctx, title),
        accentBar,
        {
          kind: "chart",
          chart: slide.layout.name === "bar-chart" ? "bar" : "line",
          box: { ...CONTENT, h: CONTENT.h - (caption ? 32 : 0) },
          points: v.chart as ChartPoint[],
          color: theme.colors.accent,
          axisColor: theme.colors.mutedText,
          font: { family: ctx.body, weight: "regular", size: 12, color: theme.colors.mutedText },
        },
        ...captionText(ctx, caption),
      ];
      break;
    }
    case "people":
      elements = [titleText(ctx, title), accentBar, ...peopleCards(ctx, v.people as Person[])];
      break;
    case "timeline":
      elements = [titleText(ctx, title), accentBar, ...timeline(ctx, v.events as TimelineEvent[])];
      break;
    case "quote":
      elements = [
        text(ctx, { x: 80, y: 60, w: 120, h: 140 }, ["“"], {
          family: ctx.heading,
          weight: "bold",
          max: 140,
          min: 60,
          color: theme.colors.accent,
          what: "the quote mark",
        }),
        text(ctx, { x: 120, y: 140, w: 720, h: 240 }, [str(v.quote) ?? ""], {
          family: ctx.heading,
          max: 36,
          min: 18,
          valign: "middle",
          what: "the quote",
        }),
        ...(str(v.attribution)
          ? [
              text(ctx, { x: 120, y: 400, w: 720, h: 40 }, [`— ${str(v.attribution)}`], {
                max: 20,
                min: 12,
                color: theme.colors.mutedText,
                what: "the attribution",
              }),
            ]
          : []),
      ];
      break;
    default:
      throw new Error(`no geometry for layout ${slide.layout.name}`);
  }
  return {
    index: slide.index,
    layout: slide.layout.name,
    background: theme.colors.background,
    elements,
    warnings: ctx.warnings,
  };
}

export type PlacedLine = { text: string; x: number; y: number; width: number; bullet: boolean };

/**
 * Where each line of a text element goes: the top-left of its line box, after vertical alignment.
 * The PDF and HTML writers draw exactly these; PPTX hands the paragraphs to PowerPoint.
 */
export function placeLines(e: TextElement): PlacedLine[] {
  const { size } = e.font;
  const lineStep = size * e.lineHeight;
  const lines = e.paragraphs.reduce((n, p) => n + p.length, 0);
  const height = lines * lineStep + Math.max(0, e.paragraphs.length - 1) * e.paragraphGap * size;
  const offset =
    e.valign === "middle" ? (e.box.h - height) / 2 : e.valign === "bottom" ? e.box.h - height : 0;
  const indent = e.bullets ? size * 1.1 : 0;
  const placed: PlacedLine[] = [];
  let y = e.box.y + Math.max(0, offset);
  e.paragraphs.forEach((paragraph, p) => {
    if (p > 0) y += e.paragraphGap * size;
    paragraph.forEach((text, i) => {
      placed.push({ text, x: e.box.x + indent, y, width: e.box.w - indent, bullet: e.bullets && i === 0 });
      y += lineStep;
    });
  });
  return placed;
}

/** Round tick values for a chart's value axis, from zero (or the minimum, if negative). */
export function axisTicks(values: number[], count = 5): number[] {
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const raw = (max - min) / count || 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let t = Math.floor(min / step) * step; t <= max + step * 0.999; t += step)
    ticks.push(Math.round(t * 1e6) / 1e6);
  return ticks;
}

export type ChartLayout = {
  ticks: { value: number; label: string; y: number }[];
  plot: Box;
  labelWidth: number;
  /** Per point: its category label's box, and its bar or marker. */
  points: { label: Box & { text: string }; value: { x: number; y: number; text: string }; bar: Box }[];
};

/** Axis, bars and markers of a chart element, shared by the PDF and HTML writers. */
export function chartLayout(e: ChartElement): ChartLayout {
  const values = e.points.map((p) => p.value);
  const tickValues = axisTicks(values);
  const min = tickValues[0] as number;
  const max = tickValues[tickValues.length - 1] as number;
  const labelWidth = 64;
  const plot = { x: e.box.x + labelWidth, y: e.box.y + 16, w: e.box.w - labelWidth, h: e.box.h - 48 };
  const yOf = (v: number) => plot.y + plot.h - ((v - min) / (max - min || 1)) * plot.h;
  const slot = plot.w / e.points.length;
  const barWidth = slot * 0.55;
  return {
    plot,
    labelWidth,
    ticks: tickValues.map((value) => ({ value, label: value.toLocaleString("en-US"), y: yOf(value) })),
    points: e.points.map((p, i) => {
      const cx = plot.x + slot * i + slot / 2;
      const top = yOf(Math.max(0, p.value));
      const bottom = yOf(Math.min(0, p.value));
      return {
        label: { x: cx - slot / 2, y: plot.y + plot.h + 8, w: slot, h: e.font.size * 1.4, text: p.label },
        value: { x: cx, y: yOf(p.value), text: p.display },
        bar: { x: cx - barWidth / 2, y: top, w: barWidth, h: Math.max(0.5, bottom - top) },
      };
    }),
  };
}

/** The font families a deck's geometry uses (what a writer must embed or serve). */
export function usedFamilies(slides: SlideGeometry[]): Set<FontFamily> {
  const families = new Set<FontFamily>();
  for (const g of slides) for (const e of g.elements) if ("font" in e) families.add(e.font.family);
  return families;
}
