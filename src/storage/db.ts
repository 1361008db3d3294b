import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseOptions =
  | { kind: "pglite"; dataDir?: string; loadDataDir?: Blob }
  | { kind: "postgres"; url: string; maxConnections?: number };

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Whether pgvector is installed: nearest-neighbour search uses HNSW, else exact scoring. */
  vector: boolean;
  /** Raw SQL for the few callers (queue, tests) that need it. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** pg-boss's way in: parameterised statements, or several statements without parameters. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** LISTEN on a channel; the returned function stops listening. Reaches every process on a server. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
// Any fixed number works; it only has to be the same in every Decksmith process.
const MIGRATION_LOCK_KEY = 7_251_003;
const ANALYZE_EVERY_MS = 10 * 60_000;
// Wider HNSW candidate lists for recall (bench/search.ts: recall@10 against exact 0.84 at 100,
// 0.94 at 200, 1.00 at 400, for ~1 ms more), and iterative scans so a workspace filter cannot
// starve the result list.
const VECTOR_SEARCH_SETTINGS = "set hnsw.ef_search = 400; set hnsw.iterative_scan = relaxed_order;";

/** Creates the pgvector extension where the server has it; false (with a warning) otherwise. */
async function enableVector(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query("select 1 from pg_available_extensions where name = 'vector'");
  if (rows.length === 0) {
    console.warn(
      "pgvector is not installed on this PostgreSQL server: semantic search scores every entity exactly (slower on large workspaces). Install pgvector for HNSW indexes.",
    );
    return false;
  }
  try {
    await pool.query("create extension if not exists vector");
    return true;
  } catch (err) {
    console.warn(
      `pgvector is available but could not be enabled (${(err as Error).message}); using exact scoring.`,
    );
    return false;
  }
}

export function databaseOptionsFrom(storage: { dataDir: string; databaseUrl?: string }): DatabaseOptions {
  return storage.databaseUrl
    ? { kind: "postgres", url: storage.databaseUrl }
    : { kind: "pglite", dataDir: path.join(storage.dataDir, "db") };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === "pglite" ? openPglite(options) : openPostgres(options);
}

async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<Database> {
  const release = options.dataDir ? lockDataDir(path.dirname(options.dataDir)) : () => {};
  let client: PGlite;
  try {
    client = await PGlite.create(options.dataDir, {
      loadDataDir: options.loadDataDir,
      extensions: { vector },
    });
    await client.exec(`create extension if not exists vector; ${VECTOR_SEARCH_SETTINGS}`);
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  // PGlite runs no autovacuum, so planner statistics would stay as they were when tables were
  // empty and queries would ignore their indexes. Refresh them soon after start (off the start-up
  // path: the last run's statistics are on disk meanwhile) and every few minutes.
  const analyze = () => client.exec("analyze").catch(() => {});
  const first = setTimeout(analyze, 2_000);
  const timer = setInterval(analyze, ANALYZE_EVERY_MS);
  first.unref();
  timer.unref();
  return {
    db,
    kind: "pglite",
    vector: true,
    query: async (text, params) => (await client.query(text, params)).rows as never,
    executeSql: async (text, values) => {
      if (values?.length) return client.query(text, values);
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, onPayload);
      return () => stop();
    },
    notify: async (channel, payload) => {
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await client.close();
      release();
    },
  };
}

async function openPostgres(options: { url: string; maxConnections?: number }): Promise<Database> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
  // An idle connection the server drops (restart, failover, admin kill) must not crash the
  // process: the pool discards it and opens a new one on the next query.
  pool.on("error", (err) => console.warn(`PostgreSQL connection lost: ${err.message}`));
  // Fail at start, with the server's own message, rather than on the first request.
  await pool.query("select 1");
  const hasVector = await enableVector(pool);
  if (hasVector) pool.on("connect", (client) => void client.query(VECTOR_SEARCH_SETTINGS).catch(() => {}));
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    vector: hasVector,
    query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    listen: (channel, onPayload) => listenOnServer(options.url, channel, onPayload),
    notify: async (channel, payload) => {
      await pool.query("select pg_notify($1, $2)", [channel, payload]);
    },
    migrate: async () => {
      // Several processes may start at once against one server: one migrates, the others wait.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client }), { migrationsFolder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Runs hand-written SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function selectRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * LISTEN on its own connection (a pooled one would be handed to other queries), reconnecting
 * after a dropped connection, so notifications from every process keep arriving.
 */
async function listenOnServer(url: string, channel: string, onPayload: (payload: string) => void) {
  let client: pg.Client | undefined;
  let stopped = false;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (n) => n.channel === channel && onPayload(n.payload ?? ""));
    c.on("error", () => {
      c.end().catch(() => {});
      if (!stopped) setTimeout(() => void connect().catch(() => {}), 1_000).unref();
    });
    await c.connect();
    await c.query(`listen ${pg.escapeIdentifier(channel)}`);
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => {});
  };
}
