import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// One schema for both engines (embedded PGlite and a PostgreSQL server). Ids are 24-hex text
// (see ids.ts); every workspace-owned row carries workspace_id so each query can be scoped.

const id = () => text("id").primaryKey();
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const plans = ["free", "pro", "enterprise"] as const;
export type Plan = (typeof plans)[number];
export const roles = ["owner", "admin", "editor", "viewer"] as const;
export type Role = (typeof roles)[number];
export const presentationStatuses = ["generating", "ready", "failed", "stopped"] as const;
export type PresentationStatus = (typeof presentationStatuses)[number];

const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

export const users = pgTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: createdAt(),
});

export const workspaces = pgTable(
  "workspaces",
  {
    id: id(),
    name: text("name").notNull(),
    plan: text("plan").$type<Plan>().notNull(),
    // Kept by a trigger (see the migration) so listing needs no count(*) over the whole workspace.
    presentationCount: integer("presentation_count").notNull().default(0),
    createdAt: createdAt(),
  },
  () => [check("workspaces_plan_check", oneOf("plan", plans))],
);

export const memberships = pgTable(
  "memberships",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<Role>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
    check("memberships_role_check", oneOf("role", roles)),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the key, shown so people can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key; the key itself is never stored. */
    keyHash: text("key_hash").notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    csrfToken: text("csrf_token").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const presentations = pgTable(
  "presentations",
  {
    id: id(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status").$type<PresentationStatus>().notNull(),
    summary: text("summary"),
    templateId: text("template_id"),
    themeId: text("theme_id"),
    slideCount: integer("slide_count").notNull().default(0),
    failureReason: text("failure_reason"),
    revision: integer("revision").notNull().default(0),
    /** What was asked for: kept so any worker can (re)run the generation. */
    generation: jsonb("generation").$type<GenerationRequest>(),
    // The worker generating the deck holds a lease it renews while it works; a lease that runs
    // out means the worker died, and the sweeper retries or fails the deck (jobs/sweeper.ts).
    leaseToken: text("lease_token"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // DESC NULLS FIRST is what a plain `order by … desc` means; a NULLS LAST index would not serve it.
    index("presentations_workspace_created_idx").on(
      t.workspaceId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check("presentations_status_check", oneOf("status", presentationStatuses)),
    // The sweeper's scan: only decks still generating.
    index("presentations_generating_idx").on(t.leaseExpiresAt).where(sql`status = 'generating'`),
  ],
);

export type GenerationRequest = {
  instructions: string;
  templateId: string;
  themeId: string;
  slideCount?: number;
  language?: string;
  tone?: string;
  audience?: string;
};

export const revisionKinds = ["generate", "edit", "restore"] as const;
export type RevisionKind = (typeof revisionKinds)[number];

/** Everything a revision restores. */
export type DeckSnapshot = {
  name: string;
  summary: string;
  themeId: string;
  slides: { layoutName: string; placeholders: Record<string, string> }[];
  topics: { topic: string; details: string; notes?: string }[];
};

export const presentationRevisions = pgTable(
  "presentation_revisions",
  {
    presentationId: text("presentation_id")
      .notNull()
      .references(() => presentations.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    workspaceId: text("workspace_id").notNull(),
    kind: text("kind").$type<RevisionKind>().notNull(),
    instructions: text("instructions"),
    changes: jsonb("changes").$type<string[]>().notNull(),
    snapshot: jsonb("snapshot").$type<DeckSnapshot>().notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.presentationId, t.number] }),
    check("presentation_revisions_kind_check", oneOf("kind", revisionKinds)),
  ],
);

export const slides = pgTable(
  "slides",
  {
    presentationId: text("presentation_id")
      .notNull()
      .references(() => presentations.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    layoutName: text("layout_name"),
    placeholders: jsonb("placeholders").$type<Record<string, string>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.presentationId, t.position] })],
);

export const discussionTopics = pgTable(
  "discussion_topics",
  {
    presentationId: text("presentation_id")
      .notNull()
      .references(() => presentations.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    topic: text("topic").notNull(),
    details: text("details").notNull(),
    notes: text("notes"),
  },
  (t) => [primaryKey({ columns: [t.presentationId, t.position] })],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export type EntityFields = Record<string, string | number | boolean | null>;

export const entities = pgTable(
  "entities",
  {
    id: id(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** The record's id in the system it came from; upserts match on (workspace, type, externalId). */
    externalId: text("external_id"),
    name: text("name").notNull(),
    fields: jsonb("fields").$type<EntityFields>().notNull().default({}),
    body: text("body").notNull().default(""),
    /** Ids of linked entities in the same workspace (contact → account, note → anything). */
    links: text("links").array().notNull().default(sql`'{}'::text[]`),
    // Stored as real[] so the schema is the same with or without pgvector; where pgvector exists an
    // HNSW index over embedding::vector(dims) serves the nearest-neighbour search.
    embedding: real("embedding").array(),
    embeddingModel: text("embedding_model"),
    embeddingDims: integer("embedding_dims"),
    // Weighted so a match in the name counts most, then fields, then the free text.
    search: tsvector("search")
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english'::regconfig, coalesce(name, '')), 'A') || setweight(jsonb_to_tsvector('english'::regconfig, fields, '["string", "numeric"]'::jsonb), 'B') || setweight(to_tsvector('english'::regconfig, coalesce(body, '')), 'C')`,
      ),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("entities_external_idx").on(t.workspaceId, t.type, t.externalId),
    index("entities_workspace_type_idx").on(
      t.workspaceId,
      t.type,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("entities_search_idx").using("gin", t.search),
    // "Everything linked to this account": contacts, opportunities and notes point at it.
    index("entities_links_idx").using("gin", t.links),
  ],
);

/**
 * What happened to a presentation, in order: the progress stream (SSE) reads it, resuming from
 * any event id, and webhooks are delivered from it. Appended after the change it reports commits.
 */
export const presentationEvents = pgTable(
  "presentation_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    presentationId: text("presentation_id").notNull(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("presentation_events_presentation_idx").on(t.presentationId, t.id),
    index("presentation_events_created_idx").on(t.createdAt),
  ],
);

export const webhooks = pgTable(
  "webhooks",
  {
    id: id(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    description: text("description").notNull().default(""),
    /** The signing secret, encrypted with a key derived from the server's signing secret. */
    secretCiphertext: text("secret_ciphertext").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("webhooks_workspace_idx").on(t.workspaceId)],
);

export const deliveryStatuses = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: jsonb("attempts")
      .$type<{ at: string; durationMs: number; responseStatus?: number; error?: string }[]>()
      .notNull()
      .default([]),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt.desc().nullsFirst()),
    check("webhook_deliveries_status_check", oneOf("status", deliveryStatuses)),
  ],
);

/** Stored answers of requests sent with an Idempotency-Key, replayed for 24 hours. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    /** False while the first request runs; a crashed one is taken over after lockedUntil. */
    done: boolean("done").notNull().default(false),
    lockedUntil: timestamp("locked_until", { withTimezone: true }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

/**
 * The OAuth authorization server's state (clients, grants, codes, tokens, sessions,
 * interactions), one row per record, written only through oauth-adapter.ts. Rows are found by the
 * SHA-256 of their id, so a copy of this table holds no usable token.
 */
export const oauthRecords = pgTable(
  "oauth_records",
  {
    kind: text("kind").notNull(),
    idHash: text("id_hash").notNull(),
    /** The grant a code or token belongs to (a Grant's own id on its row), to revoke them together. */
    grantId: text("grant_id"),
    /** A Session's uid (not a secret: it names the session in interactions). */
    uid: text("uid"),
    /** For Grants: whose grant and to which client, for Account → Connected apps. */
    accountId: text("account_id"),
    clientId: text("client_id"),
    /** For Grants: the workspaces the user chose on the consent page; written only by consent. */
    workspaceIds: text("workspace_ids").array(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.idHash] }),
    index("oauth_records_grant_idx").on(t.grantId),
    index("oauth_records_uid_idx").on(t.uid),
    index("oauth_records_account_idx").on(t.accountId),
    index("oauth_records_expires_idx").on(t.expiresAt),
  ],
);
