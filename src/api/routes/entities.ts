import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  entityListQuerySchema,
  entityListSchema,
  entitySchema,
  searchInputSchema,
  searchResultSchema,
  upsertEntitiesSchema,
  upsertResultSchema,
} from "../../entities/entity-schemas.ts";
import type { EntityService } from "../../entities/entity-service.ts";
import { ID_PATTERN } from "../../ids.ts";
import { type AuthHooks, actorOf } from "../auth.ts";
import { errorResponses } from "../error-schemas.ts";
import { type IdempotentHook, idempotencyKeyHeader } from "../idempotency.ts";
import { workspaceHeaders } from "./workspace-header.ts";

const ENTITY_BATCH_BODY_LIMIT = 16 * 1024 * 1024;

const entityIdParams = z.object({
  entityId: z.string().regex(ID_PATTERN, "must be 24 hexadecimal characters").describe("Entity id"),
});

export const entityRoutes =
  (deps: { auth: AuthHooks; entities: EntityService; idempotent: IdempotentHook }): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { onRequest: deps.auth.user("entities:read"), preHandler: deps.auth.workspace };
    const write = { onRequest: deps.auth.user("entities:write"), preHandler: deps.auth.workspace };
    const tags = ["entities"];

    app.post(
      "/v1/entities",
      {
        ...write,
        preHandler: [deps.auth.workspace, deps.idempotent],
        // A batch of 1000 records with notes easily passes the 1 MiB default of other routes.
        bodyLimit: ENTITY_BATCH_BODY_LIMIT,
        schema: {
          summary: "Create or update entities (1 to 1000, all or nothing)",
          description:
            "Entities with an externalId are matched on type + externalId and updated; others are created. Links may name entities by id, or by type + externalId in this batch or the workspace. Editors and above.",
          tags,
          headers: workspaceHeaders.extend({ "idempotency-key": idempotencyKeyHeader }),
          body: upsertEntitiesSchema,
          response: { 200: upsertResultSchema, ...errorResponses(404, 413, 415) },
        },
      },
      async (request) => deps.entities.upsert(actorOf(request), request.body),
    );

    app.get(
      "/v1/entities",
      {
        ...read,
        schema: {
          summary: "List entities, newest first",
          tags,
          headers: workspaceHeaders,
          querystring: entityListQuerySchema,
          response: { 200: entityListSchema, ...errorResponses(404) },
        },
      },
      async (request) => deps.entities.list(actorOf(request), request.query),
    );

    app.get(
      "/v1/entities/:entityId",
      {
        ...read,
        schema: {
          summary: "Get an entity",
          tags,
          headers: workspaceHeaders,
          params: entityIdParams,
          response: { 200: entitySchema, ...errorResponses(404) },
        },
      },
      async (request) => deps.entities.get(actorOf(request), request.params.entityId),
    );

    app.delete(
      "/v1/entities/:entityId",
      {
        ...write,
        schema: {
          summary: "Delete an entity (and the links that point at it)",
          tags,
          headers: workspaceHeaders,
          params: entityIdParams,
          response: { 204: z.null().describe("Deleted"), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        await deps.entities.delete(actorOf(request), request.params.entityId);
        return reply.code(204).send(null);
      },
    );

    app.post(
      "/v1/entities/search",
      {
        ...read,
        schema: {
          summary: "Search entities by meaning and keywords",
          description:
            "hybrid (default) fuses semantic nearest neighbours and full-text matches by reciprocal rank; semantic and keyword use one of them alone.",
          tags,
          headers: workspaceHeaders,
          body: searchInputSchema,
          response: { 200: searchResultSchema, ...errorResponses(404, 415) },
        },
      },
      async (request) => deps.entities.search(actorOf(request), request.body),
    );
  };
