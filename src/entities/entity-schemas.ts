import { z } from "zod";
import { ID_PATTERN } from "../ids.ts";
import { paginationSchema } from "../pagination.ts";

// Shapes shared by REST, MCP, the importer and jobs.

export const BUILTIN_ENTITY_TYPES = ["account", "contact", "opportunity", "note", "product"] as const;

export const entityTypeSchema = z
  .string()
  .regex(
    /^[a-z_]{1,32}$/,
    "must be 1 to 32 lowercase letters or underscores (account, contact, opportunity, note, product, or your own)",
  )
  .describe("account, contact, opportunity, note, product, or a custom type matching [a-z_]{1,32}");

const scalar = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

export const entityLinkSchema = z
  .union([
    z.object({ id: z.string().regex(ID_PATTERN, "must be 24 hexadecimal characters") }).strict(),
    z.object({ type: entityTypeSchema, externalId: z.string().min(1).max(200) }).strict(),
  ])
  .describe(
    "Another entity of the workspace, by id or by type and externalId (which may be in the same batch)",
  );

export const entityInputSchema = z
  .object({
    type: entityTypeSchema,
    externalId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Its id in the source system; upserts match on type + externalId"),
    name: z.string().trim().min(1, "is required").max(500),
    fields: z
      .record(z.string().min(1).max(100), scalar, {
        message: "must be an object of strings, numbers, booleans or null",
      })
      .refine((f) => Object.keys(f).length <= 100, "at most 100 fields")
      .default({}),
    body: z.string().max(100_000).default("").describe("Free text such as meeting notes or an email"),
    links: z.array(entityLinkSchema).max(100).default([]),
  })
  .strict();
export type EntityInput = z.output<typeof entityInputSchema>;

export const upsertEntitiesSchema = z
  .object({
    entities: z
      .array(entityInputSchema)
      .min(1, "send at least one entity")
      .max(1000, "at most 1000 entities per call"),
  })
  .superRefine((batch, ctx) => {
    const seen = new Map<string, number>();
    batch.entities.forEach((e, i) => {
      if (!e.externalId) return;
      const key = `${e.type}\u0000${e.externalId}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else
        ctx.addIssue({
          code: "custom",
          path: ["entities", i, "externalId"],
          message: `duplicates entities.${first} (${e.type} ${e.externalId})`,
        });
    });
  });

export const upsertResultSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        type: z.string(),
        externalId: z.string().optional(),
        status: z.enum(["created", "updated"]),
      }),
    ),
    created: z.int(),
    updated: z.int(),
  })
  .meta({ id: "EntityUpsertResult" });

export const entitySchema = z
  .object({
    id: z.string(),
    type: z.string(),
    externalId: z.string().optional(),
    name: z.string(),
    fields: z.record(z.string(), scalar),
    body: z.string(),
    links: z.array(z.string()).describe("Ids of linked entities"),
    embeddingModel: z.string().optional().describe("The embedder that indexed it; absent until indexed"),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Entity" });
export type Entity = z.output<typeof entitySchema>;

export const entityListQuerySchema = paginationSchema.extend({ type: entityTypeSchema.optional() });

export const entityListSchema = z
  .object({ items: z.array(entitySchema), total: z.int() })
  .meta({ id: "EntityList" });

export const searchModes = ["hybrid", "semantic", "keyword"] as const;

export const searchInputSchema = z
  .object({
    query: z.string().trim().min(1, "is required").max(1000),
    types: z.array(entityTypeSchema).min(1).max(20).optional(),
    limit: z.int().min(1).max(50).default(10),
    mode: z.enum(searchModes).default("hybrid"),
  })
  .strict();
export type SearchInput = z.output<typeof searchInputSchema>;

export const searchResultSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        type: z.string(),
        name: z.string(),
        fields: z.record(z.string(), scalar),
        snippet: z.string(),
        score: z.number().describe("Relevance, higher is better; comparable within one response"),
      }),
    ),
    tookMs: z.number(),
  })
  .meta({ id: "EntitySearchResult" });
export type SearchResult = z.output<typeof searchResultSchema>;
