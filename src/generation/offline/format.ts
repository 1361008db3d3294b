// How numbers and dates read on slides. Pure and locale-independent, so the same data always
// gives the same deck.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** $420M, $1.2M, $85K, $950 */
export function money(amount: number): string {
  const abs = Math.abs(amount);
  const sign = amount < 0 ? "-" : "";
  const scaled = (n: number, unit: string) => `${sign}$${Number(n.toFixed(n >= 100 ? 0 : 1))}${unit}`;
  if (abs >= 1e9) return scaled(abs / 1e9, "B");
  if (abs >= 1e6) return scaled(abs / 1e6, "M");
  if (abs >= 1e3) return scaled(abs / 1e3, "K");
  return `${sign}$${Math.round(abs)}`;
}

/** 1,840 */
export const count = (n: number) => Math.round(n).toLocaleString("en-US");

export const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** A date from an ISO string (2026-10-14 or a full timestamp), or undefined. */
export function parseDate(value: unknown): { y: number; m: number; d: number } | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return m >= 1 && m <= 12 && d >= 1 && d <= 31 ? { y, m, d } : undefined;
}

/** Oct 14, 2026 */
export function longDate(value: unknown): string | undefined {
  const p = parseDate(value);
  return p ? `${MONTHS[p.m - 1]} ${p.d}, ${p.y}` : undefined;
}

/** Oct 14 */
export function shortDate(value: unknown): string | undefined {
  const p = parseDate(value);
  return p ? `${MONTHS[p.m - 1]} ${p.d}` : undefined;
}

/** Oct 2026 */
export function monthLabel(value: unknown): string | undefined {
  const p = parseDate(value);
  return p ? `${MONTHS[p.m - 1]} ${p.y}` : undefined;
}

/** Cuts text at a word boundary, with an ellipsis when it was longer. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[,;:.\s]+$/, "")}…`;
}

/** The first sentence of a text. */
export function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return (match?.[1] ?? text).trim();
}

/** Text safe inside a markdown pipe table cell or a "a | b | c" line. */
export const cell = (text: string) => text.replace(/\|/g, "/").replace(/\s+/g, " ").trim();

/** "label: value" lines and "when: what" lines split at the first colon, so labels lose theirs. */
export const label = (text: string) => cell(text).replace(/:/g, " -");
