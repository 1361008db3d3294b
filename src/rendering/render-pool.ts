import { Piscina } from "piscina";
import { AppError } from "../errors.ts";
import type { RenderableDeck } from "./render.ts";
import type { RenderOutcome, RenderTask } from "./render-worker.ts";

// Exports render in worker threads so a 200 ms PDF never blocks the event loop that answers every
// other request. Threads start on first use (or warm()), stay while busy, and exit when idle.

export type Renderer = {
  render(deck: RenderableDeck, format: RenderTask["format"]): Promise<Buffer>;
  /** Starts the threads now, so the first export does not pay for loading fonts and modules. */
  warm(): void;
  /** Threads running now and tasks they finished, for logs and tests. */
  stats(): { threads: number; completed: number };
  close(): Promise<void>;
};

/** The worker's entry: the bundled file beside dist/decksmith.mjs, or a tsx loader from sources. */
function workerEntry(): string {
  const here = import.meta.url;
  return here.endsWith(".mjs")
    ? new URL("./render-worker.mjs", here).href
    : new URL("./render-worker-loader.mjs", here).href;
}

export function createRenderPool(options: { threads: number; idleTimeoutMs?: number }): Renderer {
  let pool: Piscina<RenderTask, RenderOutcome> | undefined;
  const started = () => {
    pool ??= new Piscina({
      filename: workerEntry(),
      minThreads: 1,
      maxThreads: options.threads,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
    });
    return pool;
  };
  return {
    async render(deck, format) {
      // The deck is copied to the worker; strip it to what rendering reads.
      const task: RenderTask = {
        deck: {
          name: deck.name,
          slides: deck.slides,
          discussionTopics: deck.discussionTopics,
          themeId: deck.themeId,
        },
        format,
      };
      const outcome = await started().run(task);
      if (!outcome.ok) throw new AppError(outcome.code, outcome.message, outcome.details);
      return Buffer.from(outcome.bytes.buffer, outcome.bytes.byteOffset, outcome.bytes.byteLength);
    },
    warm() {
      started();
    },
    stats() {
      return { threads: pool?.threads.length ?? 0, completed: pool?.completed ?? 0 };
    },
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
