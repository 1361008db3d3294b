// What OAuth costs a request, against the real `decksmith serve` process (embedded database):
// GET /v1/presentations/{id} with an API key and with an OAuth access token, interleaved, and MCP
// tools/call get_presentation with the OAuth token; then revocation, checked to refuse the very
// next request every time.
//
//   npm run bench:oauth                        # embedded database
//   BENCH_ENGINE=postgres npm run bench:oauth  # a throwaway PostgreSQL server
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { demoClient, startServer } from "../test/cli.ts";
import { connect } from "../test/oauth-client.ts";
import { freePort, startCluster } from "../test/postgres-cluster.ts";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1000);
const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 20);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ??
  Number.NaN;

async function main() {
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  // BENCH_ENGINE=postgres: a throwaway PostgreSQL server, where nothing is cached in-process and
  // every token is looked up in the database.
  const cluster = process.env.BENCH_ENGINE === "postgres" ? await startCluster() : undefined;
  if (cluster && "skipped" in cluster) throw new Error(cluster.skipped);
  console.log(`database: ${cluster ? "PostgreSQL server (no in-process cache)" : "embedded PGlite"}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: base,
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "0",
      OAUTH_REGISTRATIONS_PER_HOUR: "0",
      ...(cluster ? { DATABASE_URL: cluster.url("postgres") } : {}),
    },
    ["--json"],
  );
  try {
    const http = demoClient(server, port);
    const ready = server
      .output()
      .split("\n")
      .find((l) => l.includes('"status":"ready"'));
    const { demo } = JSON.parse(ready ?? "{}");
    const { presentationId } = await http.generateAsync({
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
    });
    while ((await http.status(presentationId)) !== "ready") await new Promise((r) => setTimeout(r, 50));
    const login = { password: demo.password as string };
    const { tokens } = await connect(base, demo.email, login);
    const url = `${base}/v1/presentations/${presentationId}`;
    const get = async (authorization: string) => {
      const response = await fetch(url, { headers: { authorization, "x-workspace-id": demo.workspaceId } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
    };
    const apiKey = http.headers.authorization;
    const oauth = `Bearer ${tokens.access_token}`;
    for (let i = 0; i < 100; i++) await Promise.all([get(apiKey), get(oauth)].slice(i % 2));
    const byKey: number[] = [];
    const byToken: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      for (const [auth, times] of i % 2
        ? ([
            [apiKey, byKey],
            [oauth, byToken],
          ] as const)
        : ([
            [oauth, byToken],
            [apiKey, byKey],
          ] as const)) {
        const t0 = performance.now();
        await get(auth);
        times.push(performance.now() - t0);
      }
    }

    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: oauth } },
      }),
    );
    const mcp: number[] = [];
    for (let i = 0; i < 50; i++)
      await client.callTool({ name: "get_presentation", arguments: { presentationId } });
    for (let i = 0; i < SAMPLES / 4; i++) {
      const t0 = performance.now();
      const result = await client.callTool({ name: "get_presentation", arguments: { presentationId } });
      mcp.push(performance.now() - t0);
      if (result.isError) throw new Error(JSON.stringify(result));
    }
    await client.close();

    // Revocation: the request right after the revocation answer must already be refused.
    let refusedAtOnce = 0;
    for (let i = 0; i < REVOCATIONS; i++) {
      const pair = await connect(base, demo.email, login);
      const bearer = `Bearer ${pair.tokens.access_token}`;
      await get(bearer); // cached now, where the cache is on
      await fetch(`${base}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token: pair.tokens.access_token as string,
          client_id: pair.client.clientId,
        }),
      });
      const after = await fetch(url, {
        headers: { authorization: bearer, "x-workspace-id": demo.workspaceId },
      });
      if (after.status === 401) refusedAtOnce++;
    }

    const row = (label: string, v: number[]) =>
      `| ${label} | ${v.length} | ${percentile(v, 50).toFixed(2)} ms | ${percentile(v, 95).toFixed(2)} ms | ${percentile(v, 99).toFixed(2)} ms |`;
    console.log("\n| request | samples | p50 | p95 | p99 |\n|---|---|---|---|---|");
    console.log(row("GET /v1/presentations/{id}, API key", byKey));
    console.log(row("GET /v1/presentations/{id}, OAuth token", byToken));
    console.log(row("MCP tools/call get_presentation, OAuth token", mcp));
    const overhead = percentile(byToken, 50) - percentile(byKey, 50);
    console.log(`\nOAuth token vs API key, p50: ${overhead >= 0 ? "+" : ""}${overhead.toFixed(3)} ms`);
    console.log(`refused on the first request after revocation: ${refusedAtOnce}/${REVOCATIONS}`);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    cluster?.stop();
  }
}

await main();
