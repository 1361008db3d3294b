import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../errors.ts";
import type { IdempotencyRepository } from "../idempotency/idempotency-repository.ts";
import { actorOf } from "./auth.ts";

// Idempotency-Key on the routes that create or change things (generate, edit, export, entity
// upserts): the first answer is stored for 24 hours and replayed for the same key and request; the
// same key with another request is refused (422); a duplicate that arrives while the first still
// runs gets 409. Keys belong to one workspace and one caller. Answers we should not keep (5xx,
// 429, 409) release the key instead, so the client's retry runs for real.

declare module "fastify" {
  interface FastifyRequest {
    idempotency?: { workspaceId: string; userId: string; key: string };
  }
}

export const idempotencyKeyHeader = z
  .string()
  .optional()
  .describe(
    "Makes a retry safe: the same key and request within 24 hours get the first answer again (1 to 255 printable characters)",
  );

const KEY = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ["content-type", "location", "preference-applied"];

/** JSON with sorted keys, so the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export type IdempotentHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function installIdempotency(
  app: FastifyInstance,
  repo: IdempotencyRepository,
  lockMs: number,
): IdempotentHook {
  app.addHook("onSend", async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    const status = reply.statusCode;
    if (status >= 500 || status === 429 || status === 409) {
      await repo.release(claim.workspaceId, claim.userId, claim.key);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await repo.complete(claim.workspaceId, claim.userId, claim.key, {
      status,
      body: typeof payload === "string" ? payload : "",
      headers,
    });
    return payload;
  });

  /** A preHandler for idempotent routes, after the workspace is resolved. */
  return async function begin(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers["idempotency-key"];
    if (key === undefined) return;
    if (typeof key !== "string" || !KEY.test(key)) {
      throw new AppError("invalid_request", "Idempotency-Key must be 1 to 255 printable characters", [
        { path: "headers.idempotency-key", message: "must be 1 to 255 printable characters" },
      ]);
    }
    const actor = actorOf(request);
    const hash = createHash("sha256")
      .update(`${request.method} ${request.url}\n${canonical(request.body)}`)
      .digest("hex");
    const state = await repo.claim(actor.workspaceId, actor.userId, key, hash, lockMs);
    switch (state.state) {
      case "claimed":
        request.idempotency = { workspaceId: actor.workspaceId, userId: actor.userId, key };
        return;
      case "other_request":
        throw new AppError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request; use a new key for a new request",
        );
      case "in_flight":
        throw new AppError(
          "conflict",
          "A request with this Idempotency-Key is still being processed; retry when it has answered",
        );
      case "done":
        return reply
          .code(state.answer.status)
          .headers({ ...state.answer.headers, "idempotent-replayed": "true" })
          .send(state.answer.body);
    }
  };
}
