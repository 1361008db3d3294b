import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import type { Database } from "../../storage/db.ts";
import { errorSchema } from "../error-schemas.ts";

export const healthRoutes =
  (deps: { database: Database }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/healthz",
      {
        config: { rateLimit: false },
        schema: {
          summary: "Liveness: the process answers",
          tags: ["health"],
          security: [],
          response: { 200: z.object({ status: z.literal("ok") }) },
        },
      },
      async () => ({ status: "ok" as const }),
    );

    app.get(
      "/readyz",
      {
        config: { rateLimit: false },
        schema: {
          summary: "Readiness: the database answers",
          tags: ["health"],
          security: [],
          response: { 200: z.object({ status: z.literal("ready"), database: z.string() }), 503: errorSchema },
        },
      },
      async () => {
        try {
          await deps.database.query("select 1");
        } catch {
          throw new AppError("upstream_unavailable", "The database does not answer");
        }
        return { status: "ready" as const, database: deps.database.kind };
      },
    );
  };
