import { z } from "zod";
import { webhookEventTypes } from "../events/event-types.ts";
import { ID_PATTERN } from "../ids.ts";
import { paginationSchema } from "../pagination.ts";

export const webhookIdSchema = z.string().regex(ID_PATTERN, "must be 24 hexadecimal characters");

export const createWebhookSchema = z
  .object({
    url: z.string().min(1).max(2000).describe("https:// (or http://) endpoint that receives the events"),
    events: z
      .array(z.enum(webhookEventTypes))
      .min(1, "name at least one event")
      .refine((e) => new Set(e).size === e.length, "lists an event twice")
      .describe(webhookEventTypes.join(", ")),
    description: z.string().trim().max(500).default(""),
  })
  .strict();

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(webhookEventTypes)),
    description: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Webhook" });

export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().describe("whsec_…: verifies signatures; shown only this once") })
  .meta({ id: "CreatedWebhook" });

export const attemptSchema = z.object({
  at: z.iso.datetime(),
  durationMs: z.int(),
  responseStatus: z.int().optional(),
  error: z.string().optional(),
});

export const deliverySchema = z
  .object({
    id: z.string().describe("Also the webhook-id header of every attempt"),
    eventType: z.enum(webhookEventTypes),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.array(attemptSchema),
    payload: z.record(z.string(), z.unknown()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookDelivery" });

export const deliveryListSchema = z.object({ items: z.array(deliverySchema), total: z.int() });
export const deliveryQuerySchema = paginationSchema;
