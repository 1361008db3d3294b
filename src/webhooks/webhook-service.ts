import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { Actor } from "../auth/actor.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { notFound, parseInput } from "../errors.ts";
import { type StoredEvent, type WebhookEventType, webhookEventTypes } from "../events/event-types.ts";
import type { Queue } from "../jobs/queue.ts";
import type { PresentationService } from "../presentations/presentation-service.ts";
import { requireRole } from "../workspaces/workspace-service.ts";
import { checkTargetUrl } from "./url-guard.ts";
import type { DeliveryRow, WebhookRepository, WebhookRow } from "./webhook-repository.ts";
import { createWebhookSchema, deliveryQuerySchema, webhookIdSchema } from "./webhook-schemas.ts";

// Webhooks: a workspace's admins register endpoints for events; every event becomes one delivery
// per subscribed endpoint, sent by a job signed per the Standard Webhooks spec, retried with
// exponential backoff, each attempt recorded.

export const DELIVER_QUEUE = "deliver-webhook";

export type WebhookSettings = {
  allowPrivate: boolean;
  /** One attempt at most. */
  timeoutMs: number;
  /** Before the first retry; doubled for each one after. */
  retryDelaySeconds: number;
  maxAttempts: number;
};

type Deps = {
  repo: WebhookRepository;
  box: SecretBox;
  queue: Pick<Queue, "send">;
  presentations: PresentationService;
  /** The workspace, as the server acts in it (to describe the presentation in a payload). */
  operatorActor(workspaceId: string): Promise<Actor>;
  settings: WebhookSettings;
  log: { warn(obj: object, msg: string): void };
};

const toWebhook = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  events: row.events as WebhookEventType[],
  description: row.description,
  createdAt: row.createdAt.toISOString(),
});

const toDelivery = (row: DeliveryRow) => ({
  id: row.id,
  eventType: row.eventType as WebhookEventType,
  status: row.status,
  attempts: row.attempts,
  payload: row.payload,
  createdAt: row.createdAt.toISOString(),
});

const isWebhookEvent = (type: string): type is WebhookEventType =>
  (webhookEventTypes as readonly string[]).includes(type);

export function createWebhookService(deps: Deps) {
  const { repo, settings } = deps;

  async function owned(actor: Actor, id: string) {
    const valid = webhookIdSchema.safeParse(id);
    const row = valid.success ? await repo.get(actor.workspaceId, id.toLowerCase()) : undefined;
    if (!row) throw notFound(`Webhook ${id}`);
    return row;
  }

  async function enqueue(deliveryId: string) {
    await deps.queue.send(
      DELIVER_QUEUE,
      { deliveryId },
      {
        retryLimit: settings.maxAttempts - 1,
        retryDelaySeconds: settings.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: Math.ceil(settings.timeoutMs / 1000) + 60,
      },
    );
  }

  return {
    async create(actor: Actor, input: unknown) {
      requireRole(actor, "admin", "manage webhooks");
      const hook = parseInput(createWebhookSchema, input ?? {});
      const url = await checkTargetUrl(hook.url, { allowPrivate: settings.allowPrivate });
      const secret = `whsec_${randomBytes(32).toString("base64")}`;
      const row = await repo.create(actor.workspaceId, {
        url: url.toString(),
        events: hook.events,
        description: hook.description,
        secretCiphertext: deps.box.seal(secret),
        createdBy: actor.userId,
      });
      return { ...toWebhook(row), secret };
    },

    async list(actor: Actor) {
      requireRole(actor, "admin", "manage webhooks");
      return (await repo.list(actor.workspaceId)).map(toWebhook);
    },

    async delete(actor: Actor, id: string): Promise<void> {
      requireRole(actor, "admin", "manage webhooks");
      await owned(actor, id);
      await repo.delete(actor.workspaceId, id.toLowerCase());
    },

    async deliveries(actor: Actor, id: string, query: unknown) {
      requireRole(actor, "admin", "manage webhooks");
      const hook = await owned(actor, id);
      const { limit, offset } = parseInput(deliveryQuerySchema, query ?? {});
      const { rows, total } = await repo.deliveries(actor.workspaceId, hook.id, limit, offset);
      return { items: rows.map(toDelivery), total };
    },

    /** One delivery per subscribed webhook for an event; the bus calls this after every publish. */
    async dispatch(event: StoredEvent): Promise<void> {
      if (!isWebhookEvent(event.type)) return;
      const hooks = await repo.subscribedTo(event.workspaceId, event.type);
      if (hooks.length === 0) return;
      const deck = await deps.presentations.get(
        await deps.operatorActor(event.workspaceId),
        event.presentationId,
      );
      const presentation = {
        id: deck.id,
        name: deck.name,
        status: deck.status,
        summary: deck.summary,
        slideCount: deck.slideCount,
        createdAt: deck.createdAt,
        templateName: deck.templateName,
        themeName: deck.themeName,
      };
      const payload = {
        type: event.type,
        timestamp: event.createdAt.toISOString(),
        workspaceId: event.workspaceId,
        data: { presentation, ...event.data },
      };
      const created = await repo.createDeliveries(
        hooks.map((h) => ({
          webhookId: h.id,
          workspaceId: event.workspaceId,
          eventType: event.type,
          payload,
        })),
      );
      for (const d of created) await enqueue(d.id);
    },

    /** The job: one attempt. Throws to be retried; the last attempt marks the delivery failed. */
    async deliver(deliveryId: string): Promise<void> {
      const found = await repo.delivery(deliveryId);
      if (found?.delivery.status !== "pending") return;
      const { delivery, webhook } = found;
      const body = JSON.stringify(delivery.payload);
      const started = performance.now();
      const at = new Date();
      let responseStatus: number | undefined;
      let error: string | undefined;
      try {
        const url = await checkTargetUrl(webhook.url, { allowPrivate: settings.allowPrivate });
        const signature = new Webhook(deps.box.open(webhook.secretCiphertext)).sign(delivery.id, at, body);
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "Decksmith-Webhooks/1.0",
            "webhook-id": delivery.id,
            "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
            "webhook-signature": signature,
          },
          body,
          redirect: "manual", // a redirect could point anywhere, past the address check
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        responseStatus = res.status;
        await res.body?.cancel().catch(() => {});
        if (res.status < 200 || res.status >= 300) error = `answered ${res.status}`;
      } catch (err) {
        const e = err as Error;
        error =
          e.name === "TimeoutError"
            ? `no answer within ${Math.round(settings.timeoutMs / 1000)} s`
            : e.message.slice(0, 300);
      }
      const attempt = {
        at: at.toISOString(),
        durationMs: Math.round(performance.now() - started),
        ...(responseStatus ? { responseStatus } : {}),
        ...(error ? { error } : {}),
      };
      const last = delivery.attempts.length + 1 >= settings.maxAttempts;
      await repo.recordAttempt(delivery.id, attempt, error ? (last ? "failed" : "pending") : "succeeded");
      if (error && !last) throw new Error(`webhook delivery ${delivery.id}: ${error}`);
      if (error)
        deps.log.warn(
          { deliveryId: delivery.id, attempts: settings.maxAttempts },
          "webhook delivery failed for good",
        );
    },

    /** Queues again deliveries whose job was lost (the sweeper calls this). */
    async requeueStalled(olderThanMs: number): Promise<number> {
      const stalled = await repo.stalled(olderThanMs);
      for (const d of stalled) {
        await repo.touch(d.id);
        await enqueue(d.id);
      }
      return stalled.length;
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
