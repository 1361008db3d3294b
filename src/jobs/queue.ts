import PgBoss from "pg-boss";
import type { Database } from "../storage/db.ts";

// Jobs run through pg-boss on the same database as everything else (embedded or server), so a
// job is committed as durably as the data it is about and any worker process can take it.

/** By default a job is tried once; Decksmith's sweeper decides about generations. */
export type SendOptions = {
  expireInSeconds?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
};

export type JobHandler<T> = (data: T) => Promise<void>;

export type Queue = {
  start(): Promise<void>;
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<void>;
  /** Runs `concurrency` local workers for a queue. */
  work<T extends object>(name: string, concurrency: number, handler: JobHandler<T>): Promise<void>;
  /** Whether this process has workers for the queue. */
  working(name: string): boolean;
  stop(): Promise<void>;
};

export function createQueue(database: Database, log: (message: string) => void): Queue {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: "pgboss",
    // Archive and delete old jobs; Decksmith's own state lives in its tables, not in job rows.
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 2,
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on("error", (err: Error) => log(`job queue: ${err.message}`));
  const workers = new Map<string, string[]>();
  const created = new Set<string>();
  let started: Promise<unknown> | undefined;

  // Started on first use, so commands that never queue anything never start pg-boss.
  async function ensureQueue(name: string) {
    started ??= boss.start();
    await started;
    if (created.has(name)) return;
    await boss.createQueue(name);
    created.add(name);
  }

  return {
    async start() {
      started ??= boss.start();
      await started;
    },
    async send(name, data, options) {
      await ensureQueue(name);
      // pg-boss checks the keys given, even undefined ones: pass only those set.
      await boss.send(name, data, {
        retryLimit: options?.retryLimit ?? 0,
        expireInSeconds: options?.expireInSeconds ?? 900,
        ...(options?.retryDelaySeconds !== undefined ? { retryDelay: options.retryDelaySeconds } : {}),
        ...(options?.retryBackoff !== undefined ? { retryBackoff: options.retryBackoff } : {}),
      });
      // Local workers poll every couple of seconds; wake them so a job starts at once.
      for (const id of workers.get(name) ?? []) boss.notifyWorker(id);
    },
    async work(name, concurrency, handler) {
      await ensureQueue(name);
      const ids: string[] = [];
      for (let i = 0; i < concurrency; i++) {
        ids.push(
          await boss.work(name, { pollingIntervalSeconds: 2, batchSize: 1 }, async (jobs) => {
            for (const job of jobs) await handler(job.data as never);
          }),
        );
      }
      workers.set(name, [...(workers.get(name) ?? []), ...ids]);
    },
    working: (name) => (workers.get(name)?.length ?? 0) > 0,
    async stop() {
      if (!started) return;
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 } as never);
      started = undefined;
    },
  };
}
