import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { presentationEvents } from "../storage/schema.ts";
import type { PresentationEvent, StoredEvent } from "./event-types.ts";

// SQL only: the append-only event log of presentations.

export function createEventRepository(db: Db) {
  return {
    async append(
      workspaceId: string,
      presentationId: string,
      event: PresentationEvent,
    ): Promise<StoredEvent> {
      const [row] = await db
        .insert(presentationEvents)
        .values({ workspaceId, presentationId, type: event.type, data: event.data })
        .returning();
      if (!row) throw new Error("insert returned no row");
      return row as StoredEvent;
    },

    /** A presentation's events after an id, oldest first. */
    async after(
      workspaceId: string,
      presentationId: string,
      afterId: number,
      limit = 500,
    ): Promise<StoredEvent[]> {
      const rows = await db
        .select()
        .from(presentationEvents)
        .where(
          and(
            eq(presentationEvents.workspaceId, workspaceId),
            eq(presentationEvents.presentationId, presentationId),
            gt(presentationEvents.id, afterId),
          ),
        )
        .orderBy(asc(presentationEvents.id))
        .limit(limit);
      return rows as StoredEvent[];
    },

    /** Forgets events older than the retention: progress that nobody will resume from. */
    async prune(olderThanDays: number): Promise<number> {
      const rows = await db
        .delete(presentationEvents)
        .where(lt(presentationEvents.createdAt, sql`now() - make_interval(days => ${olderThanDays})`))
        .returning({ id: presentationEvents.id });
      return rows.length;
    },
  };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
