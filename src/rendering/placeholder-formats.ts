// Placeholders stay string → string, as in the API spec; each layout says which text format a
// value uses, and these parsers turn it into structure for the writers. Each throws a FormatError
// whose message says what is wrong in words a person editing the deck understands.

export class FormatError extends Error {}

const lines = (value: string) =>
  value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

/** One bullet per line; a leading "-", "*", "•" or "1." is dropped. */
export function parseBullets(value: string): string[] {
  const items = lines(value).map((l) => l.replace(/^([-*•]|\d+[.)])\s+/, ""));
  if (items.length === 0) throw new FormatError("needs at least one line");
  return items;
}

export type Table = { header: string[]; rows: string[][] };

/** A markdown pipe table: a header row, an optional |---| separator, then rows of as many cells. */
export function parseTable(value: string): Table {
  const rows = lines(value).map((line, i) => {
    if (!line.includes("|"))
      throw new FormatError(`line ${i + 1} is not a table row (cells are separated by |)`);
    return line
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((c) => c.trim());
  });
  const [header, ...rest] = rows;
  if (!header) throw new FormatError("needs a header row");
  const body = rest.filter((r) => !r.every((c) => /^:?-{3,}:?$/.test(c)));
  if (body.length === 0) throw new FormatError("needs at least one row under the header");
  body.forEach((r, i) => {
    if (r.length !== header.length) {
      throw new FormatError(`row ${i + 1} has ${r.length} cells, the header has ${header.length}`);
    }
  });
  return { header, rows: body };
}

/** "1,200", "$1.2M", "35%", "-4.5k" → numbers (the unit is kept for display). */
export function parseNumber(text: string): { value: number; display: string } | undefined {
  const m = /^([-+]?)[$€£]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*([kKmMbB%])?$/.exec(text.trim());
  if (!m) return undefined;
  const base = Number(`${m[1]}${(m[2] as string).replace(/,/g, "")}${m[3] ?? ""}`);
  const scale = { k: 1e3, m: 1e6, b: 1e9 }[(m[4] ?? "").toLowerCase()] ?? 1;
  return { value: base * scale, display: text.trim() };
}

export type ChartPoint = { label: string; value: number; display: string };

/** "label: value" lines: at least two points, every value a number. */
export function parseChart(value: string): ChartPoint[] {
  const points = lines(value).map((line, i) => {
    const at = line.lastIndexOf(":");
    if (at <= 0) throw new FormatError(`line ${i + 1} should be "label: value"`);
    const n = parseNumber(line.slice(at + 1));
    if (!n) throw new FormatError(`line ${i + 1}: "${line.slice(at + 1).trim()}" is not a number`);
    return { label: line.slice(0, at).trim(), ...n };
  });
  if (points.length < 2) throw new FormatError('needs at least two "label: value" lines');
  return points;
}

export type Person = { name: string; title: string; note?: string };

/** "Name | Title | note" lines (the note is optional). */
export function parsePeople(value: string): Person[] {
  const people = lines(value).map((line, i) => {
    const [name, title, ...note] = line.split("|").map((c) => c.trim());
    if (!name || !title) throw new FormatError(`line ${i + 1} should be "Name | Title | note"`);
    return note.join(" | ") ? { name, title, note: note.join(" | ") } : { name, title };
  });
  if (people.length === 0) throw new FormatError("needs at least one person");
  return people;
}

export type Metric = { label: string; value: string; note?: string };

/** 2 to 4 "label: value | note" lines (the note is optional). */
export function parseMetrics(value: string): Metric[] {
  const metrics = lines(value).map((line, i) => {
    const [main, ...note] = line.split("|").map((c) => c.trim());
    const at = (main ?? "").indexOf(":");
    if (!main || at <= 0 || !main.slice(at + 1).trim())
      throw new FormatError(`line ${i + 1} should be "label: value | note"`);
    const metric: Metric = { label: main.slice(0, at).trim(), value: main.slice(at + 1).trim() };
    if (note.join(" | ")) metric.note = note.join(" | ");
    return metric;
  });
  if (metrics.length < 2 || metrics.length > 4)
    throw new FormatError(`needs 2 to 4 metrics, one per line; got ${metrics.length}`);
  return metrics;
}

export type TimelineEvent = { when: string; what: string };

/** "when: what" lines, in order. */
export function parseTimeline(value: string): TimelineEvent[] {
  const events = lines(value).map((line, i) => {
    const at = line.indexOf(":");
    if (at <= 0 || !line.slice(at + 1).trim())
      throw new FormatError(`line ${i + 1} should be "when: what happens"`);
    return { when: line.slice(0, at).trim(), what: line.slice(at + 1).trim() };
  });
  if (events.length < 2) throw new FormatError('needs at least two "when: what" lines');
  return events;
}
