import type { DraftSlide } from "../deck-draft.ts";
import { byAmount, byDate, num, type Opportunity, signalOf, str } from "./facts.ts";
import { count, longDate, money } from "./format.ts";
import {
  accountMetrics,
  bookingsByMonth,
  type Dossier,
  dealDetails,
  keyContacts,
  nextSteps,
  notesSlide,
  openDeals,
  openOpportunities,
  opportunityTable,
  pipelineByStage,
  quoteOfCustomer,
  recentActivity,
  resultMetrics,
  risks,
  risksSlide,
  signalNotes,
  winsAndLosses,
} from "./sections.ts";

// What each template's deck holds, in order. `priority` decides what stays when fewer slides are
// asked for (lower stays longer); `extras` are grounded slides added when more are asked for.

export type BlueprintSection = { priority: number; build(d: Dossier): DraftSlide | undefined; agenda?: true };

export type Blueprint = {
  /** What the deck is about: one account, one opportunity, or the whole workspace. */
  subject: "account" | "opportunity" | "workspace";
  title(d: Dossier): string;
  subtitle(d: Dossier): (string | undefined)[];
  sections: BlueprintSection[];
  extras(d: Dossier): DraftSlide[];
  summary(d: Dossier): string;
};

const AGENDA: BlueprintSection = { priority: 8, build: () => undefined, agenda: true };
const accountName = (d: Dossier) => d.account?.name ?? "the account";
const industry = (d: Dossier) => (d.account ? str(d.account.fields, "industry") : undefined);
const region = (d: Dossier) => (d.account ? str(d.account.fields, "region") : undefined);
const total = (opps: Opportunity[]) => opps.reduce((a, o) => a + (o.amount ?? 0), 0);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const dealSlides = (d: Dossier) => [...openDeals(d)].sort(byAmount).map((o) => dealDetails(o, d));

function accountSummary(kind: string, d: Dossier): string {
  const open = openDeals(d);
  const riskLabels = risks(d).length;
  const where = [industry(d), region(d)].filter(Boolean).join(", ");
  return [
    `${kind} of ${accountName(d)}${where ? ` (${where})` : ""}`,
    open.length
      ? `${money(total(open))} open pipeline across ${plural(open.length, "opportunity", "opportunities")}`
      : "no open opportunities",
    `${plural(d.contacts.length, "contact")} and ${plural(d.notes.length, "note")} reviewed`,
    riskLabels ? `${plural(riskLabels, "risk")} flagged` : "no risks flagged in the notes",
  ].join("; ");
}

export const blueprints: Record<string, Blueprint> = {
  "account-review": {
    subject: "account",
    title: (d) => `${accountName(d)}: Account Review`,
    subtitle: (d) => [
      d.account ? str(d.account.fields, "tier") && `${str(d.account.fields, "tier")} account` : undefined,
      industry(d),
      region(d),
    ],
    sections: [
      AGENDA,
      { priority: 1, build: accountMetrics },
      { priority: 2, build: (d) => openOpportunities(d) },
      { priority: 5, build: pipelineByStage },
      { priority: 4, build: (d) => keyContacts(d) },
      { priority: 6, build: (d) => recentActivity(d) },
      { priority: 3, build: risksSlide },
      { priority: 2, build: (d) => nextSteps(d) },
    ],
    extras: (d) => [...dealSlides(d), quoteOfCustomer(d)].filter((s): s is DraftSlide => Boolean(s)),
    summary: (d) => accountSummary("Account review", d),
  },
  "quarterly-business-review": {
    subject: "account",
    title: (d) => `${accountName(d)}: Quarterly Business Review`,
    subtitle: (d) => [industry(d), region(d)],
    sections: [
      AGENDA,
      { priority: 1, build: resultMetrics },
      { priority: 3, build: winsAndLosses },
      { priority: 6, build: bookingsByMonth },
      { priority: 4, build: pipelineByStage },
      {
        priority: 5,
        build: (d) => notesSlide("Adoption and expansion", signalNotes(d, ["expansion", "adoption"])),
      },
      { priority: 3, build: risksSlide },
      { priority: 2, build: (d) => nextSteps(d, "Plan for next quarter") },
    ],
    extras: (d) =>
      [quoteOfCustomer(d), keyContacts(d), recentActivity(d), ...dealSlides(d)].filter((s): s is DraftSlide =>
        Boolean(s),
      ),
    summary: (d) => accountSummary("Quarterly business review", d),
  },
  "deal-review": {
    subject: "opportunity",
    title: (d) =>
      d.deal ? `${d.deal.product}${d.account ? ` for ${d.account.name}` : ""}: Deal Review` : "Deal Review",
    subtitle: (d) => [
      d.deal?.stage,
      d.deal?.amount !== undefined ? money(d.deal.amount) : undefined,
      d.deal?.closeDate ? `closes ${longDate(d.deal.closeDate)}` : undefined,
    ],
    sections: [
      AGENDA,
      {
        priority: 1,
        build: (d) => {
          const o = d.deal;
          if (!o) return undefined;
          const revenue = d.account ? num(d.account.fields, "annualRevenue", "revenue") : undefined;
          const metrics = [
            o.amount !== undefined ? `Amount: ${money(o.amount)} | ${o.product}` : undefined,
            `Stage: ${o.stage}${o.probability !== undefined ? ` | ${o.probability}% likely` : ""}`,
            o.closeDate ? `Close date: ${longDate(o.closeDate)} | expected` : undefined,
            revenue !== undefined ? `Customer revenue: ${money(revenue)} | ${accountName(d)}` : undefined,
          ].filter((m): m is string => Boolean(m));
          return metrics.length >= 2
            ? { layoutName: "metrics", placeholders: { title: "The deal", metrics: metrics.join("\n") } }
            : undefined;
        },
      },
      { priority: 3, build: (d) => keyContacts(d, "Stakeholders") },
      { priority: 5, build: (d) => recentActivity(d, "Deal history") },
      { priority: 4, build: (d) => notesSlide("Competition", signalNotes(d, ["competition"])) },
      { priority: 3, build: risksSlide },
      {
        priority: 6,
        build: (d) =>
          opportunityTable(
            `Other opportunities with ${accountName(d)}`,
            d.opportunities.filter((o) => o.id !== d.deal?.id),
          ),
      },
      {
        priority: 2,
        build: (d) => nextSteps({ ...d, opportunities: d.deal ? [d.deal] : [] }, "Path to close"),
      },
    ],
    extras: (d) => [quoteOfCustomer(d), pipelineByStage(d)].filter((s): s is DraftSlide => Boolean(s)),
    summary: (d) =>
      `Deal review of ${d.deal?.name ?? "the deal"}: ${d.deal?.stage ?? "stage unknown"}${d.deal?.amount !== undefined ? `, ${money(d.deal.amount)}` : ""}${d.deal?.closeDate ? `, closing ${longDate(d.deal.closeDate)}` : ""}; ${plural(d.contacts.length, "stakeholder")} and ${plural(d.notes.length, "note")} reviewed; ${plural(risks(d).length, "risk")} flagged`,
  },
  "meeting-prep": {
    subject: "account",
    title: (d) => `Meeting prep: ${accountName(d)}`,
    subtitle: (d) => [industry(d), region(d)],
    sections: [
      AGENDA,
      { priority: 1, build: (d) => keyContacts(d, "Who we are meeting") },
      { priority: 2, build: (d) => recentActivity(d, "What happened last time") },
      {
        priority: 3,
        build: (d) =>
          notesSlide(
            "Open questions",
            [...d.notes].reverse().filter((n) => /\?|asked|needs|wants|requested/i.test(n.text)),
          ),
      },
      {
        priority: 4,
        build: (d) => {
          const advance = [...openDeals(d)].slice(0, 4).map((o) => `${o.product}: move on from ${o.stage}`);
          const resolve = risks(d)
            .slice(0, 4)
            .map(
              (n) => `${signalOf(n)?.label ?? "Open issue"}${n.date ? ` (raised ${longDate(n.date)})` : ""}`,
            );
          return advance.length && resolve.length
            ? {
                layoutName: "two-column",
                placeholders: {
                  title: "Goals for the meeting",
                  leftTitle: "Advance",
                  left: advance.join("\n"),
                  rightTitle: "Resolve",
                  right: resolve.join("\n"),
                },
              }
            : undefined;
        },
      },
      { priority: 5, build: accountMetrics },
      { priority: 2, build: (d) => nextSteps(d, "After the meeting") },
    ],
    extras: (d) =>
      [openOpportunities(d), risksSlide(d), quoteOfCustomer(d)].filter((s): s is DraftSlide => Boolean(s)),
    summary: (d) => accountSummary("Meeting briefing", d),
  },
  "pipeline-review": {
    subject: "workspace",
    title: () => "Pipeline Review",
    subtitle: (d) => {
      const open = openDeals(d);
      return [
        `${plural(open.length, "open opportunity", "open opportunities")}`,
        `${money(total(open))} in pipeline`,
      ];
    },
    sections: [
      AGENDA,
      {
        priority: 1,
        build: (d) => {
          const open = openDeals(d);
          if (open.length === 0) return undefined;
          const weighted = open.reduce((a, o) => a + (o.amount ?? 0) * ((o.probability ?? 0) / 100), 0);
          const won = d.opportunities.filter((o) => /won/i.test(o.stage));
          return {
            layoutName: "metrics",
            placeholders: {
              title: "Pipeline at a glance",
              metrics: [
                `Open pipeline: ${money(total(open))} | ${count(open.length)} opportunities`,
                `Weighted forecast: ${money(weighted)} | amount × probability`,
                `Average deal: ${money(total(open) / open.length)} | open deals`,
                `Won: ${money(total(won))} | ${plural(won.length, "deal")}`,
              ].join("\n"),
            },
          };
        },
      },
      { priority: 2, build: pipelineByStage },
      {
        priority: 3,
        build: (d) =>
          opportunityTable(
            "Closing next",
            [...openDeals(d)].sort(byDate<Opportunity>((o) => o.closeDate)),
            undefined,
          ),
      },
      {
        priority: 4,
        build: (d) => opportunityTable("Largest open deals", [...openDeals(d)].sort(byAmount)),
      },
      {
        priority: 5,
        build: (d) => {
          const months = new Map<string, number>();
          for (const o of [...openDeals(d)].sort(byDate<Opportunity>((x) => x.closeDate))) {
            if (!o.closeDate || o.amount === undefined) continue;
            const m = longDate(o.closeDate)?.replace(/ \d+,/, "") as string;
            months.set(m, (months.get(m) ?? 0) + o.amount * ((o.probability ?? 0) / 100));
          }
          return months.size >= 2
            ? {
                layoutName: "line-chart",
                placeholders: {
                  title: "Weighted forecast by close month",
                  chart: [...months]
                    .slice(0, 12)
                    .map(([m, v]) => `${m}: ${money(v)}`)
                    .join("\n"),
                  caption: "Open amounts × probability, by expected close",
                },
              }
            : undefined;
        },
      },
      { priority: 3, build: risksSlide },
      { priority: 2, build: (d) => nextSteps(d) },
    ],
    extras: (d) => dealSlides(d),
    summary: (d) => {
      const open = openDeals(d);
      return `Pipeline review of the workspace: ${money(total(open))} across ${plural(open.length, "open opportunity", "open opportunities")}; ${plural(risks(d).length, "kind")} of risk flagged in ${plural(d.notes.length, "note")}`;
    },
  },
};
