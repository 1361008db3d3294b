import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createdWebhookSchema,
  createWebhookSchema,
  deliveryListSchema,
  deliveryQuerySchema,
  webhookSchema,
} from "../../webhooks/webhook-schemas.ts";
import type { WebhookService } from "../../webhooks/webhook-service.ts";
import { type AuthHooks, actorOf } from "../auth.ts";
import { errorResponses } from "../error-schemas.ts";
import { workspaceHeaders } from "./workspace-header.ts";

export const webhookRoutes =
  (deps: { auth: AuthHooks; webhooks: WebhookService }): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { onRequest: deps.auth.user("presentations:read"), preHandler: deps.auth.workspace };
    const write = { onRequest: deps.auth.user("presentations:write"), preHandler: deps.auth.workspace };
    const params = z.object({ webhookId: z.string() });

    app.post(
      "/v1/webhooks",
      {
        ...write,
        schema: {
          summary: "Register a webhook",
          description:
            "Events are POSTed to the URL, signed per the Standard Webhooks spec (webhook-id, webhook-timestamp, webhook-signature headers) with the secret answered here once. Private and loopback addresses are refused. Admins and owners.",
          tags: ["webhooks"],
          headers: workspaceHeaders,
          body: createWebhookSchema,
          response: { 201: createdWebhookSchema, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return deps.webhooks.create(actorOf(request), request.body);
      },
    );

    app.get(
      "/v1/webhooks",
      {
        ...read,
        schema: {
          summary: "List the workspace's webhooks",
          tags: ["webhooks"],
          headers: workspaceHeaders,
          response: { 200: z.array(webhookSchema), ...errorResponses(404) },
        },
      },
      async (request) => deps.webhooks.list(actorOf(request)),
    );

    app.delete(
      "/v1/webhooks/:webhookId",
      {
        ...write,
        schema: {
          summary: "Delete a webhook",
          description: "Its pending deliveries are dropped.",
          tags: ["webhooks"],
          headers: workspaceHeaders,
          params,
          response: { 204: z.null().describe("Deleted"), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        await deps.webhooks.delete(actorOf(request), request.params.webhookId);
        return reply.code(204).send(null);
      },
    );

    app.get(
      "/v1/webhooks/:webhookId/deliveries",
      {
        ...read,
        schema: {
          summary: "A webhook's deliveries, newest first",
          description:
            "Each with its status (pending, succeeded, failed) and every attempt: time, duration, response status or error.",
          tags: ["webhooks"],
          headers: workspaceHeaders,
          params,
          querystring: deliveryQuerySchema,
          response: { 200: deliveryListSchema, ...errorResponses(404) },
        },
      },
      async (request) => deps.webhooks.deliveries(actorOf(request), request.params.webhookId, request.query),
    );
  };
