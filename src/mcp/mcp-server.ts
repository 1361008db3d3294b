import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";
import { hasScope } from "../auth/scopes.ts";
import { AppError } from "../errors.ts";
import { type McpToolName, mcpTools, type ToolContext } from "./tools.ts";

// One MCP server per request (Streamable HTTP, stateless) or per process (stdio): the tools the
// caller may use, each answering JSON as text and as structured content. Failures come back as
// isError results with the REST API's error codes, so an assistant can read and correct them.

const VERSION = "1.0.0";

function failure(err: unknown): CallToolResult {
  const body =
    err instanceof AppError
      ? { error: err.message, code: err.code, message: err.message, details: err.details }
      : err instanceof ZodError
        ? {
            error: "Invalid arguments",
            code: "invalid_request",
            details: err.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
          }
        : { error: "Internal server error; the details are in the server log", code: "internal_error" };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

export function createMcpServer(ctx: ToolContext, log?: (err: unknown) => void): McpServer {
  const server = new McpServer({ name: "decksmith", version: VERSION });
  for (const [name, spec] of Object.entries(mcpTools) as [string, (typeof mcpTools)[McpToolName]][]) {
    // Tools the token's scopes forbid are not even listed.
    if (spec.scope && !hasScope(ctx.principal, spec.scope)) continue;
    server.registerTool(
      name,
      {
        description: spec.description,
        inputSchema: spec.input,
        annotations: { readOnlyHint: !spec.scope?.endsWith(":write") },
      },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const input = spec.input.parse(args ?? {});
          const result = await (spec.run as (c: ToolContext, i: unknown) => Promise<unknown>)(ctx, input);
          const structured = Array.isArray(result) ? { items: result } : (result as Record<string, unknown>);
          return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: structured };
        } catch (err) {
          if (!(err instanceof AppError) && !(err instanceof ZodError)) log?.(err);
          return failure(err);
        }
      },
    );
  }
  return server;
}
