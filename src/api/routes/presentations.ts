import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  listQuerySchema,
  presentationDetailSchema,
  presentationIdSchema,
  presentationListSchema,
} from "../../presentations/presentation-schemas.ts";
import type { PresentationService } from "../../presentations/presentation-service.ts";
import { type AuthHooks, actorOf } from "../auth.ts";
import { errorResponses } from "../error-schemas.ts";
import { workspaceHeaders } from "./workspace-header.ts";

export const presentationRoutes =
  (deps: { auth: AuthHooks; presentations: PresentationService }): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { onRequest: deps.auth.user("presentations:read"), preHandler: deps.auth.workspace };

    app.get(
      "/v1/presentations",
      {
        ...read,
        schema: {
          summary: "List presentations",
          description: "Newest first.",
          tags: ["presentations"],
          headers: workspaceHeaders,
          querystring: listQuerySchema,
          response: { 200: presentationListSchema, ...errorResponses(404) },
        },
      },
      async (request) => deps.presentations.list(actorOf(request), request.query),
    );

    app.get(
      "/v1/presentations/:presentationId",
      {
        ...read,
        schema: {
          summary: "Get a presentation with its slides and discussion topics",
          tags: ["presentations"],
          headers: workspaceHeaders,
          params: z.object({ presentationId: presentationIdSchema }),
          response: { 200: presentationDetailSchema, ...errorResponses(404) },
        },
      },
      async (request) => deps.presentations.get(actorOf(request), request.params.presentationId),
    );
  };
