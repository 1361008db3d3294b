import type { Container } from "../container.ts";
import { GENERATE_QUEUE } from "../generation/generation-service.ts";
import { sweepExpiredOAuthRecords } from "../oauth/oauth-adapter.ts";
import { DELIVER_QUEUE } from "../webhooks/webhook-service.ts";
import { createSweeper } from "./sweeper.ts";

// The job worker: runs generations and sweeps up abandoned ones. In `decksmith serve` by default,
// or on its own with `decksmith worker` (any number of them against one PostgreSQL server).

const SWEEP_EVERY_MS = 15_000;
/** Webhook deliveries wait on other servers, not on this CPU: several at once. */
const WEBHOOK_CONCURRENCY = 8;
/** Progress events are for following and resuming a stream, not an audit log (revisions are). */
const EVENT_RETENTION_DAYS = 30;

export async function startWorker(c: Container, options: { concurrency: number }) {
  const sweeper = createSweeper({
    lifecycle: c.lifecycle,
    queue: c.queue,
    bus: c.bus,
    maxAttempts: c.config.generation.maxAttempts,
    unclaimedMs: 60_000,
    log: c.log,
  });
  await c.queue.work<{ presentationId: string }>(GENERATE_QUEUE, options.concurrency, ({ presentationId }) =>
    c.generation.run(presentationId),
  );
  await c.queue.work<{ deliveryId: string }>(DELIVER_QUEUE, WEBHOOK_CONCURRENCY, ({ deliveryId }) =>
    c.webhooks.deliver(deliveryId),
  );
  // On the embedded database this process is the only one, so every lease left over is a dead one.
  await sweeper.sweep({ afterRestart: c.database.kind === "pglite" });
  // Housekeeping, each chore on its own: one failing does not stop the others.
  const chores: [string, () => Promise<unknown>][] = [
    ["sweep", () => sweeper.sweep()],
    ["webhook sweep", () => c.webhooks.requeueStalled(60_000)],
    ["idempotency purge", () => c.idempotency.purgeExpired()],
    ["event prune", () => c.eventRepository.prune(EVENT_RETENTION_DAYS)],
    ["expired OAuth records sweep", () => sweepExpiredOAuthRecords(c.database.db)],
  ];
  const timer = setInterval(() => {
    for (const [name, chore] of chores) {
      chore().catch((err: Error) => c.log.warn({ err: err.message }, `${name} failed`));
    }
  }, SWEEP_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
