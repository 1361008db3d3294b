import { z } from "zod";
import type { Actor, Principal } from "../auth/actor.ts";
import type { Scope } from "../auth/scopes.ts";
import { listTemplates, listThemes } from "../catalog/catalog.ts";
import type { Container } from "../container.ts";
import { searchInputSchema, upsertEntitiesSchema } from "../entities/entity-schemas.ts";
import { AppError } from "../errors.ts";
import { generateInputSchema } from "../generation/generation-schemas.ts";
import { listQuerySchema, presentationIdSchema } from "../presentations/presentation-schemas.ts";
import { exportInputSchema } from "../rendering/export-service.ts";

// The MCP tools: the REST API's capabilities for AI assistants, on the same services and schemas.
// Descriptions say when to use each tool, because that is what a model reads to choose one.

export type ToolContext = {
  c: Container;
  principal: Principal;
  /** The caller in a workspace: the one named, or their only one. */
  actor(workspaceId: string | undefined): Promise<Actor>;
};

type McpTool<S extends z.ZodObject> = {
  description: string;
  input: S;
  /** The OAuth scope the tool needs; none for tools any signed-in caller may use. */
  scope?: Scope;
  run(ctx: ToolContext, input: z.output<S>): Promise<unknown>;
};
const tool = <S extends z.ZodObject>(t: McpTool<S>) => t;

const workspaceId = z
  .string()
  .optional()
  .describe("Workspace id from list_workspaces; may be left out when the caller has only one workspace");
const presentationId = presentationIdSchema.describe("The presentation's id (24 hexadecimal characters)");

export const mcpTools = {
  list_workspaces: tool({
    description: "List the workspaces you can use (call first: other tools take a workspaceId from here).",
    input: z.object({}),
    run: async (ctx) => ctx.c.workspaces.listForApi(ctx.principal),
  }),
  list_templates: tool({
    description:
      "List deck templates (account review, QBR, deal review, meeting prep, pipeline review, general) with the data each uses.",
    input: z.object({}),
    scope: "presentations:read",
    run: async () => listTemplates(),
  }),
  list_themes: tool({
    description: "List visual themes for decks (colours and fonts).",
    input: z.object({}),
    scope: "presentations:read",
    run: async () => listThemes(),
  }),
  list_presentations: tool({
    description: "List a workspace's presentations, newest first, with status and summary.",
    input: listQuerySchema.extend({ workspaceId }),
    scope: "presentations:read",
    run: async (ctx, { workspaceId: ws, ...query }) => ctx.c.presentations.list(await ctx.actor(ws), query),
  }),
  get_presentation: tool({
    description: "Read one presentation: every slide's layout and text, and the discussion topics.",
    input: z.object({ workspaceId, presentationId }),
    scope: "presentations:read",
    run: async (ctx, i) => ctx.c.presentations.get(await ctx.actor(i.workspaceId), i.presentationId),
  }),
  generate_presentation: tool({
    description:
      "Make a new deck from instructions, grounded in the workspace's CRM data (name the account or deal in the instructions). Waits until it is ready and answers its id, summary and viewer url.",
    input: generateInputSchema.extend({ workspaceId }),
    scope: "presentations:write",
    run: async (ctx, { workspaceId: ws, ...input }) =>
      (await ctx.c.generation.generate(await ctx.actor(ws), input)).body,
  }),
  edit_presentation: tool({
    description:
      'Change an existing deck by instructions ("rename the deck to …", "remove slide 4", "add a slide about … after slide 2", "switch the theme to Midnight"). Answers what changed.',
    input: z.object({ workspaceId, presentationId, instructions: z.string().min(1).max(20_000) }),
    scope: "presentations:write",
    run: async (ctx, i) =>
      ctx.c.editing.edit(await ctx.actor(i.workspaceId), i.presentationId, { instructions: i.instructions }),
  }),
  export_presentation: tool({
    description: "Export a ready deck to PPTX (editable) or PDF; answers a download link valid 14 hours.",
    input: exportInputSchema.extend({ workspaceId, presentationId }),
    scope: "presentations:read",
    run: async (ctx, { workspaceId: ws, presentationId: id, ...input }) =>
      ctx.c.exports.export(await ctx.actor(ws), id, input),
  }),
  search_entities: tool({
    description:
      "Search the workspace's CRM records (accounts, contacts, opportunities, notes, products) by meaning and keywords, e.g. 'hospitals unhappy with support'.",
    input: searchInputSchema.extend({ workspaceId }),
    scope: "entities:read",
    run: async (ctx, { workspaceId: ws, ...input }) => ctx.c.entities.search(await ctx.actor(ws), input),
  }),
  upsert_entities: tool({
    description: "Create or update CRM records (1 to 1000; matched on type + externalId), all or nothing.",
    input: z.object({ workspaceId, entities: upsertEntitiesSchema.shape.entities }),
    scope: "entities:write",
    run: async (ctx, { workspaceId: ws, entities }) =>
      ctx.c.entities.upsert(await ctx.actor(ws), { entities }),
  }),
};

export type McpToolName = keyof typeof mcpTools;

/** Resolves the caller's workspace for a tool: the one named, or the only one they have. */
export function actorResolver(c: Container, principal: Principal) {
  return async (workspaceId: string | undefined): Promise<Actor> => {
    if (workspaceId) return c.workspaces.resolveActor(principal, workspaceId);
    const all = await c.workspaces.listForApi(principal);
    if (all.length === 1 && all[0]) return c.workspaces.resolveActor(principal, all[0].id);
    throw new AppError(
      "invalid_request",
      all.length === 0
        ? "You have no workspace with API access"
        : `Name a workspaceId: you have ${all.length} workspaces (list_workspaces shows them)`,
      [{ path: "workspaceId", message: "is required when you have several workspaces" }],
    );
  };
}
