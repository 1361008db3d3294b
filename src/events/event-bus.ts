import type { Database } from "../storage/db.ts";
import type { EventRepository } from "./event-repository.ts";
import type { PresentationEvent, StoredEvent } from "./event-types.ts";

// Publishes presentation events (stored first, then announced with NOTIFY) and lets any process
// subscribe to a presentation's events from any point. A subscriber reads the log itself after
// each announcement, so a missed notification only delays events, it never loses them: a slow
// poll catches up either way.

const CHANNEL = "decksmith_events";
const POLL_MS = 2_000;

type Subscriber = {
  workspaceId: string;
  presentationId: string;
  lastId: number;
  onEvent(e: StoredEvent): void;
  busy: boolean;
  again: boolean;
};

export type EventBus = {
  publish(workspaceId: string, presentationId: string, event: PresentationEvent): Promise<StoredEvent>;
  /** Delivers the presentation's events after `afterId`, then new ones as they happen. */
  subscribe(
    workspaceId: string,
    presentationId: string,
    afterId: number,
    onEvent: (e: StoredEvent) => void,
  ): Promise<() => void>;
  /** Runs after every publish in this process (webhook deliveries). */
  onPublish(handler: (e: StoredEvent) => Promise<void>): void;
  close(): Promise<void>;
};

export function createEventBus(
  database: Database,
  events: EventRepository,
  log: (msg: string, err: unknown) => void,
): EventBus {
  const subscribers = new Set<Subscriber>();
  const publishHandlers: ((e: StoredEvent) => Promise<void>)[] = [];
  let unlisten: Promise<() => Promise<void>> | undefined;
  let poll: NodeJS.Timeout | undefined;

  async function drain(s: Subscriber) {
    if (s.busy) {
      s.again = true;
      return;
    }
    s.busy = true;
    try {
      do {
        s.again = false;
        for (const e of await events.after(s.workspaceId, s.presentationId, s.lastId)) {
          if (!subscribers.has(s)) return;
          s.lastId = e.id;
          s.onEvent(e);
        }
      } while (s.again);
    } catch (err) {
      log("event stream read failed", err);
    } finally {
      s.busy = false;
    }
  }

  function ensureListening() {
    unlisten ??= database.listen(CHANNEL, (payload) => {
      const presentationId = payload;
      for (const s of subscribers) if (s.presentationId === presentationId) void drain(s);
    });
    poll ??= setInterval(() => {
      for (const s of subscribers) void drain(s);
    }, POLL_MS);
    poll.unref();
    return unlisten;
  }

  return {
    async publish(workspaceId, presentationId, event) {
      const stored = await events.append(workspaceId, presentationId, event);
      await database.notify(CHANNEL, presentationId).catch((err) => log("notify failed", err));
      for (const handler of publishHandlers)
        await handler(stored).catch((err) => log("event handler failed", err));
      return stored;
    },
    async subscribe(workspaceId, presentationId, afterId, onEvent) {
      await ensureListening();
      const s: Subscriber = {
        workspaceId,
        presentationId,
        lastId: afterId,
        onEvent,
        busy: false,
        again: false,
      };
      subscribers.add(s);
      void drain(s);
      return () => {
        subscribers.delete(s);
      };
    },
    onPublish(handler) {
      publishHandlers.push(handler);
    },
    async close() {
      subscribers.clear();
      if (poll) clearInterval(poll);
      if (unlisten) await (await unlisten)().catch(() => {});
    },
  };
}
