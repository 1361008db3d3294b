import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { presentationIdSchema } from "../../presentations/presentation-schemas.ts";
import { type ExportService, exportInputSchema, exportResultSchema } from "../../rendering/export-service.ts";
import { type AuthHooks, actorOf } from "../auth.ts";
import { errorResponses, errorSchema } from "../error-schemas.ts";
import { type IdempotentHook, idempotencyKeyHeader } from "../idempotency.ts";
import { workspaceHeaders } from "./workspace-header.ts";

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export const exportRoutes =
  (deps: { auth: AuthHooks; exports: ExportService; idempotent: IdempotentHook }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/v1/presentations/:presentationId/export",
      {
        onRequest: deps.auth.user("presentations:read"),
        preHandler: [deps.auth.workspace, deps.idempotent],
        schema: {
          summary: "Export a presentation to PPTX or PDF",
          description:
            "Renders the deck (or reuses the file of the same version) and answers a signed download link valid 14 hours. The presentation must be ready (409 presentation_not_ready otherwise). Viewers may export.",
          tags: ["presentations"],
          headers: workspaceHeaders.extend({ "idempotency-key": idempotencyKeyHeader }),
          params: z.object({ presentationId: presentationIdSchema }),
          body: exportInputSchema.nullish(), // {} or no body at all: PPTX
          response: { 200: exportResultSchema, ...errorResponses(404, 409, 415) },
        },
      },
      async (request) => deps.exports.export(actorOf(request), request.params.presentationId, request.body),
    );

    app.get(
      "/downloads",
      {
        schema: {
          summary: "Download an exported file through a signed link",
          tags: ["presentations"],
          security: [],
          querystring: z.looseObject({
            key: z.string().optional(),
            name: z.string().optional(),
            expires: z.string().optional(),
            sig: z.string().optional(),
          }),
          response: { 200: z.any().describe("The file"), 403: errorSchema, 404: errorSchema },
        },
      },
      async (request, reply) => {
        const file = await deps.exports.open(request.query);
        return reply
          .header("content-type", file.contentType)
          .header("content-length", file.size)
          .header("content-disposition", disposition(file.filename))
          .header("cache-control", "private, max-age=3600")
          .send(file.stream);
      },
    );
  };
