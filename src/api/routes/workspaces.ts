import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { roles } from "../../storage/schema.ts";
import type { WorkspaceService } from "../../workspaces/workspace-service.ts";
import { type AuthHooks, principalOf } from "../auth.ts";
import { errorResponses } from "../error-schemas.ts";

const workspaceSchema = z
  .object({
    id: z.string().describe("Use as X-Workspace-Id on other endpoints"),
    name: z.string(),
    plan: z.enum(["pro", "enterprise"]),
    role: z.enum(roles).describe("The caller's role in this workspace"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Workspace" });

export const workspaceRoutes =
  (deps: { auth: AuthHooks; workspaces: WorkspaceService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/workspaces",
      {
        onRequest: deps.auth.user(),
        schema: {
          summary: "List workspaces",
          description:
            "Every workspace the caller belongs to whose plan includes API access. The first call to make: its ids go in X-Workspace-Id.",
          tags: ["workspaces"],
          response: { 200: z.array(workspaceSchema), ...errorResponses() },
        },
      },
      async (request) => {
        const rows = await deps.workspaces.listForApi(principalOf(request));
        return rows.map((w) => ({
          id: w.id,
          name: w.name,
          plan: w.plan as "pro" | "enterprise",
          role: w.role,
          createdAt: w.createdAt.toISOString(),
        }));
      },
    );
  };
