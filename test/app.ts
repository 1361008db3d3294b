import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildServer } from "../src/api/server.ts";
import { loadConfig } from "../src/config.ts";
import { type Container, createContainer } from "../src/container.ts";
import { startWorker } from "../src/jobs/worker.ts";
import { openTestDatabase } from "./database.ts";
import { createDemoTenant } from "./factories.ts";
import { TEST_EMBEDDINGS_DIR } from "./setup-embeddings.ts";

export type TestApp = { app: FastifyInstance; c: Container; close: () => Promise<void> };

/** The real server and services over a private test database; requests go through app.inject. */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
  options: { now?: () => number; worker?: boolean } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_DIR,
    ...env,
  });
  const c = await createContainer(config, await openTestDatabase(), options);
  const app = await buildServer(c);
  beforeReady?.(app);
  await app.ready();
  const worker = options.worker ? await startWorker(c, { concurrency: 2 }) : undefined;
  return {
    app,
    c,
    close: async () => {
      worker?.stop();
      await app.close();
      await c.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type DemoApp = { t: TestApp; tenant: Awaited<ReturnType<typeof createDemoTenant>> };

/** A test app with a worker and a tenant whose workspace holds the demo CRM. */
export async function startDemoApp(env: Record<string, string> = {}): Promise<DemoApp> {
  const t = await createTestApp(env, undefined, { worker: true });
  return { t, tenant: await createDemoTenant(t.c) };
}
