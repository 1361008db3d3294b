import type { DraftSlide, DraftTopic } from "../deck-draft.ts";
import {
  byAmount,
  byDate,
  type Contact,
  isClosed,
  isLost,
  isWon,
  type Note,
  noteLine,
  num,
  type Opportunity,
  type Record_,
  signalOf,
  str,
} from "./facts.ts";
import { cell, clip, count, label, longDate, money, monthLabel, percent, shortDate } from "./format.ts";

// Slide builders over a dossier (the subject and what links to it). Each returns a slide, or
// undefined when the workspace has no data for it: a slide is never padded with invented content.

export type Tone = "formal" | "neutral" | "casual";

export type Dossier = {
  account?: Record_;
  deal?: Opportunity;
  opportunities: Opportunity[];
  contacts: Contact[];
  /** Oldest first. */
  notes: Note[];
  tone: Tone;
  audience?: string;
  /** Names the instructions mention, e.g. who attends a meeting. */
  mentioned: (name: string) => boolean;
};

export type Section = { key: string; build(d: Dossier): DraftSlide | undefined };

const PHRASES = {
  glance: { formal: "Account overview", neutral: "Account at a glance", casual: "The big picture" },
  contacts: { formal: "Key stakeholders", neutral: "Key contacts", casual: "Who's who" },
  activity: { formal: "Recent engagement", neutral: "Recent activity", casual: "What's been happening" },
  risks: { formal: "Risks to address", neutral: "Risks", casual: "What could go wrong" },
  nextSteps: { formal: "Recommended next steps", neutral: "Next steps", casual: "What's next" },
  pipeline: { formal: "Pipeline by stage", neutral: "Pipeline by stage", casual: "Where the deals are" },
} as const;
export const phrase = (d: Dossier, key: keyof typeof PHRASES) => PHRASES[key][d.tone];

export function toneOf(tone: string | undefined): Tone {
  if (!tone) return "neutral";
  if (/formal|executive|board|professional|serious/i.test(tone)) return "formal";
  if (/casual|friendly|informal|relaxed|fun|playful|conversational/i.test(tone)) return "casual";
  return "neutral";
}

const slide = (layoutName: string, placeholders: Record<string, string>): DraftSlide => ({
  layoutName,
  placeholders,
});
const sum = (values: (number | undefined)[]) => values.reduce<number>((a, v) => a + (v ?? 0), 0);
export const openDeals = (d: Dossier) => d.opportunities.filter((o) => !isClosed(o));
const soonest = byDate<Opportunity>((o) => o.closeDate);

/** Open pipeline by stage, in the order stages first appear in the sales process. */
const STAGE_ORDER = ["prospect", "qualif", "discover", "proposal", "negotiat", "commit"];
const stageRank = (stage: string) => {
  const i = STAGE_ORDER.findIndex((s) => stage.toLowerCase().includes(s));
  return i < 0 ? STAGE_ORDER.length : i;
};

export function titleSlide(title: string, parts: (string | undefined)[], d: Dossier): DraftSlide {
  const subtitle = [...parts, d.audience ? `Prepared for ${d.audience}` : undefined]
    .filter(Boolean)
    .join(" · ");
  return slide(
    "title",
    subtitle ? { title: clip(title, 200), subtitle: clip(subtitle, 300) } : { title: clip(title, 200) },
  );
}

export const agendaSlide = (titles: string[]): DraftSlide | undefined =>
  titles.length >= 3
    ? slide("agenda", { title: "Agenda", items: titles.map((t) => clip(t, 80)).join("\n") })
    : undefined;

export function accountMetrics(d: Dossier): DraftSlide | undefined {
  const a = d.account;
  if (!a) return undefined;
  const open = openDeals(d);
  const won = d.opportunities.filter(isWon);
  const revenue = num(a.fields, "annualRevenue", "revenue", "AnnualRevenue");
  const employees = num(a.fields, "employees", "headcount", "NumberOfEmployees");
  const metrics = [
    revenue !== undefined
      ? `Annual revenue: ${money(revenue)} | ${label(str(a.fields, "industry") ?? "Company revenue")}`
      : undefined,
    employees !== undefined
      ? `Employees: ${count(employees)} | ${label(str(a.fields, "region") ?? "Headcount")}`
      : undefined,
    open.length
      ? `Open pipeline: ${money(sum(open.map((o) => o.amount)))} | ${open.length} opportunit${open.length === 1 ? "y" : "ies"}`
      : undefined,
    won.length
      ? `Won: ${money(sum(won.map((o) => o.amount)))} | ${won.length} deal${won.length === 1 ? "" : "s"} closed`
      : undefined,
  ].filter((m): m is string => Boolean(m));
  return metrics.length >= 2
    ? slide("metrics", { title: phrase(d, "glance"), metrics: metrics.slice(0, 4).join("\n") })
    : undefined;
}

export function opportunityTable(
  title: string,
  opps: Opportunity[],
  caption?: string,
): DraftSlide | undefined {
  if (opps.length === 0) return undefined;
  const rows = opps
    .slice(0, 8)
    .map(
      (o) =>
        `| ${cell(o.product)} | ${cell(o.stage)} | ${o.amount !== undefined ? money(o.amount) : "—"} | ${longDate(o.closeDate) ?? "—"} |`,
    );
  const more = opps.length > 8 ? `${opps.length - 8} more not shown` : undefined;
  const text = caption ?? more;
  return slide("table", {
    title,
    table: ["| Opportunity | Stage | Amount | Close date |", "|---|---|---|---|", ...rows].join("\n"),
    ...(text ? { caption: text } : {}),
  });
}

export const openOpportunities = (d: Dossier, title = "Open opportunities") =>
  opportunityTable(title, [...openDeals(d)].sort(soonest));

export function pipelineByStage(d: Dossier): DraftSlide | undefined {
  const totals = new Map<string, number>();
  for (const o of openDeals(d))
    if (o.amount !== undefined) totals.set(o.stage, (totals.get(o.stage) ?? 0) + o.amount);
  if (totals.size < 2) return undefined; // one bar is not a chart
  const stages = [...totals.keys()].sort((a, b) => stageRank(a) - stageRank(b) || a.localeCompare(b));
  return slide("bar-chart", {
    title: phrase(d, "pipeline"),
    chart: stages.map((s) => `${label(s)}: ${money(totals.get(s) as number)}`).join("\n"),
    caption: `Open opportunities, total ${money(sum([...totals.values()]))}`,
  });
}

/** People, those the instructions name first, then those most present in the notes. */
export function keyContacts(d: Dossier, title: string = phrase(d, "contacts")): DraftSlide | undefined {
  if (d.contacts.length === 0) return undefined;
  const notesOf = (c: Contact) => d.notes.filter((n) => n.links.includes(c.id));
  const ranked = [...d.contacts].sort(
    (a, b) =>
      Number(d.mentioned(b.name)) - Number(d.mentioned(a.name)) ||
      notesOf(b).length - notesOf(a).length ||
      a.name.localeCompare(b.name),
  );
  const lines = ranked.slice(0, 6).map((c) => {
    const last = notesOf(c).at(-1);
    const note = last?.date
      ? `Last contact ${shortDate(last.date)} (${last.kind.toLowerCase()})`
      : (c.email ?? "");
    return `${cell(c.name)} | ${cell(c.title ?? "Contact")}${note ? ` | ${cell(note)}` : ""}`;
  });
  return slide("people", { title, people: lines.join("\n") });
}

export function recentActivity(d: Dossier, title: string = phrase(d, "activity")): DraftSlide | undefined {
  const dated = d.notes.filter((n) => n.date).slice(-5);
  if (dated.length < 2) return undefined;
  return slide("timeline", {
    title,
    events: dated.map((n) => `${shortDate(n.date)}: ${label(clip(noteLine(n), 70))}`).join("\n"),
  });
}

/** The newest note of each kind of risk. */
export function risks(d: Dossier): Note[] {
  const seen = new Set<string>();
  const found: Note[] = [];
  for (const n of [...d.notes].reverse()) {
    const s = signalOf(n);
    if (s?.risk && !seen.has(s.key)) {
      seen.add(s.key);
      found.push(n);
    }
  }
  return found;
}

export function signalNotes(d: Dossier, keys: string[]): Note[] {
  return [...d.notes].reverse().filter((n) => keys.includes(signalOf(n)?.key ?? ""));
}

export function notesSlide(title: string, notes: Note[]): DraftSlide | undefined {
  if (notes.length === 0) return undefined;
  const lines = notes.slice(0, 5).map((n) => {
    const s = signalOf(n);
    return `${s ? `${s.label}: ` : ""}${clip(noteLine(n), 110)}${n.date ? ` (${shortDate(n.date)})` : ""}`;
  });
  return slide("bullets", { title, body: lines.join("\n") });
}

export const risksSlide = (d: Dossier) => notesSlide(phrase(d, "risks"), risks(d));

/** Steps grounded in the data: the next deals to advance and the risks to answer. */
export function nextSteps(d: Dossier, title: string = phrase(d, "nextSteps")): DraftSlide | undefined {
  const steps = [
    ...[...openDeals(d)]
      .sort(soonest)
      .slice(0, 3)
      .map(
        (o) =>
          `Advance ${o.product} (${o.stage}${o.amount !== undefined ? `, ${money(o.amount)}` : ""})${o.closeDate ? ` before ${longDate(o.closeDate)}` : ""}`,
      ),
    ...risks(d)
      .slice(0, 2)
      .map(
        (n) =>
          `Follow up on ${signalOf(n)?.label.toLowerCase()}${n.date ? ` (raised ${shortDate(n.date)})` : ""}`,
      ),
  ];
  return steps.length ? slide("closing", { title, steps: steps.join("\n") }) : undefined;
}

export function winsAndLosses(d: Dossier): DraftSlide | undefined {
  const closed = d.opportunities.filter(isClosed).sort(soonest);
  if (closed.length === 0) return undefined;
  const won = closed.filter(isWon).length;
  const lost = closed.filter(isLost).length;
  return opportunityTable(
    "Wins and losses",
    closed,
    `${won} won, ${lost} lost${won + lost ? ` (win rate ${percent(won / (won + lost))})` : ""}`,
  );
}

export function resultMetrics(d: Dossier): DraftSlide | undefined {
  const won = d.opportunities.filter(isWon);
  const lost = d.opportunities.filter(isLost);
  const open = openDeals(d);
  if (won.length + lost.length + open.length === 0) return undefined;
  const metrics = [
    `Won: ${money(sum(won.map((o) => o.amount)))} | ${won.length} deal${won.length === 1 ? "" : "s"}`,
    `Lost: ${money(sum(lost.map((o) => o.amount)))} | ${lost.length} deal${lost.length === 1 ? "" : "s"}`,
    won.length + lost.length
      ? `Win rate: ${percent(won.length / (won.length + lost.length))} | of closed deals`
      : undefined,
    `Open pipeline: ${money(sum(open.map((o) => o.amount)))} | ${open.length} open`,
  ].filter((m): m is string => Boolean(m));
  return slide("metrics", { title: "Results", metrics: metrics.join("\n") });
}

/** Closed-won amounts by month of closing. */
export function bookingsByMonth(d: Dossier): DraftSlide | undefined {
  const won = d.opportunities.filter((o) => isWon(o) && o.closeDate && o.amount !== undefined).sort(soonest);
  const months = new Map<string, number>();
  for (const o of won) {
    const m = monthLabel(o.closeDate) as string;
    months.set(m, (months.get(m) ?? 0) + (o.amount as number));
  }
  if (months.size < 2) return undefined;
  return slide("line-chart", {
    title: "Bookings by month",
    chart: [...months].map(([m, v]) => `${m}: ${money(v)}`).join("\n"),
    caption: "Closed-won amounts by close date",
  });
}

export function quoteOfCustomer(d: Dossier): DraftSlide | undefined {
  const n = [...d.notes].reverse().find((x) => signalOf(x)?.key === "expansion") ?? d.notes.at(-1);
  if (!n) return undefined;
  return slide("quote", {
    quote: clip(noteLine(n), 400),
    attribution: clip(`${n.name}${n.date ? `, ${longDate(n.date)}` : ""}`, 200),
  });
}

export function dealDetails(o: Opportunity, d: Dossier): DraftSlide {
  const facts = [
    `Stage: ${o.stage}${o.probability !== undefined ? ` (${o.probability}% likely)` : ""}`,
    o.amount !== undefined ? `Amount: ${money(o.amount)}` : undefined,
    o.closeDate ? `Expected close: ${longDate(o.closeDate)}` : undefined,
  ].filter((x): x is string => Boolean(x));
  const related = d.notes
    .filter((n) => n.text.includes(o.product))
    .slice(-3)
    .map((n) => clip(noteLine(n), 100));
  return slide("two-column", {
    title: clip(o.name, 200),
    leftTitle: "Facts",
    left: facts.join("\n"),
    rightTitle: "Recent notes",
    right: related.length ? related.join("\n") : "No notes mention this product yet",
  });
}

/** Topics for the meeting: each risk, then the largest open deal. */
export function discussionTopics(d: Dossier): DraftTopic[] {
  const topics: DraftTopic[] = risks(d)
    .slice(0, 3)
    .map((n) => ({
      topic: signalOf(n)?.label ?? "Open issue",
      details: clip(noteLine(n), 300),
      notes: `Source: ${n.name}${n.date ? `, ${longDate(n.date)}` : ""}`,
    }));
  const biggest = [...openDeals(d)].sort(byAmount)[0];
  if (biggest) {
    topics.push({
      topic: `Close plan for ${biggest.product}`,
      details: `${biggest.stage}${biggest.amount !== undefined ? `, ${money(biggest.amount)}` : ""}${biggest.closeDate ? `, expected to close ${longDate(biggest.closeDate)}` : ""}. Agree owners and dates for the remaining steps.`,
    });
  }
  return topics;
}
