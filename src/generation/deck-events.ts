import type { EventBus } from "../events/event-bus.ts";
import { SETTLED_TYPES } from "../events/event-types.ts";

/**
 * Resolves when the deck's generation is over (ready, failed or stopped), or after `timeoutMs`
 * either way. Reads the deck's event log, so the worker may be any process.
 */
export function waitUntilSettled(
  bus: EventBus,
  workspaceId: string,
  presentationId: string,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let finished = false;
    let unsubscribe: (() => void) | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      unsubscribe?.();
      resolve();
    };
    const timer = setTimeout(finish, timeoutMs);
    bus
      .subscribe(workspaceId, presentationId, 0, (e) => SETTLED_TYPES.has(e.type) && finish())
      .then((stop) => {
        unsubscribe = stop;
        if (finished) stop();
      }, finish);
  });
}
