import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { SecretBox } from "../auth/secret-box.ts";
import { sha256 } from "../auth/secrets.ts";
import type { Db } from "../storage/db.ts";
import { oauthRecords } from "../storage/schema.ts";

// oidc-provider's storage interface over one PostgreSQL table. A record's id is a bearer secret
// for codes, tokens and sessions, so only its SHA-256 is stored; the provider always asks by id,
// and the id is put back into the payload it reads. Client secrets must be compared, so they are
// sealed rather than hashed. Every delete calls `onRevoke`, so caches of live tokens forget at once.

type Payload = Record<string, unknown> & { jti?: string };

const str = (value: unknown) => (typeof value === "string" ? value : null);

/** Where a record belongs: its grant, its session uid, whose it is and which client's. */
function indexColumns(kind: string, id: string, payload: Payload) {
  return {
    grantId: kind === "Grant" ? id : str(payload.grantId),
    uid: kind === "Session" ? str(payload.uid) : null,
    accountId: str(payload.accountId),
    clientId: kind === "Client" ? id : str(payload.clientId),
  };
}

export type OAuthAdapterDeps = {
  db: Db;
  /** Seals client secrets; a key of its own, derived from the server secret. */
  box: SecretBox;
  onRevoke: () => void;
  now?: () => Date;
};

export function createOAuthAdapter(deps: OAuthAdapterDeps) {
  const { db, box } = deps;
  const now = deps.now ?? (() => new Date());
  const live = () => or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, now()));

  function toStored(payload: Payload): Payload {
    const { jti: _id, client_secret, ...rest } = payload;
    return typeof client_secret === "string"
      ? { ...rest, client_secret_sealed: box.seal(client_secret) }
      : rest;
  }

  function fromStored(stored: Payload, id?: string): Payload {
    const { client_secret_sealed, ...rest } = stored;
    const payload: Payload = id ? { ...rest, jti: id } : rest;
    if (typeof client_secret_sealed === "string") payload.client_secret = box.open(client_secret_sealed);
    return payload;
  }

  return (kind: string) => {
    const mine = (id: string) => and(eq(oauthRecords.kind, kind), eq(oauthRecords.idHash, sha256(id)));

    return {
      async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
        const columns = {
          ...indexColumns(kind, id, payload),
          payload: toStored(payload),
          expiresAt: expiresIn ? new Date(now().getTime() + expiresIn * 1000) : null,
        };
        // workspace_ids is left alone on update: only the consent page writes it.
        await db
          .insert(oauthRecords)
          .values({ kind, idHash: sha256(id), ...columns })
          .onConflictDoUpdate({ target: [oauthRecords.kind, oauthRecords.idHash], set: columns });
      },

      async find(id: string): Promise<Payload | undefined> {
        const [row] = await db
          .select({ payload: oauthRecords.payload })
          .from(oauthRecords)
          .where(and(mine(id), live()));
        return row ? fromStored(row.payload, id) : undefined;
      },

      async findByUid(uid: string): Promise<Payload | undefined> {
        const [row] = await db
          .select({ payload: oauthRecords.payload })
          .from(oauthRecords)
          .where(and(eq(oauthRecords.kind, kind), eq(oauthRecords.uid, uid), live()));
        return row ? fromStored(row.payload) : undefined;
      },

      // The device flow is not enabled, so no record has a user code.
      async findByUserCode(): Promise<undefined> {
        return undefined;
      },

      async consume(id: string): Promise<void> {
        const consumed = Math.floor(now().getTime() / 1000);
        await db
          .update(oauthRecords)
          .set({ payload: sql`${oauthRecords.payload} || ${JSON.stringify({ consumed })}::jsonb` })
          .where(mine(id));
        deps.onRevoke();
      },

      async destroy(id: string): Promise<void> {
        await db.delete(oauthRecords).where(mine(id));
        deps.onRevoke();
      },

      async revokeByGrantId(grantId: string): Promise<void> {
        await db
          .delete(oauthRecords)
          .where(and(eq(oauthRecords.kind, kind), eq(oauthRecords.grantId, grantId)));
        deps.onRevoke();
      },
    };
  };
}

/** Deletes records past their expiry; the workers' sweep calls it. Returns how many went. */
export async function sweepExpiredOAuthRecords(db: Db, at: Date = new Date()): Promise<number> {
  const gone = await db
    .delete(oauthRecords)
    .where(lte(oauthRecords.expiresAt, at))
    .returning({ kind: oauthRecords.kind });
  return gone.length;
}
