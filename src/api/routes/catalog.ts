import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { listTemplates, listThemes } from "../../catalog/catalog.ts";
import type { AuthHooks } from "../auth.ts";
import { errorResponses } from "../error-schemas.ts";
import { workspaceHeaders } from "./workspace-header.ts";

const templateSchema = z
  .object({
    id: z.string().describe("Pass as templateId when generating"),
    name: z.string(),
    description: z.string(),
    suggestedEntityTypes: z.array(z.string()),
  })
  .meta({ id: "Template" });

const hex = z.string().regex(/^[0-9A-F]{6}$/);
const themeSchema = z
  .object({
    id: z.string().describe("Pass as themeId when generating"),
    name: z.string(),
    description: z.string(),
    colors: z.object({
      background: hex,
      surface: hex,
      text: hex,
      mutedText: hex,
      accent: hex,
      accentAlt: hex,
    }),
    fonts: z.object({ heading: z.string(), body: z.string() }),
  })
  .meta({ id: "Theme" });

export const catalogRoutes =
  (deps: { auth: AuthHooks }): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { onRequest: deps.auth.user("presentations:read"), preHandler: deps.auth.workspace };

    app.get(
      "/v1/templates",
      {
        ...read,
        schema: {
          summary: "List templates",
          tags: ["catalog"],
          headers: workspaceHeaders,
          response: { 200: z.array(templateSchema), ...errorResponses(404) },
        },
      },
      async () => [...listTemplates()],
    );

    app.get(
      "/v1/themes",
      {
        ...read,
        schema: {
          summary: "List themes",
          tags: ["catalog"],
          headers: workspaceHeaders,
          response: { 200: z.array(themeSchema), ...errorResponses(404) },
        },
      },
      async () => [...listThemes()],
    );
  };
