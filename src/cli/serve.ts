import type { Command } from "commander";
import { buildServer } from "../api/server.ts";
import { loadConfig } from "../config.ts";
import { createContainer } from "../container.ts";
import { createDemoAccountIfEmpty, type DemoAccount } from "../first-run.ts";
import { startWorker } from "../jobs/worker.ts";
import { printFailure } from "./output.ts";

function demoBanner(url: string, demo: DemoAccount): string {
  return [
    "",
    "First run: created a demo account. Its secrets are shown only this once.",
    `  Sign in:    ${url}/signin`,
    `  Email:      ${demo.email}`,
    `  Password:   ${demo.password}`,
    `  Workspace:  ${demo.workspaceName} (${demo.workspaceId})`,
    `  API key:    ${demo.apiKey}`,
    "",
    "Try it:",
    `  curl -H "Authorization: Bearer ${demo.apiKey}" ${url}/v1/workspaces`,
    "",
  ].join("\n");
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "Run the HTTP server (API, docs and web pages). Env: PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL",
    )
    .option("--json", "print one JSON object when ready (with the demo account on a first run)")
    .option("--no-worker", "do not run generation jobs in this process (run `decksmith worker` elsewhere)")
    .action(async (options: { json?: boolean; worker: boolean }) => {
      const started = performance.now();
      let container: Awaited<ReturnType<typeof createContainer>> | undefined;
      let app: Awaited<ReturnType<typeof buildServer>> | undefined;
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stdout.write(`${signal}: shutting down\n`);
        await app?.close(); // stops accepting, lets in-flight requests finish
        await container?.close();
        process.exit(0);
      };
      process.on("SIGINT", () => void stop("SIGINT"));
      process.on("SIGTERM", () => void stop("SIGTERM"));
      try {
        const config = loadConfig();
        container = await createContainer(config, undefined, {
          log: (line) => process.stdout.write(`${line}\n`),
        });
        const demo = await createDemoAccountIfEmpty(container.database.db, container.entities.embedder);
        app = await buildServer(container);
        container.renderer.warm();
        if (options.worker) await startWorker(container, { concurrency: config.generation.concurrency });
        await app.listen({ port: config.http.port, host: config.http.host });
        const address = app.server.address();
        const port = typeof address === "object" && address ? address.port : config.http.port;
        const url = config.http.publicUrl.replace(/:\d+$/, `:${port}`);
        const storage =
          container.database.kind === "pglite"
            ? `embedded PostgreSQL in ${config.storage.dataDir}`
            : "PostgreSQL server";
        const startMs = Math.round(performance.now() - started);
        const ready = options.json
          ? `${JSON.stringify({ status: "ready", url, database: container.database.kind, startMs, demo })}\n`
          : `Decksmith ready at ${url} (${storage}) in ${startMs} ms. API docs: ${url}/docs\n`;
        // One write, so whoever waits for "ready" also gets the demo account in the same chunk.
        process.stdout.write(demo && !options.json ? ready + demoBanner(url, demo) : ready);
      } catch (err) {
        printFailure({ json: Boolean(options.json) }, err);
        await container?.close().catch(() => {});
        process.exit(1);
      }
    });
}
