import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, demoClient, type RunningServer, runCli, startServer } from "../../test/cli.ts";
import { type Cluster, freePort, startCluster } from "../../test/postgres-cluster.ts";
import { TEST_EMBEDDINGS_DIR } from "../../test/setup-embeddings.ts";
import { collectEvents } from "../../test/sse.ts";
import { openDatabase } from "../storage/db.ts";

// Scaled out on PostgreSQL: `serve --no-worker` takes the request, a separate `decksmith worker`
// process generates the deck.

const cluster = await startCluster();
const skipped = "skipped" in cluster ? cluster.skipped : undefined;
if (skipped) console.warn(`[worker e2e] skipped: ${skipped}`);

describe.skipIf(skipped)("decksmith worker beside serve --no-worker", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-worker-"));
  let server: RunningServer | undefined;
  let env: Record<string, string>;
  let worker: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    const c = cluster as Cluster;
    const admin = await openDatabase({ kind: "postgres", url: c.url("postgres"), maxConnections: 1 });
    await admin.query("create database scaled");
    await admin.close();
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: c.url("scaled"),
      LOG_LEVEL: "warn",
      EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_DIR,
    };
  });
  afterAll(async () => {
    worker?.kill("SIGTERM");
    await server?.stop();
    (cluster as Cluster).stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("validates its options", async () => {
    const res = await runCli(["worker", "--concurrency", "0"], env);
    expect(res.code).toBe(1);
    expect(res.stdout + res.stderr).toMatch(/--concurrency must be a whole number from 1 to 64/);
  });

  it("generates what the API queued, and the API process streams the worker's progress", async () => {
    const port = await freePort();
    server = await startServer({ ...env, PORT: String(port) }, ["--json", "--no-worker"]);
    const client = demoClient(server, port);
    const { status: code, presentationId } = await client.generateAsync({
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
    });
    expect(code).toBe(202);
    // No worker yet: the job waits in the database.
    await new Promise((r) => setTimeout(r, 500));
    expect(await client.status(presentationId)).toBe("generating");

    // The progress stream is served by the API process; the events come from the worker process.
    const streamed = collectEvents(
      `${client.base}/v1/presentations/${presentationId}/events`,
      client.headers,
      (e) => e.event === "presentation.ready",
      30_000,
    );
    worker = spawn(process.execPath, [BIN, "worker", "--concurrency", "2"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    worker.stdout?.on("data", (d) => (output += d));
    await expect
      .poll(() => output, { timeout: 20_000 })
      .toMatch(/worker ready: 2 generations at once \(postgres\)/);
    await expect.poll(() => client.status(presentationId), { timeout: 20_000 }).toBe("ready");
    const events = (await streamed).map((e) => e.event);
    expect(events[0]).toBe("status");
    expect(events).toContain("outline");
    expect(events.filter((e) => e === "slide").length).toBeGreaterThan(3);
    expect(events.at(-1)).toBe("presentation.ready");
  }, 60_000);
});
