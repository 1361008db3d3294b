import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { idempotencyKeys } from "../storage/schema.ts";

// SQL only: stored answers to requests sent with an Idempotency-Key, per workspace and caller.

export const REPLAY_HOURS = 24;

export type StoredAnswer = { status: number; body: string; headers: Record<string, string> };

export type KeyState =
  | { state: "claimed" }
  | { state: "in_flight" }
  | { state: "other_request" }
  | { state: "done"; answer: StoredAnswer };

export function createIdempotencyRepository(db: Db) {
  const scope = (workspaceId: string, userId: string, key: string) =>
    and(
      eq(idempotencyKeys.workspaceId, workspaceId),
      eq(idempotencyKeys.userId, userId),
      eq(idempotencyKeys.key, key),
    );
  const lockEnd = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;
  const expired = sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${REPLAY_HOURS})`;

  return {
    /**
     * Claims the key for this request, or says why not. An expired key, or one whose first
     * request died without answering (its lock ran out), is claimed afresh.
     */
    async claim(
      workspaceId: string,
      userId: string,
      key: string,
      requestHash: string,
      lockMs: number,
    ): Promise<KeyState> {
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ workspaceId, userId, key, requestHash, lockedUntil: lockEnd(lockMs) })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length) return { state: "claimed" };
      const retaken = await db
        .update(idempotencyKeys)
        .set({
          requestHash,
          done: false,
          lockedUntil: lockEnd(lockMs),
          createdAt: sql`now()`,
          responseStatus: null,
          responseBody: null,
          responseHeaders: null,
        })
        .where(
          and(
            scope(workspaceId, userId, key),
            sql`(${expired} or (not ${idempotencyKeys.done} and ${idempotencyKeys.lockedUntil} < now() and ${idempotencyKeys.requestHash} = ${requestHash}))`,
          ),
        )
        .returning({ key: idempotencyKeys.key });
      if (retaken.length) return { state: "claimed" };
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(scope(workspaceId, userId, key));
      if (!row) return this.claim(workspaceId, userId, key, requestHash, lockMs); // deleted meanwhile
      if (row.requestHash !== requestHash) return { state: "other_request" };
      if (!row.done) return { state: "in_flight" };
      return {
        state: "done",
        answer: {
          status: row.responseStatus ?? 200,
          body: row.responseBody ?? "",
          headers: row.responseHeaders ?? {},
        },
      };
    },

    async complete(workspaceId: string, userId: string, key: string, answer: StoredAnswer): Promise<void> {
      await db
        .update(idempotencyKeys)
        .set({
          done: true,
          responseStatus: answer.status,
          responseBody: answer.body,
          responseHeaders: answer.headers,
        })
        .where(scope(workspaceId, userId, key));
    },

    /** Forgets a claim whose request failed on our side, so a retry may run. */
    async release(workspaceId: string, userId: string, key: string): Promise<void> {
      await db
        .delete(idempotencyKeys)
        .where(and(scope(workspaceId, userId, key), eq(idempotencyKeys.done, false)));
    },

    async purgeExpired(): Promise<void> {
      await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${REPLAY_HOURS})`));
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
