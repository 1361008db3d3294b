import { EventEmitter } from "node:events";

// Tells a waiting request that a deck left `generating`. In one process the worker's emit arrives
// at once; where the worker is another process, waiting falls back to re-reading the status.

export type DeckEvents = {
  settled(presentationId: string): void;
  /** Resolves when the deck is settled (per `isSettled`), or after `timeoutMs` either way. */
  wait(presentationId: string, timeoutMs: number, isSettled: () => Promise<boolean>): Promise<void>;
};

export function createDeckEvents(pollMs = 500): DeckEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    settled: (id) => emitter.emit(id),
    wait(id, timeoutMs, isSettled) {
      return new Promise<void>((resolve) => {
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          clearInterval(poll);
          emitter.off(id, finish);
          resolve();
        };
        const timer = setTimeout(finish, timeoutMs);
        const poll = setInterval(() => {
          isSettled().then(
            (yes) => yes && finish(),
            () => {},
          );
        }, pollMs);
        emitter.on(id, finish);
        // It may have settled before we started listening.
        isSettled().then(
          (yes) => yes && finish(),
          () => {},
        );
      });
    },
  };
}
