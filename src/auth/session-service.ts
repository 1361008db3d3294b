import { and, eq, gt, lt } from "drizzle-orm";
import { newId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import { sessions, users } from "../storage/schema.ts";
import { newToken, sha256 } from "./secrets.ts";

// Browser sessions for the web pages. The cookie holds a random token; the database holds its
// hash, so a leaked database cannot be replayed as cookies.

export type WebSession = {
  userId: string;
  email: string;
  name: string;
  csrfToken: string;
};

export function createSessionService(deps: { db: Db; ttlMs: number; now?: () => Date }) {
  const { db, ttlMs } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = newToken();
      const expiresAt = new Date(now().getTime() + ttlMs);
      await db.insert(sessions).values({
        id: newId(),
        userId,
        tokenHash: sha256(token),
        csrfToken: newToken(),
        expiresAt,
      });
      // Opportunistic sweep so expired rows do not pile up.
      await db.delete(sessions).where(lt(sessions.expiresAt, now()));
      return { token, expiresAt };
    },

    async resolve(token: string | undefined): Promise<WebSession | undefined> {
      if (!token || token.length > 100) return undefined;
      const [row] = await db
        .select({
          userId: sessions.userId,
          csrfToken: sessions.csrfToken,
          email: users.email,
          name: users.name,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, sha256(token)), gt(sessions.expiresAt, now())));
      return row;
    },

    async destroy(token: string | undefined): Promise<void> {
      if (token) await db.delete(sessions).where(eq(sessions.tokenHash, sha256(token)));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
