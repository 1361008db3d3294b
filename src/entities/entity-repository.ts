import { and, count, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { type Db, selectRows } from "../storage/db.ts";
import { type EntityFields, entities } from "../storage/schema.ts";

// SQL only; every query is filtered by workspaceId.

export type EntityRow = typeof entities.$inferSelect;
export type NewEntityRow = {
  id: string;
  type: string;
  externalId: string | null;
  name: string;
  fields: EntityFields;
  body: string;
  embedding: number[] | null;
  embeddingModel: string | null;
  embeddingDims: number | null;
};

const publicColumns = {
  id: entities.id,
  workspaceId: entities.workspaceId,
  type: entities.type,
  externalId: entities.externalId,
  name: entities.name,
  fields: entities.fields,
  body: entities.body,
  links: entities.links,
  embeddingModel: entities.embeddingModel,
  createdAt: entities.createdAt,
  updatedAt: entities.updatedAt,
};
export type EntityRecord = Pick<EntityRow, keyof typeof publicColumns>;

/** A PostgreSQL array literal, passed as one text parameter (drizzle would spread a JS array). */
export function pgArrayLiteral(values: (string | number | null)[]): string {
  const items = values.map((v) =>
    v === null
      ? "NULL"
      : typeof v === "number"
        ? String(v)
        : `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`,
  );
  return `{${items.join(",")}}`;
}

/** Vector literal for pgvector and real[] casts alike. */
const vectorLiteral = (v: ArrayLike<number>) => `[${Array.from(v, (x) => x.toFixed(6)).join(",")}]`;
/** Index and cast names come from our own embedder's name and size, never from a request. */
const safeIdentifier = (text: string) =>
  text
    .replace(/[^a-z0-9]+/gi, "_")
    .toLowerCase()
    .slice(0, 40);
/** How many matches of a full-text query are ranked at most (see keywordMatches). */
const KEYWORD_SAMPLE = 1000;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;
const vectorIndexName = (model: string, dims: number) =>
  `entities_hnsw_${safeIdentifier(model)}_${Math.trunc(dims)}`;

export function createEntityRepository(db: Db) {
  return {
    /**
     * Inserts or updates (on workspace + type + externalId); `inserted` tells which. The rows go
     * as one array per column through unnest(): one statement with nine parameters, however many
     * rows, which PostgreSQL parses far faster than thousands of separate parameters.
     */
    async upsert(
      tx: Db,
      workspaceId: string,
      rows: NewEntityRow[],
    ): Promise<{ id: string; inserted: boolean }[]> {
      if (rows.length === 0) return [];
      const column = (pick: (r: NewEntityRow) => string | number | null) => pgArrayLiteral(rows.map(pick));
      const written = await selectRows<{
        id: string;
        type: string;
        external_id: string | null;
        inserted: boolean;
      }>(
        tx,
        sql`insert into entities (id, workspace_id, type, external_id, name, fields, body, embedding, embedding_model, embedding_dims)
            select r.id, ${workspaceId}, r.type, r.external_id, r.name, r.fields::jsonb, r.body,
                   r.embedding::real[], r.embedding_model, r.embedding_dims
            from unnest(${column((r) => r.id)}::text[], ${column((r) => r.type)}::text[],
                        ${column((r) => r.externalId)}::text[], ${column((r) => r.name)}::text[],
                        ${column((r) => JSON.stringify(r.fields))}::text[], ${column((r) => r.body)}::text[],
                        ${column((r) => (r.embedding ? `{${r.embedding.join(",")}}` : null))}::text[],
                        ${column((r) => r.embeddingModel)}::text[], ${column((r) => r.embeddingDims)}::int[])
              as r(id, type, external_id, name, fields, body, embedding, embedding_model, embedding_dims)
            on conflict (workspace_id, type, external_id) do update set
              name = excluded.name, fields = excluded.fields, body = excluded.body,
              embedding = excluded.embedding, embedding_model = excluded.embedding_model,
              embedding_dims = excluded.embedding_dims, updated_at = now()
            returning id, type, external_id, (xmax = 0) as inserted`,
      );
      // RETURNING order is not promised: match each input row by its new id, or, when it
      // updated an existing entity, by type and externalId.
      const byKey = new Map(written.map((w) => [w.inserted ? w.id : `${w.type}\u0000${w.external_id}`, w]));
      return rows.map((r) => {
        const w = byKey.get(r.id) ?? byKey.get(`${r.type}\u0000${r.externalId}`);
        if (!w) throw new Error(`upsert returned no row for ${r.type} ${r.externalId ?? r.id}`);
        return { id: w.id, inserted: w.inserted };
      });
    },

    async existingIds(tx: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await tx
        .select({ id: entities.id })
        .from(entities)
        .where(and(eq(entities.workspaceId, workspaceId), inArray(entities.id, ids)));
      return new Set(rows.map((r) => r.id));
    },

    async idsByExternalId(tx: Db, workspaceId: string, refs: { type: string; externalId: string }[]) {
      const map = new Map<string, string>();
      if (refs.length === 0) return map;
      const rows = await tx
        .select({ id: entities.id, type: entities.type, externalId: entities.externalId })
        .from(entities)
        .where(
          and(
            eq(entities.workspaceId, workspaceId),
            or(...refs.map((r) => and(eq(entities.type, r.type), eq(entities.externalId, r.externalId)))),
          ),
        );
      for (const r of rows) map.set(`${r.type}\u0000${r.externalId}`, r.id);
      return map;
    },

    async setLinks(tx: Db, workspaceId: string, id: string, links: string[]): Promise<void> {
      await tx
        .update(entities)
        .set({ links })
        .where(and(eq(entities.workspaceId, workspaceId), eq(entities.id, id)));
    },

    async list(workspaceId: string, type: string | undefined, limit: number, offset: number) {
      const where = type
        ? and(eq(entities.workspaceId, workspaceId), eq(entities.type, type))
        : eq(entities.workspaceId, workspaceId);
      const [rows, [total]] = await Promise.all([
        db
          .select(publicColumns)
          .from(entities)
          .where(where)
          .orderBy(desc(entities.createdAt), desc(entities.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(entities).where(where),
      ]);
      return { rows, total: Number(total?.n ?? 0) };
    },

    async get(workspaceId: string, id: string): Promise<EntityRecord | undefined> {
      const [row] = await db
        .select(publicColumns)
        .from(entities)
        .where(and(eq(entities.workspaceId, workspaceId), eq(entities.id, id)));
      return row;
    },

    async getMany(workspaceId: string, ids: string[]): Promise<EntityRecord[]> {
      if (ids.length === 0) return [];
      return db
        .select(publicColumns)
        .from(entities)
        .where(and(eq(entities.workspaceId, workspaceId), inArray(entities.id, ids)));
    },

    /** Entities that link to this one (contacts, opportunities and notes of an account), newest first. */
    async linkedTo(workspaceId: string, id: string, types?: string[], limit = 500): Promise<EntityRecord[]> {
      return db
        .select(publicColumns)
        .from(entities)
        .where(
          and(
            eq(entities.workspaceId, workspaceId),
            sql`${entities.links} @> ${pgArrayLiteral([id])}::text[]`,
            types?.length ? inArray(entities.type, types) : undefined,
          ),
        )
        .orderBy(desc(entities.createdAt), desc(entities.id))
        .limit(limit);
    },

    /** Every entity of a type, up to a limit, in a stable order (for workspace-wide decks). */
    async ofType(workspaceId: string, type: string, limit = 5_000): Promise<EntityRecord[]> {
      return db
        .select(publicColumns)
        .from(entities)
        .where(and(eq(entities.workspaceId, workspaceId), eq(entities.type, type)))
        .orderBy(entities.id)
        .limit(limit);
    },

    /** Deletes an entity and the links that point at it, in one transaction. */
    async delete(workspaceId: string, id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const deleted = await tx
          .delete(entities)
          .where(and(eq(entities.workspaceId, workspaceId), eq(entities.id, id)))
          .returning({ id: entities.id });
        if (deleted.length === 0) return false;
        await tx
          .update(entities)
          .set({ links: sql`array_remove(${entities.links}, ${id})` })
          .where(and(eq(entities.workspaceId, workspaceId), sql`${id} = any(${entities.links})`));
        return true;
      });
    },

    /**
     * Nearest neighbours by cosine similarity through the HNSW index (pgvector). Iterative scans
     * in relaxed order may emit neighbours slightly out of order, so twice as many are taken and
     * sorted again by exact distance.
     */
    async nearestByIndex(
      workspaceId: string,
      model: string,
      dims: number,
      query: Float32Array,
      types: string[] | undefined,
      k: number,
    ) {
      const cast = sql.raw(`vector(${Math.trunc(dims)})`);
      const modelLiteral = sql.raw(quoteLiteral(model)); // literal, so the partial index applies
      const q = vectorLiteral(query);
      return selectRows<{ id: string; similarity: number }>(
        db,
        sql`with candidates as materialized (
              select id, embedding::${cast} <=> ${q}::${cast} as distance
              from entities
              where embedding_model = ${modelLiteral} and workspace_id = ${workspaceId}
                ${types ? sql`and type in ${types}` : sql``}
              order by embedding::${cast} <=> ${q}::${cast}
              limit ${k * 2})
            select id, 1 - distance as similarity from candidates order by distance limit ${k}`,
      );
    },

    /** Every vector of the workspace, for exact scoring where pgvector is missing. */
    async allVectors(workspaceId: string, model: string, types: string[] | undefined) {
      return db
        .select({ id: entities.id, embedding: entities.embedding })
        .from(entities)
        .where(
          and(
            eq(entities.workspaceId, workspaceId),
            eq(entities.embeddingModel, model),
            types ? inArray(entities.type, types) : undefined,
          ),
        );
    },

    /**
     * Full-text matches, weighted name > fields > body. Entities with every word come first, then
     * entities with any word. Each list is ranked within a bounded sample of its matches, so a
     * query of common words costs the same in a workspace of a thousand entities or a million.
     */
    async keywordMatches(workspaceId: string, words: string[], types: string[] | undefined, k: number) {
      const typeFilter = types ? sql`and type in ${types}` : sql``;
      const ranked = (tsquery: string, exclude: string[], limit: number, weight: number) =>
        selectRows<{ id: string; rank: number }>(
          db,
          sql`select id, ts_rank(search, q) * ${weight} as rank
              from (select id, search from entities
                    where workspace_id = ${workspaceId} and search @@ to_tsquery('english', ${tsquery})
                      ${typeFilter} ${exclude.length ? sql`and id not in ${exclude}` : sql``}
                    limit ${KEYWORD_SAMPLE}) m,
                   to_tsquery('english', ${tsquery}) q
              order by rank desc, id limit ${limit}`,
        );
      const every = await ranked(words.join(" & "), [], k, 1);
      if (every.length >= k || words.length < 2) return every;
      const any = await ranked(
        words.join(" | "),
        every.map((r) => r.id),
        k - every.length,
        0.1,
      );
      return [...every, ...any];
    },

    /** Creates the HNSW index for an embedder if it is missing (a no-op when it exists). */
    async ensureVectorIndex(model: string, dims: number): Promise<void> {
      const name = vectorIndexName(model, dims);
      await db.transaction(async (tx) => {
        // The build is several times faster when the graph fits in maintenance memory.
        await tx.execute(sql.raw("set local maintenance_work_mem = '512MB'"));
        await tx.execute(
          sql.raw(
            `create index if not exists ${name} on entities using hnsw ((embedding::vector(${Math.trunc(dims)})) vector_cosine_ops) where embedding_model = ${quoteLiteral(model)}`,
          ),
        );
      });
    },

    async dropVectorIndex(model: string, dims: number): Promise<void> {
      await db.execute(sql.raw(`drop index if exists ${vectorIndexName(model, dims)}`));
    },

    /** A batch of entities not yet embedded by `model` (any workspace), for re-indexing. */
    async needingEmbedding(model: string, limit: number) {
      return db
        .select({
          id: entities.id,
          type: entities.type,
          name: entities.name,
          fields: entities.fields,
          body: entities.body,
        })
        .from(entities)
        .where(or(isNull(entities.embeddingModel), ne(entities.embeddingModel, model)))
        .limit(limit);
    },

    async countEmbedded(model: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(entities).where(eq(entities.embeddingModel, model));
      return Number(row?.n ?? 0);
    },

    async countNeedingEmbedding(model: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(entities)
        .where(or(isNull(entities.embeddingModel), ne(entities.embeddingModel, model)));
      return Number(row?.n ?? 0);
    },

    async setEmbedding(
      id: string,
      embedding: number[] | null,
      model: string,
      dims: number,
      tx: Db = db,
    ): Promise<void> {
      await tx
        .update(entities)
        .set({ embedding, embeddingModel: model, embeddingDims: dims })
        .where(eq(entities.id, id));
    },
  };
}

export type EntityRepository = ReturnType<typeof createEntityRepository>;
