import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { AppError, notFound, parseInput } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import { createReadCache, type ReadCache } from "../storage/read-cache.ts";
import { apiKeys } from "../storage/schema.ts";
import type { Principal } from "./actor.ts";
import { API_KEY_PATTERN, newApiKey, sha256 } from "./secrets.ts";

export const apiKeyNameSchema = z.string().trim().min(1, "is required").max(100);

export type ApiKeyInfo = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

// lastUsedAt is a hint for people, not an audit log: writing it on every request would turn each
// read into a write, so it is refreshed at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;

type CachedKey = { principal: Principal; lastUsedAt: Date | null };

export function createApiKeyService(deps: { db: Db; cache?: ReadCache<CachedKey>; now?: () => Date }) {
  const { db } = deps;
  // Keyed by key hash; only live keys are cached, so random tokens cannot fill it.
  const cache = deps.cache ?? createReadCache<CachedKey>({ enabled: false });
  const now = deps.now ?? (() => new Date());
  const columns = {
    id: apiKeys.id,
    name: apiKeys.name,
    prefix: apiKeys.prefix,
    createdAt: apiKeys.createdAt,
    lastUsedAt: apiKeys.lastUsedAt,
    revokedAt: apiKeys.revokedAt,
  };

  return {
    /** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
    async create(userId: string, name: string): Promise<ApiKeyInfo & { key: string }> {
      const validName = parseInput(apiKeyNameSchema, name);
      const { key, prefix, hash } = newApiKey();
      const [row] = await db
        .insert(apiKeys)
        .values({ id: newId(), userId, name: validName, prefix, keyHash: hash })
        .returning(columns);
      if (!row) throw new AppError("internal_error", "Could not create the API key");
      return { ...row, key };
    },

    list(userId: string): Promise<ApiKeyInfo[]> {
      return db
        .select(columns)
        .from(apiKeys)
        .where(eq(apiKeys.userId, userId))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },

    /** Revokes one of the user's keys (any user's when userId is omitted, for operators). */
    async revoke(keyId: string, userId?: string): Promise<ApiKeyInfo> {
      const where = userId
        ? and(eq(apiKeys.id, keyId.toLowerCase()), eq(apiKeys.userId, userId))
        : eq(apiKeys.id, keyId.toLowerCase());
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: now() })
        .where(and(where, isNull(apiKeys.revokedAt)))
        .returning(columns);
      cache.clear();
      if (row) return row;
      const [existing] = await db.select(columns).from(apiKeys).where(where);
      if (!existing) throw notFound("API key");
      return existing; // already revoked: revoking again is harmless
    },

    /** The principal for a bearer token, or undefined when it is not a live API key. */
    async authenticate(token: string): Promise<Principal | undefined> {
      if (!API_KEY_PATTERN.test(token)) return undefined;
      const hash = sha256(token);
      let entry = cache.get(hash);
      if (!entry) {
        const [row] = await db
          .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt })
          .from(apiKeys)
          .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)));
        if (!row) return undefined;
        entry = {
          principal: { userId: row.userId, via: "api_key", apiKeyId: row.id },
          lastUsedAt: row.lastUsedAt,
        };
        cache.set(hash, entry);
      }
      const at = now();
      if (!entry.lastUsedAt || at.getTime() - entry.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        entry.lastUsedAt = at;
        await db
          .update(apiKeys)
          .set({ lastUsedAt: at })
          .where(eq(apiKeys.id, entry.principal.apiKeyId ?? ""));
      }
      return entry.principal;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
