// Built-in templates. Ids are stable slugs: clients store them, so never rename one.

export type Template = {
  id: string;
  name: string;
  description: string;
  suggestedEntityTypes: string[];
};

export const templates: readonly Template[] = [
  {
    id: "account-review",
    name: "Account review",
    description:
      "A full picture of one customer: key metrics, open opportunities, pipeline by stage, key contacts, recent activity, risks and next steps.",
    suggestedEntityTypes: ["account", "contact", "opportunity", "note"],
  },
  {
    id: "quarterly-business-review",
    name: "Quarterly business review",
    description:
      "A QBR for a customer or a team: results against goals, wins and losses, adoption, the plan for next quarter.",
    suggestedEntityTypes: ["account", "opportunity", "note"],
  },
  {
    id: "deal-review",
    name: "Deal review",
    description:
      "One opportunity under the microscope: stage, amount, close date, stakeholders, competition, risks and the path to close.",
    suggestedEntityTypes: ["opportunity", "account", "contact", "note"],
  },
  {
    id: "meeting-prep",
    name: "Meeting prep",
    description:
      "A briefing before a customer meeting: who attends, what happened last time, open questions and goals for the meeting.",
    suggestedEntityTypes: ["account", "contact", "note"],
  },
  {
    id: "pipeline-review",
    name: "Pipeline review",
    description:
      "The state of the pipeline: totals by stage, deals closing soon, deals at risk, and forecast.",
    suggestedEntityTypes: ["opportunity", "account"],
  },
  {
    id: "general",
    name: "General topic",
    description:
      "A clear deck on any subject, outlined from the instructions themselves, with workspace data where it fits.",
    suggestedEntityTypes: [],
  },
];

export const DEFAULT_TEMPLATE_ID = "general";
