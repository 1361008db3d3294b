import type { Actor } from "../auth/actor.ts";
import { AppError, type ErrorDetail, notFound, parseInput } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import type { EntityFields } from "../storage/schema.ts";
import { requireRole } from "../workspaces/workspace-service.ts";
import { cosine, type Embedder } from "./embedder.ts";
import type { EntityRecord, EntityRepository } from "./entity-repository.ts";
import {
  type Entity,
  type EntityInput,
  entityListQuerySchema,
  type SearchResult,
  searchInputSchema,
  upsertEntitiesSchema,
} from "./entity-schemas.ts";
import { queryWords, reciprocalRankFusion, snippetFor } from "./fusion.ts";

/** The text an entity is embedded from: its name, its text field values, and its body. */
export function entityText(e: { type: string; name: string; fields: EntityFields; body: string }): string {
  const values = Object.values(e.fields).filter((v): v is string => typeof v === "string");
  return [e.name, ...values, e.body.slice(0, 4000)].join(". ");
}

const extKey = (type: string, externalId: string) => `${type}\u0000${externalId}`;

function toEntity(r: EntityRecord): Entity {
  return {
    id: r.id,
    type: r.type,
    externalId: r.externalId ?? undefined,
    name: r.name,
    fields: r.fields,
    body: r.body,
    links: r.links,
    embeddingModel: r.embeddingModel ?? undefined,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** How many candidates each ranked list contributes before fusion. */
const CANDIDATES = 50;

export function createEntityService(deps: {
  db: Db;
  entities: EntityRepository;
  embedder: Embedder;
  vectorIndex: boolean;
}) {
  const { db, entities: repo, embedder } = deps;

  async function semanticIds(workspaceId: string, query: string, types: string[] | undefined, k: number) {
    const [vector] = await embedder.embed([query]);
    if (!vector) return [];
    if (deps.vectorIndex) {
      const rows = await repo.nearestByIndex(workspaceId, embedder.model, embedder.dims, vector, types, k);
      return rows.map((r) => ({ id: r.id, score: Number(r.similarity) }));
    }
    // Exact scoring where pgvector is missing: every vector of the workspace, scored here.
    const rows = await repo.allVectors(workspaceId, embedder.model, types);
    return rows
      .filter((r) => r.embedding)
      .map((r) => ({ id: r.id, score: cosine(vector, r.embedding as number[]) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }

  return {
    embedder,

    /**
     * Runs a load of `rows` entities, with the vector index dropped and rebuilt once at the end
     * (even on failure) when that is cheaper: measured on PGlite, inserting into HNSW costs ~1 ms a
     * row, a build ~0.17 ms a row of the whole table, so rebuilding pays once a load adds more
     * than a fifth of what is indexed.
     */
    async bulkLoad<T>(rows: number, load: () => Promise<T>): Promise<T> {
      if (!deps.vectorIndex || rows < 1000 || rows < (await repo.countEmbedded(embedder.model)) / 5)
        return load();
      await repo.dropVectorIndex(embedder.model, embedder.dims);
      try {
        return await load();
      } finally {
        await repo.ensureVectorIndex(embedder.model, embedder.dims);
      }
    },

    /** Creates or updates 1–1000 entities, all or nothing. */
    async upsert(actor: Actor, input: unknown) {
      requireRole(actor, "editor", "write entities");
      const batch = parseInput(upsertEntitiesSchema, input).entities;
      const vectors = await embedder.embed(batch.map(entityText));
      const result = await db.transaction(async (tx) => {
        const written = await repo.upsert(
          tx,
          actor.workspaceId,
          batch.map((e, i) => {
            const v = vectors[i];
            return {
              id: newId(),
              type: e.type,
              externalId: e.externalId ?? null,
              name: e.name,
              fields: e.fields,
              body: e.body,
              embedding: v ? Array.from(v) : null,
              embeddingModel: embedder.model,
              embeddingDims: embedder.dims,
            };
          }),
        );
        await resolveAndSetLinks(
          tx,
          actor.workspaceId,
          batch,
          written.map((w) => w.id),
        );
        return written;
      });
      const items = result.map((w, i) => {
        const e = batch[i] as EntityInput;
        return {
          id: w.id,
          type: e.type,
          externalId: e.externalId,
          status: w.inserted ? ("created" as const) : ("updated" as const),
        };
      });
      const created = items.filter((i) => i.status === "created").length;
      return { items, created, updated: items.length - created };
    },

    async list(actor: Actor, query: unknown) {
      const q = parseInput(entityListQuerySchema, query);
      const { rows, total } = await repo.list(actor.workspaceId, q.type, q.limit, q.offset);
      return { items: rows.map(toEntity), total };
    },

    async get(actor: Actor, id: string): Promise<Entity> {
      const row = await repo.get(actor.workspaceId, id.toLowerCase());
      if (!row) throw notFound(`Entity ${id}`);
      return toEntity(row);
    },

    async delete(actor: Actor, id: string): Promise<void> {
      requireRole(actor, "editor", "delete entities");
      if (!(await repo.delete(actor.workspaceId, id.toLowerCase()))) throw notFound(`Entity ${id}`);
    },

    async search(actor: Actor, input: unknown): Promise<SearchResult> {
      const started = performance.now();
      const { query, types, limit, mode } = parseInput(searchInputSchema, input);
      const k = Math.max(CANDIDATES, limit);
      const words = queryWords(query);
      const [semantic, keyword] = await Promise.all([
        mode === "keyword" ? [] : semanticIds(actor.workspaceId, query, types, k),
        mode === "semantic" || words.length === 0
          ? []
          : repo.keywordMatches(actor.workspaceId, words, types, k),
      ]);
      const ranked =
        mode === "semantic"
          ? semantic
          : mode === "keyword"
            ? keyword.map((r) => ({ id: r.id, score: Number(r.rank) }))
            : reciprocalRankFusion([semantic.map((r) => r.id), keyword.map((r) => r.id)]);
      const top = ranked.slice(0, limit);
      const rows = new Map(
        (
          await repo.getMany(
            actor.workspaceId,
            top.map((t) => t.id),
          )
        ).map((r) => [r.id, r]),
      );
      const items = top.flatMap((t) => {
        const r = rows.get(t.id);
        if (!r) return [];
        return [
          {
            id: r.id,
            type: r.type,
            name: r.name,
            fields: r.fields,
            snippet: snippetFor(r.body, query),
            score: Number(t.score.toFixed(6)),
          },
        ];
      });
      return { items, tookMs: Math.round((performance.now() - started) * 10) / 10 };
    },
  };

  /** Turns each entity's links (ids, or type + externalId in the batch or the workspace) into ids. */
  async function resolveAndSetLinks(tx: Db, workspaceId: string, batch: EntityInput[], ids: string[]) {
    if (!batch.some((e) => e.links.length > 0)) return;
    const inBatch = new Map<string, string>();
    batch.forEach((e, i) => {
      if (e.externalId) inBatch.set(extKey(e.type, e.externalId), ids[i] as string);
    });
    const byId = batch.flatMap((e) => e.links.flatMap((l) => ("id" in l ? [l.id.toLowerCase()] : [])));
    const byExt = batch.flatMap((e) =>
      e.links.flatMap((l) => ("externalId" in l && !inBatch.has(extKey(l.type, l.externalId)) ? [l] : [])),
    );
    const [existing, external] = await Promise.all([
      repo.existingIds(tx, workspaceId, [...new Set(byId)]),
      repo.idsByExternalId(tx, workspaceId, byExt),
    ]);
    const problems: ErrorDetail[] = [];
    for (const [i, e] of batch.entries()) {
      if (e.links.length === 0) continue;
      const resolved = e.links.map((l, j) => {
        const id =
          "id" in l
            ? existing.has(l.id.toLowerCase())
              ? l.id.toLowerCase()
              : undefined
            : (inBatch.get(extKey(l.type, l.externalId)) ?? external.get(extKey(l.type, l.externalId)));
        if (!id) {
          const what = "id" in l ? `entity ${l.id}` : `${l.type} with externalId ${l.externalId}`;
          problems.push({
            path: `entities.${i}.links.${j}`,
            message: `${what} is not in this workspace or this batch`,
          });
        }
        return id;
      });
      if (problems.length === 0)
        await repo.setLinks(tx, workspaceId, ids[i] as string, [...new Set(resolved as string[])]);
    }
    if (problems.length > 0) {
      // Thrown inside the transaction: nothing of the batch is written.
      throw new AppError(
        "invalid_request",
        `Unknown link targets: ${problems.map((p) => p.path).join(", ")}`,
        problems,
      );
    }
  }
}

export type EntityService = ReturnType<typeof createEntityService>;
