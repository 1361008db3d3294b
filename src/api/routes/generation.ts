import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { generateInputSchema, generateResultSchema } from "../../generation/generation-schemas.ts";
import type { GenerationService } from "../../generation/generation-service.ts";
import { presentationIdSchema } from "../../presentations/presentation-schemas.ts";
import { type AuthHooks, actorOf } from "../auth.ts";
import { errorResponses } from "../error-schemas.ts";
import { workspaceHeaders } from "./workspace-header.ts";

const preferAsync = (prefer: string | string[] | undefined) =>
  [prefer ?? []].flat().some((p) => /(^|[,\s])respond-async(\s*[,;]|$)/i.test(p));

export const generationRoutes =
  (deps: { auth: AuthHooks; generation: GenerationService }): FastifyPluginAsyncZod =>
  async (app) => {
    const hooks = { onRequest: deps.auth.user, preHandler: deps.auth.workspace };

    app.post(
      "/v1/presentations/generate",
      {
        ...hooks,
        schema: {
          summary: "Generate a presentation",
          description:
            "Creates the presentation (status generating) and waits for it, up to GENERATE_WAIT_SECONDS (60 s by default): 201 when it settled (ready, or failed with a failureReason), 202 with status generating otherwise, or at once with `Prefer: respond-async`. Editors and above.",
          tags: ["presentations"],
          headers: workspaceHeaders.extend({
            prefer: z.string().optional().describe("respond-async: answer 202 at once, without waiting"),
          }),
          body: generateInputSchema,
          response: { 201: generateResultSchema, 202: generateResultSchema, ...errorResponses(403, 404) },
        },
      },
      async (request, reply) => {
        const { settled, body } = await deps.generation.generate(actorOf(request), request.body, {
          respondAsync: preferAsync(request.headers.prefer),
        });
        reply.code(settled ? 201 : 202).header("location", `/v1/presentations/${body.presentationId}`);
        if (!settled)
          reply.header(
            "preference-applied",
            preferAsync(request.headers.prefer) ? "respond-async" : undefined,
          );
        return body;
      },
    );

    app.post(
      "/v1/presentations/:presentationId/stop",
      {
        ...hooks,
        schema: {
          summary: "Stop a generation",
          description: "A generating presentation becomes stopped; any other status answers 409 conflict.",
          tags: ["presentations"],
          headers: workspaceHeaders,
          params: z.object({ presentationId: presentationIdSchema }),
          response: { 200: generateResultSchema, ...errorResponses(403, 404, 409) },
        },
      },
      async (request) => deps.generation.stop(actorOf(request), request.params.presentationId),
    );
  };
