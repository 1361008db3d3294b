import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { newId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import type { ReadCache } from "../storage/read-cache.ts";
import {
  type DeckSnapshot,
  discussionTopics,
  type GenerationRequest,
  presentationRevisions,
  presentations,
  type RevisionKind,
  slides,
} from "../storage/schema.ts";

// SQL for a deck's life after it is asked for: generation leases, revisions, stop and failure.
// Every write that belongs together (slides, topics, the deck row, the revision) is one
// transaction, guarded by a condition that makes it apply exactly once: the lease a worker holds,
// or the revision an edit started from. Workspace-scoped like every query, except the sweeper's
// scan, which is the operator's view across workspaces.

export type Claim = {
  id: string;
  workspaceId: string;
  token: string;
  attempts: number;
  createdBy: string | null;
  generation: GenerationRequest;
};

export type RevisionInfo = {
  number: number;
  kind: RevisionKind;
  instructions: string | null;
  changes: string[];
  createdBy: string | null;
  createdAt: Date;
};

/** What a commit must find: the worker's lease on a generating deck, or the revision an edit read. */
export type CommitGuard = { leaseToken: string } | { revision: number };

export function createLifecycleRepository(db: Db, reads: Pick<ReadCache<unknown>, "clear">) {
  const after = <T>(value: T) => {
    reads.clear();
    return value;
  };
  const leaseEnd = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;

  return {
    /** A new deck in `generating`, with what was asked for. */
    async createGenerating(
      workspaceId: string,
      deck: { name: string; createdBy: string; generation: GenerationRequest },
    ): Promise<{ id: string; createdAt: Date }> {
      const [row] = await db
        .insert(presentations)
        .values({
          id: newId(),
          workspaceId,
          name: deck.name,
          status: "generating",
          templateId: deck.generation.templateId,
          themeId: deck.generation.themeId,
          createdBy: deck.createdBy,
          generation: deck.generation,
        })
        .returning({ id: presentations.id, createdAt: presentations.createdAt });
      if (!row) throw new Error("insert returned no row");
      return after(row);
    },

    /** Takes the generation of a deck unless a live lease holds it or it is no longer generating. */
    async claim(id: string, leaseMs: number): Promise<Claim | undefined> {
      const token = newId();
      const [row] = await db
        .update(presentations)
        .set({
          leaseToken: token,
          leaseExpiresAt: leaseEnd(leaseMs),
          attempts: sql`${presentations.attempts} + 1`,
        })
        .where(
          and(
            eq(presentations.id, id),
            eq(presentations.status, "generating"),
            or(isNull(presentations.leaseExpiresAt), lt(presentations.leaseExpiresAt, sql`now()`)),
          ),
        )
        .returning({
          id: presentations.id,
          workspaceId: presentations.workspaceId,
          attempts: presentations.attempts,
          createdBy: presentations.createdBy,
          generation: presentations.generation,
        });
      return row?.generation ? { ...row, token, generation: row.generation } : undefined;
    },

    /** Extends a lease; false when the lease was lost (stopped, or taken over after expiry). */
    async renew(id: string, token: string, leaseMs: number): Promise<boolean> {
      const rows = await db
        .update(presentations)
        .set({ leaseExpiresAt: leaseEnd(leaseMs) })
        .where(
          and(
            eq(presentations.id, id),
            eq(presentations.leaseToken, token),
            eq(presentations.status, "generating"),
          ),
        )
        .returning({ id: presentations.id });
      return rows.length > 0;
    },

    /**
     * Replaces the deck's content with the snapshot and records it as the next revision, in one
     * transaction. Answers the new revision number, or undefined when the guard no longer holds
     * (the deck was stopped, taken over, or changed by someone else meanwhile).
     */
    async commit(
      workspaceId: string,
      id: string,
      guard: CommitGuard,
      revision: {
        snapshot: DeckSnapshot;
        kind: RevisionKind;
        instructions?: string;
        changes: string[];
        createdBy?: string | null;
      },
    ): Promise<number | undefined> {
      const { snapshot } = revision;
      const committed = await db.transaction(async (tx) => {
        const condition =
          "leaseToken" in guard
            ? and(eq(presentations.leaseToken, guard.leaseToken), eq(presentations.status, "generating"))
            : and(eq(presentations.revision, guard.revision), eq(presentations.status, "ready"));
        const [row] = await tx
          .update(presentations)
          .set({
            name: snapshot.name,
            summary: snapshot.summary,
            themeId: snapshot.themeId,
            slideCount: snapshot.slides.length,
            status: "ready",
            failureReason: null,
            revision: sql`${presentations.revision} + 1`,
            leaseToken: null,
            leaseExpiresAt: null,
            updatedAt: sql`clock_timestamp()`,
          })
          .where(and(eq(presentations.workspaceId, workspaceId), eq(presentations.id, id), condition))
          .returning({ revision: presentations.revision });
        if (!row) return undefined;
        await tx.delete(slides).where(eq(slides.presentationId, id));
        await tx.delete(discussionTopics).where(eq(discussionTopics.presentationId, id));
        if (snapshot.slides.length) {
          await tx.insert(slides).values(
            snapshot.slides.map((s, position) => ({
              presentationId: id,
              position,
              layoutName: s.layoutName,
              placeholders: s.placeholders,
            })),
          );
        }
        if (snapshot.topics.length) {
          await tx.insert(discussionTopics).values(
            snapshot.topics.map((t, position) => ({
              presentationId: id,
              position,
              topic: t.topic,
              details: t.details,
              notes: t.notes ?? null,
            })),
          );
        }
        await tx.insert(presentationRevisions).values({
          presentationId: id,
          number: row.revision,
          workspaceId,
          kind: revision.kind,
          instructions: revision.instructions ?? null,
          changes: revision.changes,
          snapshot,
          createdBy: revision.createdBy ?? null,
        });
        return row.revision;
      });
      return after(committed);
    },

    /** Marks a generating deck failed; with a token, only if that lease still holds it. */
    async fail(id: string, reason: string, token?: string): Promise<boolean> {
      const rows = await db
        .update(presentations)
        .set({
          status: "failed",
          failureReason: reason.slice(0, 1000),
          leaseToken: null,
          leaseExpiresAt: null,
          updatedAt: sql`clock_timestamp()`,
        })
        .where(
          and(
            eq(presentations.id, id),
            eq(presentations.status, "generating"),
            token ? eq(presentations.leaseToken, token) : undefined,
          ),
        )
        .returning({ id: presentations.id });
      return after(rows.length > 0);
    },

    /** Stops a generating deck; answers whether it was generating. */
    async stop(workspaceId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(presentations)
        .set({ status: "stopped", leaseToken: null, leaseExpiresAt: null, updatedAt: sql`clock_timestamp()` })
        .where(
          and(
            eq(presentations.workspaceId, workspaceId),
            eq(presentations.id, id),
            eq(presentations.status, "generating"),
          ),
        )
        .returning({ id: presentations.id });
      return after(rows.length > 0);
    },

    /**
     * Decks whose generation nobody is working on: the lease ran out (the worker died), or no
     * worker took the job within `unclaimedMs` of the request. With `everyLease`, every generating
     * deck counts: right after start on the embedded database, no other process can hold one.
     */
    async abandoned(options: { unclaimedMs: number; everyLease?: boolean; limit?: number }) {
      return db
        .select({
          id: presentations.id,
          workspaceId: presentations.workspaceId,
          attempts: presentations.attempts,
        })
        .from(presentations)
        .where(
          and(
            eq(presentations.status, "generating"),
            options.everyLease
              ? undefined
              : or(
                  lt(presentations.leaseExpiresAt, sql`now()`),
                  and(
                    isNull(presentations.leaseExpiresAt),
                    lt(
                      presentations.updatedAt,
                      sql`now() - make_interval(secs => ${options.unclaimedMs / 1000})`,
                    ),
                  ),
                ),
          ),
        )
        .orderBy(asc(presentations.updatedAt))
        .limit(options.limit ?? 100);
    },

    /** Forgets a dead worker's lease so the deck can be claimed again. */
    async releaseLease(id: string): Promise<void> {
      await db
        .update(presentations)
        .set({ leaseToken: null, leaseExpiresAt: null, updatedAt: sql`clock_timestamp()` })
        .where(and(eq(presentations.id, id), eq(presentations.status, "generating")));
    },

    /** What the deck was generated from, if it was generated. */
    async generationRequest(workspaceId: string, id: string): Promise<GenerationRequest | undefined> {
      const [row] = await db
        .select({ generation: presentations.generation })
        .from(presentations)
        .where(and(eq(presentations.workspaceId, workspaceId), eq(presentations.id, id)));
      return row?.generation ?? undefined;
    },

    async revisions(workspaceId: string, id: string): Promise<RevisionInfo[]> {
      return db
        .select({
          number: presentationRevisions.number,
          kind: presentationRevisions.kind,
          instructions: presentationRevisions.instructions,
          changes: presentationRevisions.changes,
          createdBy: presentationRevisions.createdBy,
          createdAt: presentationRevisions.createdAt,
        })
        .from(presentationRevisions)
        .where(
          and(
            eq(presentationRevisions.workspaceId, workspaceId),
            eq(presentationRevisions.presentationId, id),
          ),
        )
        .orderBy(asc(presentationRevisions.number));
    },

    async revisionSnapshot(workspaceId: string, id: string, n: number): Promise<DeckSnapshot | undefined> {
      const [row] = await db
        .select({ snapshot: presentationRevisions.snapshot })
        .from(presentationRevisions)
        .where(
          and(
            eq(presentationRevisions.workspaceId, workspaceId),
            eq(presentationRevisions.presentationId, id),
            eq(presentationRevisions.number, n),
          ),
        );
      return row?.snapshot;
    },
  };
}

export type LifecycleRepository = ReturnType<typeof createLifecycleRepository>;
