import { AppError, type ErrorDetail } from "../errors.ts";
import {
  type ChartPoint,
  FormatError,
  type Metric,
  type Person,
  parseBullets,
  parseChart,
  parseMetrics,
  parsePeople,
  parseTable,
  parseTimeline,
  type Table,
  type TimelineEvent,
} from "./placeholder-formats.ts";

// The layout catalog: every slide names one of these layouts, and its placeholders must match the
// layout's keys and formats. One catalog serves the writers (PPTX, PDF, HTML), the generator and
// the edit tools, so a deck that passes here renders everywhere.

const parsers = {
  text: (v: string) => {
    const text = v.trim();
    if (!text) throw new FormatError("is empty");
    return text;
  },
  bullets: parseBullets,
  table: parseTable,
  chart: parseChart,
  people: parsePeople,
  metrics: parseMetrics,
  timeline: parseTimeline,
} as const;

export type PlaceholderFormat = keyof typeof parsers;
export type ParsedValue = string | string[] | Table | ChartPoint[] | Person[] | Metric[] | TimelineEvent[];

export const formatDescriptions: Record<PlaceholderFormat, string> = {
  text: "plain text",
  bullets: "one bullet per line",
  table: "a markdown pipe table: header row, then rows",
  chart: '"label: value" lines, values numeric (1,200 · $1.2M · 35%)',
  people: '"Name | Title | note" lines',
  metrics: '2 to 4 "label: value | note" lines',
  timeline: '"when: what" lines',
};

export type PlaceholderSpec = { format: PlaceholderFormat; required: boolean; maxLength: number };
export type Layout = { name: string; description: string; placeholders: Record<string, PlaceholderSpec> };

const req = (format: PlaceholderFormat, maxLength = 4000): PlaceholderSpec => ({
  format,
  required: true,
  maxLength,
});
const opt = (format: PlaceholderFormat, maxLength = 4000): PlaceholderSpec => ({
  format,
  required: false,
  maxLength,
});
const title = req("text", 200);

export const layouts: readonly Layout[] = [
  {
    name: "title",
    description: "Opening slide: the deck's title and a subtitle",
    placeholders: { title, subtitle: opt("text", 300) },
  },
  { name: "agenda", description: "What the deck covers", placeholders: { title, items: req("bullets") } },
  {
    name: "section",
    description: "A divider between parts",
    placeholders: { title, subtitle: opt("text", 300) },
  },
  {
    name: "bullets",
    description: "A title and a list of points",
    placeholders: { title, body: req("bullets") },
  },
  {
    name: "two-column",
    description: "Two lists side by side (before/after, pros/cons)",
    placeholders: {
      title,
      leftTitle: opt("text", 100),
      left: req("bullets"),
      rightTitle: opt("text", 100),
      right: req("bullets"),
    },
  },
  { name: "metrics", description: "2 to 4 KPI cards", placeholders: { title, metrics: req("metrics") } },
  {
    name: "table",
    description: "A table of data",
    placeholders: { title, table: req("table", 20_000), caption: opt("text", 300) },
  },
  {
    name: "bar-chart",
    description: "A bar chart of labelled values",
    placeholders: { title, chart: req("chart"), caption: opt("text", 300) },
  },
  {
    name: "line-chart",
    description: "A line chart of values over time",
    placeholders: { title, chart: req("chart"), caption: opt("text", 300) },
  },
  {
    name: "people",
    description: "Key people: name, title and a note",
    placeholders: { title, people: req("people") },
  },
  {
    name: "timeline",
    description: "Dated events in order",
    placeholders: { title, events: req("timeline") },
  },
  {
    name: "quote",
    description: "A quotation and who said it",
    placeholders: { quote: req("text", 600), attribution: opt("text", 200) },
  },
  { name: "closing", description: "Next steps and thanks", placeholders: { title, steps: opt("bullets") } },
];

const byName = new Map(layouts.map((l) => [l.name, l]));
export const findLayout = (name: string | undefined) => (name ? byName.get(name) : undefined);

export type ParsedSlide = { index: number; layout: Layout; values: Record<string, ParsedValue> };

/** Checks one slide against its layout; every problem is a detail naming the slide and the key. */
export function checkSlide(slide: {
  index: number;
  layoutName?: string;
  placeholders: Record<string, string>;
}): {
  slide?: ParsedSlide;
  problems: ErrorDetail[];
} {
  const at = (key?: string) => `slides.${slide.index}${key ? `.placeholders.${key}` : ".layoutName"}`;
  const layout = findLayout(slide.layoutName);
  if (!layout) {
    return {
      problems: [
        {
          path: at(),
          message: `slide ${slide.index + 1}: unknown layout "${slide.layoutName ?? ""}"; use one of ${layouts.map((l) => l.name).join(", ")}`,
        },
      ],
    };
  }
  const problems: ErrorDetail[] = [];
  const values: Record<string, ParsedValue> = {};
  for (const key of Object.keys(slide.placeholders)) {
    if (!layout.placeholders[key]) {
      problems.push({
        path: at(key),
        message: `slide ${slide.index + 1} (${layout.name}): no placeholder "${key}"; it has ${Object.keys(layout.placeholders).join(", ")}`,
      });
    }
  }
  for (const [key, spec] of Object.entries(layout.placeholders)) {
    const raw = slide.placeholders[key];
    if (raw === undefined || raw.trim() === "") {
      if (spec.required)
        problems.push({
          path: at(key),
          message: `slide ${slide.index + 1} (${layout.name}): "${key}" is required (${formatDescriptions[spec.format]})`,
        });
      continue;
    }
    if (raw.length > spec.maxLength) {
      problems.push({
        path: at(key),
        message: `slide ${slide.index + 1} (${layout.name}): "${key}" is longer than ${spec.maxLength} characters`,
      });
      continue;
    }
    try {
      values[key] = parsers[spec.format](raw);
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      problems.push({
        path: at(key),
        message: `slide ${slide.index + 1} (${layout.name}): "${key}" ${err.message} (${formatDescriptions[spec.format]})`,
      });
    }
  }
  return problems.length ? { problems } : { slide: { index: slide.index, layout, values }, problems };
}

/** Parses every slide of a deck, or throws one 400 listing every problem in every slide. */
export function parseSlides(
  slides: { index: number; layoutName?: string; placeholders: Record<string, string> }[],
): ParsedSlide[] {
  const parsed: ParsedSlide[] = [];
  const problems: ErrorDetail[] = [];
  for (const s of slides) {
    const result = checkSlide(s);
    if (result.slide) parsed.push(result.slide);
    problems.push(...result.problems);
  }
  if (problems.length > 0) {
    throw new AppError("invalid_request", problems.map((p) => p.message).join("; "), problems);
  }
  return parsed;
}
