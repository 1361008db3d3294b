import type { FastifyRequest } from "fastify";
import type { Actor, Principal } from "../auth/actor.ts";
import type { ApiKeyService } from "../auth/api-key-service.ts";
import { AppError } from "../errors.ts";
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

/**
 * Route hooks. `user` authenticates the bearer token (onRequest, before the body is read);
 * `workspace` then resolves the X-Workspace-Id header into an Actor (preHandler, after the
 * header has been validated).
 */
export function createAuthHooks(deps: { apiKeys: ApiKeyService; workspaces: WorkspaceService }) {
  async function user(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    if (!header)
      throw new AppError(
        "unauthorized",
        "Missing Authorization header; send Authorization: Bearer <API key>",
      );
    const token = bearerToken(request);
    if (!token) throw new AppError("unauthorized", "Malformed Authorization header; expected Bearer <token>");
    const principal = await deps.apiKeys.authenticate(token);
    if (!principal) throw new AppError("unauthorized", "Invalid or revoked token");
    request.principal = principal;
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
