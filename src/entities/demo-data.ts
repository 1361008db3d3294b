import { seededRandom } from "../prng.ts";
import type { EntityInput } from "./entity-schemas.ts";

// A deterministic, realistic CRM for the demo workspace and for relevance tests: accounts across
// industries, contacts with titles, opportunities with stages, amounts and close dates, and notes
// (meeting notes, emails) about products, risks, competitors and people. The same seed always
// gives the same data. Notes and contacts carry a `label` (a note's theme, a contact's function):
// what relevance tests judge against. It is not part of the entity and never stored.

export type DemoEntity = Omit<EntityInput, "links"> & {
  externalId: string;
  links: { type: string; externalId: string }[];
  label?: string;
};

/** The entity as the API takes it, without the test label. */
export const toEntityInput = ({ label: _label, ...entity }: DemoEntity): EntityInput => entity;

export const INDUSTRIES: Record<string, { label: string; accounts: string[]; about: string }> = {
  healthcare: {
    label: "Healthcare",
    accounts: [
      "Northwind Health",
      "Mercy Valley Hospital",
      "Riverside Medical Group",
      "St. Alder Clinics",
      "Summit Children's Hospital",
    ],
    about:
      "Patient care by nurses and physicians in outpatient clinics and medical centers across the region.",
  },
  finance: {
    label: "Financial services",
    accounts: [
      "Blue Harbor Bank",
      "Granite Trust Insurance",
      "Ledgerline Credit Union",
      "Meridian Capital Partners",
    ],
    about: "Retail banking, loans, mortgages and insurance policies; regulated by financial authorities.",
  },
  retail: {
    label: "Retail",
    accounts: ["Contoso Outfitters", "Fresh Basket Grocers", "Urban Thread Apparel", "Pinecrest Home Goods"],
    about: "Sells consumer goods to shoppers in malls and through e-commerce.",
  },
  manufacturing: {
    label: "Manufacturing",
    accounts: [
      "Ironclad Components",
      "Apex Precision Machining",
      "Helix Robotics Works",
      "Stonebridge Materials",
    ],
    about: "Produces industrial parts on assembly lines in its plants.",
  },
  logistics: {
    label: "Logistics",
    accounts: ["Swiftlane Freight", "Harborview Shipping", "Crossdock Logistics", "Polar Cold Chain"],
    about: "Trucking, warehousing and delivery of cargo for other businesses.",
  },
  education: {
    label: "Education",
    accounts: ["Lakeside University", "Brightpath Schools", "Westfield Community College"],
    about: "Teaches students on campuses, in colleges and classrooms.",
  },
  software: {
    label: "Software",
    accounts: ["Quantum Leaf Software", "Nimbus Cloudworks", "Orbital Apps", "Datawise Labs"],
    about: "Builds software products and cloud services for businesses.",
  },
  energy: {
    label: "Energy",
    accounts: ["Sunridge Solar", "Northgate Utilities", "Tidewater Power"],
    about: "Generates and distributes electricity from plants, wind and solar farms over the grid.",
  },
  telecom: {
    label: "Telecommunications",
    accounts: ["Skyline Telecom", "Fibernet Communications", "Relay Mobile"],
    about: "Cellular networks, broadband internet and wireless service.",
  },
  hospitality: {
    label: "Hospitality",
    accounts: ["Grand Vista Hotels", "Seaside Resorts Group", "Maple Leaf Restaurants"],
    about: "Resorts, inns and restaurants serving travelers and guests.",
  },
  pharma: {
    label: "Pharmaceuticals",
    accounts: ["Cellwave Therapeutics", "Novabridge Pharma", "Greenleaf Biologics"],
    about: "Develops medicines through clinical trials and laboratories.",
  },
  government: {
    label: "Public sector",
    accounts: ["City of Brookhaven", "Lincoln County Services"],
    about: "Public agencies serving citizens and residents.",
  },
};

export const PRODUCTS = [
  { id: "atlas", name: "Atlas Analytics", about: "Dashboards and reports for business analytics." },
  {
    id: "beacon",
    name: "Beacon Security Suite",
    about: "Security monitoring, encryption and compliance auditing.",
  },
  {
    id: "cascade",
    name: "Cascade Data Platform",
    about: "Data warehouse and pipelines to integrate systems.",
  },
  { id: "drift", name: "Drift Messaging", about: "Customer messaging, email and chat." },
  { id: "ember", name: "Ember Forecasting", about: "Demand and revenue forecasting with machine learning." },
];

export const COMPETITORS = ["Globex", "Initech", "Umbrella Analytics", "Hooli"];

export const TITLES: { title: string; group: string }[] = [
  { title: "Chief Financial Officer", group: "finance" },
  { title: "VP Finance", group: "finance" },
  { title: "Controller", group: "finance" },
  { title: "Head of Accounting", group: "finance" },
  { title: "Chief Information Officer", group: "technology" },
  { title: "Chief Technology Officer", group: "technology" },
  { title: "IT Director", group: "technology" },
  { title: "Head of Engineering", group: "technology" },
  { title: "Chief Information Security Officer", group: "security" },
  { title: "Security Manager", group: "security" },
  { title: "Head of Procurement", group: "procurement" },
  { title: "Purchasing Manager", group: "procurement" },
  { title: "Chief Executive Officer", group: "executive" },
  { title: "Chief Operating Officer", group: "executive" },
  { title: "VP Marketing", group: "marketing" },
  { title: "Marketing Manager", group: "marketing" },
  { title: "VP Sales", group: "sales" },
  { title: "Sales Operations Manager", group: "sales" },
  { title: "Head of Human Resources", group: "people" },
  { title: "Operations Manager", group: "operations" },
];

const FIRST = [
  "Maria",
  "James",
  "Aisha",
  "Tom",
  "Sofia",
  "Daniel",
  "Priya",
  "Liam",
  "Chen",
  "Olivia",
  "Noah",
  "Fatima",
  "Lucas",
  "Emma",
  "Mateo",
  "Hana",
  "Ethan",
  "Zara",
  "Omar",
  "Grace",
  "Ivan",
  "Leila",
  "Ben",
  "Yuki",
  "Carlos",
];
const LAST = [
  "Chen",
  "Okafor",
  "Schmidt",
  "Baker",
  "Rossi",
  "Kim",
  "Patel",
  "Novak",
  "Garcia",
  "Johansson",
  "Dubois",
  "Silva",
  "Murphy",
  "Tanaka",
  "Haddad",
  "Kowalski",
  "Reyes",
  "Larsen",
  "Ahmed",
  "Fischer",
];

export const STAGES = [
  "Prospecting",
  "Qualification",
  "Proposal",
  "Negotiation",
  "Closed Won",
  "Closed Lost",
];

/** Note themes, each with several phrasings: what a person would search for. */
export const NOTE_THEMES: Record<string, string[]> = {
  churn: [
    "{contact} said they are unhappy with support response times and are considering cancelling the contract at renewal.",
    "Usage dropped sharply this quarter; {contact} hinted they may not renew and are evaluating {competitor}.",
    "Escalation: {contact} complained about repeated outages and asked how to terminate the agreement early.",
    "Renewal at risk. Their team stopped logging in and {contact} is moving budget to {competitor}.",
  ],
  expansion: [
    "{contact} wants to roll out {product} to three more departments next quarter.",
    "Great call: they plan to add 200 seats of {product} and asked for a volume quote.",
    "{contact} asked about upgrading to the enterprise tier and adding {product}.",
  ],
  security: [
    "{contact} raised questions about data encryption, SOC 2 reports and where customer data is stored.",
    "Their compliance team needs a security review and penetration test results before signing.",
    "{contact} worried about GDPR and HIPAA obligations; requested our data processing agreement.",
  ],
  pricing: [
    "{contact} pushed back on price and asked for a 20% discount to match {competitor}.",
    "Budget is tight this year; they want flexible payment terms and a smaller starter package.",
    "Negotiated pricing for {product}; {contact} needs CFO approval for anything above the budget.",
  ],
  competitor: [
    "They are running a side-by-side evaluation against {competitor}; {contact} likes our reporting better.",
    "{competitor} offered them a free pilot. {contact} asked how {product} compares on features.",
  ],
  onboarding: [
    "Kickoff done. {contact} asked for training sessions for new users of {product}.",
    "Implementation is behind schedule; their admins need more help configuring {product}.",
  ],
  integration: [
    "{contact} needs {product} to connect with their ERP and sync data every night.",
    "The API integration with their billing system keeps failing; engineering is investigating.",
  ],
  leadership: [
    "{contact} is leaving the company next month; we need a new executive sponsor.",
    "New CEO started; {contact} expects a strategy review and possible vendor consolidation.",
  ],
  procurement: [
    "Contract is with procurement and legal; {contact} expects signature after the security questionnaire.",
    "Purchase order delayed until the new fiscal year starts.",
  ],
};

export function demoDataset(seed = 7): DemoEntity[] {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const out: DemoEntity[] = [];

  for (const p of PRODUCTS) {
    out.push({
      type: "product",
      externalId: `product-${p.id}`,
      name: p.name,
      fields: {},
      body: p.about,
      links: [],
    });
  }

  const accounts: { externalId: string; name: string; industry: string }[] = [];
  for (const [key, industry] of Object.entries(INDUSTRIES)) {
    for (const name of industry.accounts) {
      const externalId = `acct-${accounts.length + 1}`;
      accounts.push({ externalId, name, industry: key });
      out.push({
        type: "account",
        externalId,
        name,
        fields: {
          industry: industry.label,
          region: pick(["North America", "Europe", "Asia Pacific", "Latin America"]),
          employees: Math.round(200 + random() * 20_000),
          annualRevenue: Math.round(10 + random() * 2000) * 1_000_000,
          tier: pick(["Strategic", "Growth", "Standard"]),
        },
        body: `${name}. ${industry.about}`,
        links: [],
      });
    }
  }

  const contacts: { externalId: string; name: string; account: string; group: string }[] = [];
  for (let i = 0; i < 150; i++) {
    const account = accounts[i % accounts.length] as (typeof accounts)[number];
    const role = TITLES[(i * 7 + Math.floor(i / accounts.length)) % TITLES.length] as (typeof TITLES)[number];
    const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 3 + Math.floor(i / FIRST.length)) % LAST.length]}`;
    const externalId = `contact-${i + 1}`;
    contacts.push({ externalId, name, account: account.externalId, group: role.group });
    out.push({
      type: "contact",
      externalId,
      name,
      fields: {
        title: role.title,
        email: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@${account.name.toLowerCase().replace(/[^a-z]+/g, "")}.example`,
      },
      label: role.group,
      body: "",
      links: [{ type: "account", externalId: account.externalId }],
    });
  }

  for (let i = 0; i < 80; i++) {
    const account = accounts[(i * 5) % accounts.length] as (typeof accounts)[number];
    const product = PRODUCTS[i % PRODUCTS.length] as (typeof PRODUCTS)[number];
    const stage = STAGES[Math.floor(random() * STAGES.length)] as string;
    const month = 1 + Math.floor(random() * 12);
    const year = stage.startsWith("Closed") ? 2026 : 2027;
    out.push({
      type: "opportunity",
      externalId: `opp-${i + 1}`,
      name: `${account.name}: ${product.name}`,
      fields: {
        stage,
        amount: Math.round(20 + random() * 480) * 1000,
        closeDate: `${year}-${String(month).padStart(2, "0")}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`,
        product: product.name,
        probability:
          stage === "Closed Won" ? 100 : stage === "Closed Lost" ? 0 : 10 + STAGES.indexOf(stage) * 20,
      },
      body: `${product.about} Opportunity with ${account.name}.`,
      links: [
        { type: "account", externalId: account.externalId },
        { type: "product", externalId: `product-${product.id}` },
      ],
    });
  }

  const themes = Object.keys(NOTE_THEMES);
  for (let i = 0; i < 200; i++) {
    const theme = themes[i % themes.length] as string;
    const contact = contacts[Math.floor(random() * contacts.length)] as (typeof contacts)[number];
    const product = pick(PRODUCTS);
    const competitor = pick(COMPETITORS);
    const text = pick(NOTE_THEMES[theme] as string[])
      .replaceAll("{contact}", contact.name)
      .replaceAll("{product}", product.name)
      .replaceAll("{competitor}", competitor);
    const kind = pick(["Meeting notes", "Email", "Call summary"]);
    out.push({
      type: "note",
      externalId: `note-${i + 1}`,
      name: `${kind}: ${contact.name}`,
      label: theme,
      fields: {
        kind,
        date: `2026-${String(1 + (i % 11)).padStart(2, "0")}-${String(1 + (i % 27)).padStart(2, "0")}`,
      },
      body: text,
      links: [
        { type: "contact", externalId: contact.externalId },
        { type: "account", externalId: contact.account },
      ],
    });
  }
  return out;
}
