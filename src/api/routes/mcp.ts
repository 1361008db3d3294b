import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Container } from "../../container.ts";
import { AppError } from "../../errors.ts";
import { createMcpServer } from "../../mcp/mcp-server.ts";
import { actorResolver } from "../../mcp/tools.ts";
import { type AuthHooks, principalOf } from "../auth.ts";

// MCP over Streamable HTTP at /mcp, stateless: each POST gets its own server and transport, so
// any process can answer any request. Host and Origin are checked first, so a web page on another
// site cannot reach a server on the user's machine through DNS rebinding.

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

export function checkHostAndOrigin(request: FastifyRequest, publicUrl: string): void {
  const own = new URL(publicUrl);
  const host = request.headers.host ?? "";
  if (host !== own.host && !LOOPBACK.test(host)) {
    throw new AppError("forbidden", `Host ${host} is not this server (${own.host})`);
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== own.origin && !LOOPBACK.test(origin.replace(/^https?:\/\//, ""))) {
    throw new AppError("forbidden", `Origin ${origin} may not call this server`);
  }
}

export const mcpRoutes =
  (deps: { auth: AuthHooks; c: Container }): FastifyPluginAsync =>
  async (app) => {
    const { c } = deps;
    const guard = async (request: FastifyRequest) => checkHostAndOrigin(request, c.config.http.publicUrl);

    app.post(
      "/mcp",
      { onRequest: [guard, deps.auth.user()], schema: { hide: true } },
      async (request, reply) => {
        const principal = principalOf(request);
        // An API key carries all of its user's rights; an OAuth token only its scopes' tools.
        const server = createMcpServer({ c, principal, actor: actorResolver(c, principal) }, (err) =>
          request.log.error({ err }, "MCP tool failed"),
        );
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        reply.hijack();
        reply.raw.on("close", () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      },
    );

    // Stateless: no server-to-client stream and no sessions to end.
    for (const method of ["GET", "DELETE"] as const) {
      app.route({
        method,
        url: "/mcp",
        schema: { hide: true },
        onRequest: [guard],
        handler: async (_request, reply) => {
          reply.header("allow", "POST");
          throw new AppError(
            "method_not_allowed",
            "This MCP endpoint is stateless: send JSON-RPC requests with POST",
          );
        },
      });
    }
  };
