import type { Command } from "commander";
import { loadConfig } from "../config.ts";
import { createContainer } from "../container.ts";
import { startWorker } from "../jobs/worker.ts";
import { printFailure } from "./output.ts";

// `decksmith worker`: generation jobs without the HTTP server, for scaling out on PostgreSQL.

export function registerWorkerCommand(program: Command): void {
  program
    .command("worker")
    .description(
      "Run generation jobs (no HTTP server). With DATABASE_URL, run as many as you like beside `serve --no-worker`",
    )
    .option("--concurrency <n>", "generations at once (default WORKER_CONCURRENCY, 4)")
    .action(async (options: { concurrency?: string }) => {
      try {
        const config = loadConfig();
        const concurrency = Number(options.concurrency ?? config.generation.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
          throw new Error("--concurrency must be a whole number from 1 to 64");
        }
        const container = await createContainer(config);
        const worker = await startWorker(container, { concurrency });
        let stopping = false;
        const stop = async (signal: string) => {
          if (stopping) return;
          stopping = true;
          process.stdout.write(`${signal}: finishing running jobs, then stopping\n`);
          worker.stop();
          await container.close();
          process.exit(0);
        };
        process.on("SIGINT", () => void stop("SIGINT"));
        process.on("SIGTERM", () => void stop("SIGTERM"));
        process.stdout.write(
          `Decksmith worker ready: ${concurrency} generations at once (${container.database.kind})\n`,
        );
      } catch (err) {
        printFailure({ json: false }, err);
        process.exit(1);
      }
    });
}
