import { and, desc, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Principal } from "../auth/actor.ts";
import { isScope, type Scope } from "../auth/scopes.ts";
import { sha256 } from "../auth/secrets.ts";
import { notFound } from "../errors.ts";
import type { Db } from "../storage/db.ts";
import type { ReadCache } from "../storage/read-cache.ts";
import { oauthRecords, workspaces } from "../storage/schema.ts";

// The resource server's side of OAuth: turning an access token into a Principal on every request,
// and the grants a user has given (Account → Connected apps). A token is good while its row exists
// (revocation deletes it), it has not expired, its audience is this server and its grant stands.

// Opaque tokens from oidc-provider: 256 random bits in base64url.
const ACCESS_TOKEN = /^[A-Za-z0-9_-]{43}$/;

type CachedToken = { principal: Principal; expiresAt: number };

export type ConnectedApp = {
  grantId: string;
  clientName: string;
  clientId: string;
  scopes: Scope[];
  workspaces: { id: string; name: string }[];
  createdAt: Date;
};

export function createGrantService(deps: {
  db: Db;
  /** This server's resource identifier (RFC 8707): tokens for any other audience are refused. */
  resource: string;
  cache: ReadCache<CachedToken>;
  now?: () => Date;
}) {
  const { db, cache, resource } = deps;
  const now = deps.now ?? (() => new Date());
  const grant = alias(oauthRecords, "grant");

  return {
    /** The principal for a bearer token, or undefined when it is not a live access token here. */
    async authenticate(token: string): Promise<Principal | undefined> {
      if (!ACCESS_TOKEN.test(token)) return undefined;
      const hash = sha256(token);
      let entry = cache.get(hash);
      if (!entry) {
        const [row] = await db
          .select({ payload: oauthRecords.payload, workspaceIds: grant.workspaceIds })
          .from(oauthRecords)
          .innerJoin(grant, and(eq(grant.kind, "Grant"), eq(grant.grantId, oauthRecords.grantId)))
          .where(and(eq(oauthRecords.kind, "AccessToken"), eq(oauthRecords.idHash, hash)));
        if (!row) return undefined;
        const { accountId, aud, scope, exp } = row.payload;
        if (typeof accountId !== "string" || typeof exp !== "number" || aud !== resource) return undefined;
        const scopes = typeof scope === "string" ? scope.split(" ").filter(isScope) : [];
        entry = {
          principal: {
            userId: accountId,
            via: "oauth",
            scopes: new Set(scopes),
            // A grant whose consent never finished reaches no workspace.
            workspaceIds: new Set(row.workspaceIds ?? []),
          },
          expiresAt: exp * 1000,
        };
        cache.set(hash, entry);
      }
      return entry.expiresAt > now().getTime() ? entry.principal : undefined;
    },

    /** Records the workspaces chosen on the consent page (replacing an earlier choice). */
    async recordWorkspaces(grantId: string, workspaceIds: string[]): Promise<void> {
      await db
        .update(oauthRecords)
        .set({ workspaceIds })
        .where(and(eq(oauthRecords.kind, "Grant"), eq(oauthRecords.idHash, sha256(grantId))));
      cache.clear();
    },

    /** The apps this user has connected, newest first. */
    async listForUser(userId: string): Promise<ConnectedApp[]> {
      const client = alias(oauthRecords, "client");
      const rows = await db
        .select({
          grantId: oauthRecords.grantId,
          clientId: oauthRecords.clientId,
          payload: oauthRecords.payload,
          workspaceIds: oauthRecords.workspaceIds,
          createdAt: oauthRecords.createdAt,
          client: client.payload,
        })
        .from(oauthRecords)
        .leftJoin(client, and(eq(client.kind, "Client"), eq(client.clientId, oauthRecords.clientId)))
        .where(and(eq(oauthRecords.kind, "Grant"), eq(oauthRecords.accountId, userId)))
        .orderBy(desc(oauthRecords.createdAt));
      const ids = [...new Set(rows.flatMap((r) => r.workspaceIds ?? []))];
      const names = new Map(
        ids.length
          ? (
              await db
                .select({ id: workspaces.id, name: workspaces.name })
                .from(workspaces)
                .where(inArray(workspaces.id, ids))
            ).map((w) => [w.id, w.name])
          : [],
      );
      return rows.map((r) => ({
        grantId: r.grantId ?? "",
        clientId: r.clientId ?? "",
        clientName: String(r.client?.client_name ?? r.clientId ?? "Unknown app"),
        scopes: grantedScopes(r.payload),
        workspaces: (r.workspaceIds ?? []).map((id) => ({ id, name: names.get(id) ?? id })),
        createdAt: r.createdAt,
      }));
    },

    /** Revokes one of the user's grants with every code and token issued under it. */
    async revoke(userId: string, grantId: string): Promise<void> {
      const [owned] = await db
        .select({ grantId: oauthRecords.grantId })
        .from(oauthRecords)
        .where(
          and(
            eq(oauthRecords.kind, "Grant"),
            eq(oauthRecords.idHash, sha256(grantId)),
            eq(oauthRecords.accountId, userId),
          ),
        );
      if (!owned) throw notFound("Connected app");
      await db.delete(oauthRecords).where(eq(oauthRecords.grantId, grantId));
      cache.clear();
    },
  };
}

/** The resource scopes a grant holds (oidc-provider keeps them per resource server). */
function grantedScopes(payload: Record<string, unknown>): Scope[] {
  const resources = (payload.resources ?? {}) as Record<string, string>;
  const scopes = Object.values(resources).flatMap((s) => s.split(" "));
  return [...new Set(scopes)].filter(isScope);
}

export type GrantService = ReturnType<typeof createGrantService>;
