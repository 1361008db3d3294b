import type { EventBus } from "../events/event-bus.ts";
import { GENERATE_QUEUE } from "../generation/generation-service.ts";
import type { LifecycleRepository } from "../presentations/lifecycle-repository.ts";
import type { Queue } from "./queue.ts";

// No deck stays in `generating` because a process died. A worker renews its lease on the deck
// while it works; when a lease runs out, or no worker took a deck's job in time, the sweeper
// queues the deck again, or fails it with a reason once its attempts are used up.

export function createSweeper(deps: {
  lifecycle: LifecycleRepository;
  queue: Pick<Queue, "send">;
  bus: Pick<EventBus, "publish">;
  maxAttempts: number;
  unclaimedMs: number;
  log: { warn(obj: object, msg: string): void };
}) {
  return {
    /** `afterRestart`: this process owns the database and just started, so no lease is live. */
    async sweep(options: { afterRestart?: boolean } = {}): Promise<{ requeued: number; failed: number }> {
      const decks = await deps.lifecycle.abandoned({
        unclaimedMs: deps.unclaimedMs,
        everyLease: options.afterRestart,
      });
      let requeued = 0;
      let failed = 0;
      for (const deck of decks) {
        if (deck.attempts >= deps.maxAttempts) {
          const reason = `Generation was interrupted ${deck.attempts} times (its worker stopped); generate the presentation again`;
          if (await deps.lifecycle.fail(deck.id, reason)) {
            failed++;
            await deps.bus.publish(deck.workspaceId, deck.id, {
              type: "presentation.failed",
              data: { reason },
            });
          }
          deps.log.warn({ presentationId: deck.id, attempts: deck.attempts }, "generation abandoned");
          continue;
        }
        await deps.lifecycle.releaseLease(deck.id);
        await deps.queue.send(GENERATE_QUEUE, { presentationId: deck.id });
        requeued++;
        deps.log.warn({ presentationId: deck.id, attempts: deck.attempts }, "generation queued again");
      }
      return { requeued, failed };
    },
  };
}
