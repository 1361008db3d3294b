import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { EventBus } from "../../events/event-bus.ts";
import type { EditingService } from "../../generation/editing-service.ts";
import {
  editInputSchema,
  editResultSchema,
  generateInputSchema,
  generateResultSchema,
  revisionListSchema,
} from "../../generation/generation-schemas.ts";
import type { GenerationService } from "../../generation/generation-service.ts";
import { presentationIdSchema } from "../../presentations/presentation-schemas.ts";
import type { PresentationService } from "../../presentations/presentation-service.ts";
import { type AuthHooks, actorOf } from "../auth.ts";
import { errorResponses } from "../error-schemas.ts";
import { eventStreams, lastEventId } from "../event-stream.ts";
import { type IdempotentHook, idempotencyKeyHeader } from "../idempotency.ts";
import { workspaceHeaders } from "./workspace-header.ts";

const preferAsync = (prefer: string | string[] | undefined) =>
  [prefer ?? []].flat().some((p) => /(^|[,\s])respond-async(\s*[,;]|$)/i.test(p));

export const generationRoutes =
  (deps: {
    auth: AuthHooks;
    generation: GenerationService;
    editing: EditingService;
    presentations: PresentationService;
    bus: EventBus;
    idempotent: IdempotentHook;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { onRequest: deps.auth.user("presentations:read"), preHandler: deps.auth.workspace };
    const write = { onRequest: deps.auth.user("presentations:write"), preHandler: deps.auth.workspace };

    app.post(
      "/v1/presentations/generate",
      {
        ...write,
        preHandler: [deps.auth.workspace, deps.idempotent],
        schema: {
          summary: "Generate a presentation",
          description:
            "Creates the presentation (status generating) and waits for it, up to GENERATE_WAIT_SECONDS (60 s by default): 201 when it settled (ready, or failed with a failureReason), 202 with status generating otherwise, or at once with `Prefer: respond-async`. Editors and above.",
          tags: ["presentations"],
          headers: workspaceHeaders.extend({
            "idempotency-key": idempotencyKeyHeader,
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
        ...write,
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

    const params = z.object({ presentationId: presentationIdSchema });

    app.post(
      "/v1/presentations/:presentationId/edit",
      {
        ...write,
        preHandler: [deps.auth.workspace, deps.idempotent],
        schema: {
          summary: "Edit a presentation by instructions",
          description:
            "Applies the instructions as targeted changes and commits them as one new revision; changesApplied says what changed, one line each. Without an LLM the built-in editor understands a documented set of forms (422 edit_not_understood lists them, and nothing changes). 409 presentation_not_ready unless ready. Editors and above.",
          tags: ["presentations"],
          headers: workspaceHeaders.extend({ "idempotency-key": idempotencyKeyHeader }),
          params,
          body: editInputSchema,
          response: { 200: editResultSchema, ...errorResponses(404, 409, 422) },
        },
      },
      async (request) => deps.editing.edit(actorOf(request), request.params.presentationId, request.body),
    );

    app.get(
      "/v1/presentations/:presentationId/revisions",
      {
        ...read,
        schema: {
          summary: "List a presentation's revisions",
          description: "Oldest first: the generation, then every edit and restore, each with its changes.",
          tags: ["presentations"],
          headers: workspaceHeaders,
          params,
          response: { 200: revisionListSchema, ...errorResponses(404) },
        },
      },
      async (request) => deps.editing.revisions(actorOf(request), request.params.presentationId),
    );

    app.post(
      "/v1/presentations/:presentationId/revisions/:number/restore",
      {
        ...write,
        schema: {
          summary: "Restore a revision",
          description:
            "Makes that revision's slides, topics, name, summary and theme current again, as a new revision.",
          tags: ["presentations"],
          headers: workspaceHeaders,
          params: params.extend({ number: z.coerce.number().int().min(1) }),
          response: { 200: editResultSchema, ...errorResponses(404, 409) },
        },
      },
      async (request) =>
        deps.editing.restore(actorOf(request), request.params.presentationId, request.params.number),
    );

    const stream = eventStreams(app, deps.bus);
    app.get(
      "/v1/presentations/:presentationId/events",
      {
        ...read,
        config: { rateLimit: false },
        schema: {
          summary: "Follow a presentation's progress (Server-Sent Events)",
          description:
            "A text/event-stream of the presentation's events, oldest first, then live: status, outline, slide (n of m written), presentation.ready / failed / stopped / updated, export.ready. Each has an id; send it back as Last-Event-ID (EventSource does) or ?lastEventId= to resume after it.",
          tags: ["presentations"],
          headers: workspaceHeaders.extend({ "last-event-id": z.string().optional() }),
          params,
          querystring: z.object({ lastEventId: z.string().optional() }),
          produces: ["text/event-stream"],
          response: { 200: z.string().describe("text/event-stream"), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const afterId = lastEventId(request);
        const deck = await deps.presentations.get(actor, request.params.presentationId);
        await stream(request, reply, { workspaceId: actor.workspaceId, presentationId: deck.id, afterId });
      },
    );
  };
