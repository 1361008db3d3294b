// Read-API throughput: GET /v1/presentations (20 items from a workspace of 10,000) and
// GET /v1/presentations/{id} (20 slides), 50 connections, against the real `decksmith serve`
// process, on embedded PGlite and (when installed) a throwaway PostgreSQL server.
//
//   npm run bench:api                 # both engines, 10 s per endpoint
//   BENCH_SECONDS=5 npm run bench:api
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import { createContainer } from "../src/container.ts";
import { openDatabase } from "../src/storage/db.ts";
import { startServer } from "../test/cli.ts";
import { deck } from "../test/factories.ts";
import { freePort, startCluster } from "../test/postgres-cluster.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const PRESENTATIONS = 10_000;

type Seeded = { key: string; workspaceId: string; deckId: string };

async function seed(env: Record<string, string>): Promise<Seeded> {
  const c = await createContainer(loadConfig(env));
  try {
    const user = await c.users.create({ email: "bench@example.com", password: "bench-password" });
    const ws = await c.workspaces.create({ name: "Bench", plan: "pro" }, user.id);
    const { key } = await c.apiKeys.create(user.id, "bench");
    // 10,000 decks in one statement; the trigger keeps the workspace's count.
    await c.database.db.execute(sql`
      insert into presentations (id, workspace_id, name, status, summary, template_id, theme_id, slide_count, created_at, updated_at)
      select lpad(to_hex(g), 8, '0') || substr(md5(g::text), 1, 16), ${ws.id}, 'Deck ' || g, 'ready',
             'Summary of deck ' || g, 'account-review', 'clean', 8,
             now() - (g || ' minutes')::interval, now()
      from generate_series(1, ${PRESENTATIONS - 1}) g`);
    const big = await c.presentationRepository.insert(ws.id, deck({ name: "Twenty slides" }, 20));
    // Planner statistics as autovacuum would leave them after a bulk load.
    await c.database.query("analyze");
    return { key, workspaceId: ws.id, deckId: big.id };
  } finally {
    await c.database.close();
  }
}

type Result = { endpoint: string; rps: number; p50: number; p99: number; errors: number };

async function hammer(url: string, headers: Record<string, string>, endpoint: string): Promise<Result> {
  // Warm-up: JIT, caches, connection pool.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  return {
    endpoint,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

async function run(engine: string, env: Record<string, string>): Promise<void> {
  const seeded = await seed(env);
  const port = await freePort();
  const serverEnv = { ...env, PORT: String(port), LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0" };
  // Start-to-ready on an existing data directory, as a user sees it: spawn to "ready" printed.
  let t0 = performance.now();
  let server = await startServer(serverEnv);
  let startMs = performance.now() - t0;
  await server.stop();
  t0 = performance.now();
  server = await startServer(serverEnv);
  startMs = Math.min(startMs, performance.now() - t0);
  const reported = /in (\d+) ms/.exec(server.output())?.[1];
  try {
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${seeded.key}`, "x-workspace-id": seeded.workspaceId };
    const results = [
      await hammer(`${base}/v1/presentations`, headers, "GET /v1/presentations (20 of 10,000)"),
      await hammer(
        `${base}/v1/presentations/${seeded.deckId}`,
        headers,
        "GET /v1/presentations/{id} (20 slides)",
      ),
    ];
    const rss = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1];
    console.log(`\n## ${engine}: ${CONNECTIONS} connections, ${SECONDS} s per endpoint`);
    console.log(
      `start to ready: ${Math.round(startMs)} ms wall (spawn → ready line), ${reported} ms inside the process`,
    );
    console.log(`server RSS after the run: ${Math.round(Number(rss) / 1024)} MB`);
    console.log("| endpoint | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|");
    for (const r of results) console.log(`| ${r.endpoint} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  } finally {
    await server.stop();
  }
}

const only = process.argv[2];
console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
if (!only || only === "pglite") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-"));
  try {
    await run("embedded PGlite", { DATA_DIR: dataDir });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (!only || only === "postgres") {
  const cluster = await startCluster();
  if ("skipped" in cluster) console.log(`\nPostgreSQL skipped: ${cluster.skipped}`);
  else {
    try {
      const admin = await openDatabase({ kind: "postgres", url: cluster.url("postgres"), maxConnections: 1 });
      await admin.query("create database bench");
      await admin.close();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-"));
      await run("PostgreSQL 15 server", { DATA_DIR: dataDir, DATABASE_URL: cluster.url("bench") });
    } finally {
      cluster.stop();
    }
  }
}
