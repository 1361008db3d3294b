import type { IncomingMessage, ServerResponse } from "node:http";
import fastifyMiddie from "@fastify/middie";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { ALL_SCOPES } from "../../auth/scopes.ts";
import type { Container } from "../../container.ts";
import { OAUTH_PREFIX, resourceIdentifier } from "../../oauth/provider.ts";
import { PROTECTED_RESOURCE_METADATA_PATH } from "../auth.ts";

// The authorization server's endpoints come from oidc-provider (a Koa app) mounted through
// @fastify/middie in a context of its own, so it sees only OAuth requests and reads their bodies
// itself. RFC 8414 metadata is the provider's discovery document under its OAuth name. The
// protected-resource metadata (RFC 9728) tells clients that found this server which
// authorization server issues its tokens.

const DISCOVERY = "/.well-known/openid-configuration";
const AS_METADATA = "/.well-known/oauth-authorization-server";

/** Dynamic client registration, limited per client address in fixed hourly windows. */
function registrationLimiter(perHour: number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (
      perHour === 0 ||
      request.method !== "POST" ||
      request.url.split("?")[0] !== `${OAUTH_PREFIX}/register`
    ) {
      return;
    }
    const now = Date.now();
    if (windows.size > 10_000) for (const [ip, w] of windows) if (w.resetAt <= now) windows.delete(ip);
    const window = windows.get(request.ip);
    const current = window && window.resetAt > now ? window : { count: 0, resetAt: now + 3600_000 };
    current.count += 1;
    windows.set(request.ip, current);
    if (current.count > perHour) {
      const retryAfter = Math.ceil((current.resetAt - now) / 1000);
      const text = `Too many client registrations from this address; retry in ${retryAfter} s`;
      reply
        .code(429)
        .header("retry-after", String(retryAfter))
        .header("cache-control", "no-store")
        .send({ error: "rate_limited", error_description: text, code: "rate_limited", message: text });
      return reply;
    }
  };
}

export const oauthRoutes =
  (deps: { c: Container }): FastifyPluginAsync =>
  async (app) => {
    const { config } = deps.c;
    const issuer = new URL(config.http.publicUrl).origin;
    const provider = await deps.c.oauthProvider();
    const callback = provider.callback();

    await app.register(async (child) => {
      child.addHook("onRequest", registrationLimiter(config.oauthRegistrationsPerHour));
      await child.register(fastifyMiddie);
      const publicUrl = new URL(issuer);
      child.use((req: IncomingMessage, res: ServerResponse, _next: () => void) => {
        if (req.url?.startsWith(AS_METADATA)) req.url = DISCOVERY + req.url.slice(AS_METADATA.length);
        // Endpoint URLs are built from PUBLIC_URL, never from what the client sent: the provider
        // trusts forwarded headers (provider.proxy), and these are the only ones it sees.
        req.headers["x-forwarded-proto"] = publicUrl.protocol.slice(0, -1);
        req.headers["x-forwarded-host"] = publicUrl.host;
        delete req.headers["x-forwarded-for"];
        delete req.headers["x-forwarded-port"];
        void callback(req, res);
      });
      // Never reached: the provider answers every request of this context. The routes exist so
      // that Fastify hands these paths to this context.
      const unreachable = async () => {
        throw new Error("oidc-provider did not answer");
      };
      const hidden = { schema: { hide: true }, config: { rateLimit: false } };
      child.all(`${OAUTH_PREFIX}/*`, hidden, unreachable);
      child.get(DISCOVERY, hidden, unreachable);
      child.get(AS_METADATA, hidden, unreachable);
    });

    const metadata = {
      resource: resourceIdentifier(config.http.publicUrl),
      authorization_servers: [issuer],
      scopes_supported: ALL_SCOPES,
      bearer_methods_supported: ["header"],
      resource_name: "Decksmith",
      resource_documentation: `${issuer}/docs`,
    };
    // At the root, and under /mcp, where clients that start from the MCP endpoint look first.
    for (const url of [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}/mcp`]) {
      app.get(url, { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
        reply.header("access-control-allow-origin", "*");
        return metadata;
      });
    }
  };
