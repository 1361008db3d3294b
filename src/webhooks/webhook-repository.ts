import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import { newId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import { webhookDeliveries, webhooks } from "../storage/schema.ts";

// SQL only; every query is filtered by workspaceId, except the delivery job's own lookups by
// delivery id and the sweeper's scan, which act for the server, not for a caller.

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type Attempt = DeliveryRow["attempts"][number];

export function createWebhookRepository(db: Db) {
  return {
    async create(
      workspaceId: string,
      hook: {
        url: string;
        events: string[];
        description: string;
        secretCiphertext: string;
        createdBy: string;
      },
    ) {
      const [row] = await db
        .insert(webhooks)
        .values({ id: newId(), workspaceId, ...hook })
        .returning();
      if (!row) throw new Error("insert returned no row");
      return row;
    },

    list: (workspaceId: string) =>
      db
        .select()
        .from(webhooks)
        .where(eq(webhooks.workspaceId, workspaceId))
        .orderBy(desc(webhooks.createdAt)),

    async get(workspaceId: string, id: string): Promise<WebhookRow | undefined> {
      const [row] = await db
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)));
      return row;
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(webhooks)
        .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
        .returning({ id: webhooks.id });
      return rows.length > 0;
    },

    /** The workspace's webhooks subscribed to an event type. */
    subscribedTo: (workspaceId: string, eventType: string) =>
      db
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.workspaceId, workspaceId), sql`${eventType} = any(${webhooks.events})`)),

    /** One delivery per webhook, in one transaction. */
    async createDeliveries(
      rows: { webhookId: string; workspaceId: string; eventType: string; payload: Record<string, unknown> }[],
    ) {
      if (rows.length === 0) return [];
      return db
        .insert(webhookDeliveries)
        .values(rows.map((r) => ({ id: newId(), ...r })))
        .returning({ id: webhookDeliveries.id });
    },

    async delivery(id: string): Promise<{ delivery: DeliveryRow; webhook: WebhookRow } | undefined> {
      const [row] = await db
        .select({ delivery: webhookDeliveries, webhook: webhooks })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(eq(webhookDeliveries.id, id));
      return row;
    },

    /** Appends an attempt and sets the status, atomically (attempts || new one). */
    async recordAttempt(id: string, attempt: Attempt, status: DeliveryRow["status"]) {
      await db
        .update(webhookDeliveries)
        .set({
          attempts: sql`${webhookDeliveries.attempts} || ${JSON.stringify([attempt])}::jsonb`,
          status,
          updatedAt: sql`now()`,
        })
        .where(eq(webhookDeliveries.id, id));
    },

    async deliveries(workspaceId: string, webhookId: string, limit: number, offset: number) {
      const where = and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.webhookId, webhookId),
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(webhookDeliveries)
          .where(where)
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(webhookDeliveries).where(where),
      ]);
      return { rows, total: Number(total?.n ?? 0) };
    },

    /** Deliveries created but never attempted for a while: their job was lost (a crash between commit and queueing). */
    async stalled(olderThanMs: number, limit = 100) {
      return db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.status, "pending"),
            sql`jsonb_array_length(${webhookDeliveries.attempts}) = 0`,
            lt(webhookDeliveries.updatedAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
          ),
        )
        .limit(limit);
    },

    async touch(id: string) {
      await db.update(webhookDeliveries).set({ updatedAt: sql`now()` }).where(eq(webhookDeliveries.id, id));
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
