import type { FastifyReply, FastifyRequest } from "fastify";
import type { Actor, Principal } from "../auth/actor.ts";
import type { ApiKeyService } from "../auth/api-key-service.ts";
import { ALL_SCOPES, hasScope, insufficientScope, type Scope } from "../auth/scopes.ts";
import { API_KEY_PREFIX } from "../auth/secrets.ts";
import { AppError } from "../errors.ts";
import type { GrantService } from "../oauth/grant-service.ts";
import type { WorkspaceService } from "../workspaces/workspace-service.ts";

declare module "fastify" {
  interface FastifyRequest {
    principal?: Principal;
    actor?: Actor;
  }
}

const BEARER = /^Bearer ([^\s]+)$/i;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header ? BEARER.exec(header)?.[1] : undefined;
}

/** Where clients discover how to get a token for this server (RFC 9728). */
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * Route hooks. `user(scope)` authenticates the bearer token, an API key or an OAuth access token
 * (onRequest, before the body is read), and checks the token carries `scope`; `workspace` then
 * resolves the X-Workspace-Id header into an Actor (preHandler, after the header has been
 * validated). Refusals carry a WWW-Authenticate challenge pointing at the resource metadata.
 */
export function createAuthHooks(deps: {
  apiKeys: ApiKeyService;
  grants: GrantService;
  workspaces: WorkspaceService;
  publicUrl: string;
}) {
  const metadata = `resource_metadata="${new URL(deps.publicUrl).origin}${PROTECTED_RESOURCE_METADATA_PATH}"`;
  const allScopes = `scope="${ALL_SCOPES.join(" ")}"`;

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    const header = request.headers.authorization;
    const token = header ? bearerToken(request) : undefined;
    const principal = token
      ? token.startsWith(API_KEY_PREFIX)
        ? await deps.apiKeys.authenticate(token)
        : await deps.grants.authenticate(token)
      : undefined;
    if (principal) return principal;
    if (!header) {
      reply.header("www-authenticate", `Bearer ${metadata}, ${allScopes}`);
      throw new AppError(
        "unauthorized",
        "Missing Authorization header; send Authorization: Bearer <API key or OAuth access token>",
      );
    }
    reply.header("www-authenticate", `Bearer error="invalid_token", ${metadata}, ${allScopes}`);
    if (!token) throw new AppError("unauthorized", "Malformed Authorization header; expected Bearer <token>");
    throw new AppError("unauthorized", "Invalid, expired or revoked token");
  }

  /** Authenticates; with a scope, also refuses tokens that were not granted it. */
  function user(scope?: Scope) {
    return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const principal = await authenticate(request, reply);
      if (scope && !hasScope(principal, scope)) {
        reply.header("www-authenticate", `Bearer error="insufficient_scope", scope="${scope}", ${metadata}`);
        throw insufficientScope(scope);
      }
      request.principal = principal;
    };
  }

  async function workspace(request: FastifyRequest): Promise<void> {
    if (!request.principal) throw new AppError("unauthorized", "Not authenticated");
    const header = request.headers["x-workspace-id"];
    request.actor = await deps.workspaces.resolveActor(
      request.principal,
      Array.isArray(header) ? header[0] : header,
    );
  }

  return { user, workspace };
}

export type AuthHooks = ReturnType<typeof createAuthHooks>;

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError("internal_error", "Route is missing the workspace hook");
  return request.actor;
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError("internal_error", "Route is missing the auth hook");
  return request.principal;
}
