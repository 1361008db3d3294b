import type { EntityFields } from "../../storage/schema.ts";
import { firstSentence, parseDate } from "./format.ts";

// The workspace's records as the composer reads them: typed opportunities, contacts and notes,
// tolerant of field names other CRMs use, and notes classified into risks and signals by their
// wording. Nothing here invents a value: a missing field stays missing.

export type Record_ = {
  id: string;
  type: string;
  name: string;
  fields: EntityFields;
  body: string;
  links: string[];
};

export type Opportunity = {
  id: string;
  name: string;
  product: string;
  stage: string;
  amount?: number;
  probability?: number;
  closeDate?: string;
  accountId?: string;
};
export type Contact = { id: string; name: string; title?: string; email?: string };
export type Note = { id: string; name: string; kind: string; date?: string; text: string; links: string[] };

const field = (fields: EntityFields, keys: string[]) => {
  for (const k of keys)
    if (fields[k] !== undefined && fields[k] !== null && fields[k] !== "") return fields[k];
  return undefined;
};
export const num = (fields: EntityFields, ...keys: string[]): number | undefined => {
  const v = field(fields, keys);
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v.replace(/[$,\s]/g, "")) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};
export const str = (fields: EntityFields, ...keys: string[]): string | undefined => {
  const v = field(fields, keys);
  return v === undefined ? undefined : String(v);
};

export const isClosed = (o: Opportunity) => /closed|won|lost/i.test(o.stage);
export const isWon = (o: Opportunity) => /won/i.test(o.stage);
export const isLost = (o: Opportunity) => /lost/i.test(o.stage);

export function toOpportunity(r: Record_, accountIds: Set<string>): Opportunity {
  const f = r.fields;
  const product =
    str(f, "product") ?? (r.name.includes(":") ? r.name.split(":").slice(1).join(":").trim() : r.name);
  return {
    id: r.id,
    name: r.name,
    product,
    stage: str(f, "stage", "status", "Stage") ?? "Unknown",
    amount: num(f, "amount", "value", "arr", "Amount"),
    probability: num(f, "probability", "Probability"),
    closeDate: parseDate(str(f, "closeDate", "close_date", "closeAt", "CloseDate"))
      ? str(f, "closeDate", "close_date", "closeAt", "CloseDate")
      : undefined,
    accountId: r.links.find((l) => accountIds.has(l)),
  };
}

export const toContact = (r: Record_): Contact => ({
  id: r.id,
  name: r.name,
  title: str(r.fields, "title", "jobTitle", "role"),
  email: str(r.fields, "email"),
});

export const toNote = (r: Record_): Note => ({
  id: r.id,
  name: r.name,
  kind: str(r.fields, "kind", "type") ?? "Note",
  date: parseDate(str(r.fields, "date", "createdAt", "occurredAt"))
    ? str(r.fields, "date", "createdAt", "occurredAt")
    : undefined,
  text: r.body.trim() || r.name,
  links: r.links,
});

/**
 * Oldest first, undated last; ties by name, then text. Ids differ between workspaces holding the
 * same data, so they break only ties nothing else does: the same data gives the same deck.
 */
export const byDate =
  <T extends { id: string; name: string }>(date: (t: T) => string | undefined) =>
  (a: T, b: T) =>
    (date(a) ?? "9999").localeCompare(date(b) ?? "9999") ||
    a.name.localeCompare(b.name) ||
    a.id.localeCompare(b.id);

/** Largest amount first; ties by name. */
export const byAmount = <T extends { id: string; name: string; amount?: number }>(a: T, b: T) =>
  (b.amount ?? 0) - (a.amount ?? 0) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

// What a note is about, by its wording. Risks first: a note can be both.
export const SIGNALS = [
  {
    key: "renewal",
    label: "Renewal risk",
    risk: true,
    pattern: /cancel|not renew|unhappy|terminate|stopped logging|renewal at risk|churn|usage dropped/i,
  },
  {
    key: "delivery",
    label: "Delivery problems",
    risk: true,
    pattern: /outage|behind schedule|keeps failing|escalat|delayed/i,
  },
  {
    key: "competition",
    label: "Competitive pressure",
    risk: true,
    pattern: /evaluat|side-by-side|free pilot|compares|moving budget|competitor/i,
  },
  {
    key: "pricing",
    label: "Pricing and budget",
    risk: true,
    pattern: /discount|push(ed)? back on price|budget is tight|payment terms|approval/i,
  },
  {
    key: "security",
    label: "Security and compliance",
    risk: true,
    pattern:
      /security (?:review|questionnaire|team|audit)|encryption|soc 2|gdpr|hipaa|compliance|penetration/i,
  },
  {
    key: "leadership",
    label: "Executive change",
    risk: true,
    pattern: /leaving the company|new (ceo|cio|cto|cfo)|executive sponsor|consolidation/i,
  },
  {
    key: "expansion",
    label: "Expansion",
    risk: false,
    pattern: /roll out|add \d+ seats|upgrad|more departments|volume quote/i,
  },
  {
    key: "adoption",
    label: "Adoption",
    risk: false,
    pattern: /training|kickoff|onboard|implementation|configur/i,
  },
] as const;
export type Signal = (typeof SIGNALS)[number];

export const signalOf = (note: Note): Signal | undefined => SIGNALS.find((s) => s.pattern.test(note.text));

/** A note as one line for a slide: its first sentence. */
export const noteLine = (note: Note) => firstSentence(note.text);
