// MCP over Streamable HTTP against the real `decksmith serve` process: tools/call get_presentation
// (a 9-slide generated deck), one call at a time, through the MCP SDK's own client over loopback.
//
//   npm run bench:mcp
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { demoClient, startServer } from "../test/cli.ts";
import { freePort } from "../test/postgres-cluster.ts";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ??
  Number.NaN;

async function main() {
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-"));
  const port = await freePort();
  const server = await startServer(
    { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0" },
    ["--json"],
  );
  try {
    const http = demoClient(server, port);
    const { presentationId } = await http.generateAsync({
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
    });
    while ((await http.status(presentationId)) !== "ready") await new Promise((r) => setTimeout(r, 50));
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${http.base}/mcp`), {
        requestInit: { headers: { authorization: http.headers.authorization } },
      }),
    );
    const call = () => client.callTool({ name: "get_presentation", arguments: { presentationId } });
    for (let i = 0; i < 50; i++) await call(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      const result = await call();
      times.push(performance.now() - t0);
      if (result.isError) throw new Error(JSON.stringify(result));
    }
    // The same read over REST, for what MCP adds.
    const rest: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      await (
        await fetch(`${http.base}/v1/presentations/${presentationId}`, { headers: http.headers })
      ).json();
      rest.push(performance.now() - t0);
    }
    await client.close();
    const row = (label: string, v: number[]) =>
      `| ${label} | ${v.length} | ${percentile(v, 50).toFixed(1)} ms | ${percentile(v, 95).toFixed(1)} ms | ${percentile(v, 99).toFixed(1)} ms |`;
    console.log("\n| request | samples | p50 | p95 | p99 |\n|---|---|---|---|---|");
    console.log(row("MCP tools/call get_presentation", times));
    console.log(row("REST GET /v1/presentations/{id}", rest));
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
