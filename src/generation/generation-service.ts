import type { Actor } from "../auth/actor.ts";
import { findTemplate } from "../catalog/catalog.ts";
import { AppError, notFound, parseInput } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import { ID_PATTERN } from "../ids.ts";
import type { Queue } from "../jobs/queue.ts";
import type { LifecycleRepository } from "../presentations/lifecycle-repository.ts";
import type { PresentationService } from "../presentations/presentation-service.ts";
import { parseSlides } from "../rendering/layouts.ts";
import type { GenerationRequest } from "../storage/schema.ts";
import { requireRole } from "../workspaces/workspace-service.ts";
import type { Draft } from "./deck-draft.ts";
import { waitUntilSettled } from "./deck-events.ts";
import type { Research } from "./deck-tools.ts";
import { type GenerateResult, generateInputSchema } from "./generation-schemas.ts";
import type { WorkspaceReader } from "./offline/composer.ts";
import { clip } from "./offline/format.ts";

// A deck's generation, from the request to `ready`, `failed` or `stopped`. The request creates the
// deck (status generating) and queues a job; whichever worker takes the job holds a lease on the
// deck while it composes, and commits the result as revision 1 only if it still holds the lease.

export const GENERATE_QUEUE = "generate-presentation";

/** Makes a deck's content from a request: the offline composer, or a language model. */
export type DeckComposer = (
  request: GenerationRequest,
  reader: WorkspaceReader & Research,
  signal: AbortSignal,
  progress?: ComposeProgress,
) => Promise<Draft>;

/** What a composer reports while it works: the outline, then each slide as it is written. */
export type ComposeProgress = {
  outline(titles: string[]): void;
  slide(n: number, of: number, title: string): void;
};

export type GenerationSettings = {
  /** How long a generate call waits for the deck before answering 202. */
  waitMs: number;
  /** How long one attempt may take before the deck fails. */
  timeoutMs: number;
  /** A worker's lease on a deck; renewed every third of it while working. */
  leaseMs: number;
  /** Attempts before a deck whose workers keep dying is failed. */
  maxAttempts: number;
};

type Deps = {
  lifecycle: LifecycleRepository;
  presentations: PresentationService;
  queue: Pick<Queue, "send">;
  bus: EventBus;
  composer: DeckComposer;
  /** Languages the composer writes, when it cannot write every language. */
  languages?: { pattern: RegExp; hint: string };
  /** The workspace's entities, read as the deck's creator would. */
  readerFor(workspaceId: string): Promise<WorkspaceReader & Research>;
  publicUrl: string;
  settings: GenerationSettings;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
};

/** What a failure says to the user: our own messages as they are, anything else in general terms. */
export function failureReason(err: unknown): string {
  if (err instanceof AppError) return err.message;
  if (err instanceof Error && err.name === "AbortError") return "Generation took too long and was stopped";
  return "Generation failed unexpectedly; the error is in the server log";
}

function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new AppError(
          "upstream_unavailable",
          `Generation took longer than ${Math.round(ms / 1000)} s and was stopped`,
        ),
      );
    }, ms);
  });
  return Promise.race([work(controller.signal), timeout]).finally(() => clearTimeout(timer));
}

export function createGenerationService(deps: Deps) {
  const { lifecycle, settings } = deps;
  const viewerUrl = (id: string) => `${deps.publicUrl}/p/${id}`;

  async function result(actor: Actor, id: string): Promise<GenerateResult> {
    const deck = await deps.presentations.get(actor, id);
    return {
      presentationId: deck.id,
      status: deck.status,
      name: deck.name,
      summary: deck.status === "generating" ? `Generating: ${deck.name}` : (deck.summary ?? ""),
      url: viewerUrl(deck.id),
      ...(deck.status === "failed" ? { failureReason: deck.failureReason ?? "Generation failed" } : {}),
    };
  }

  return {
    /**
     * Creates the deck and queues its generation, then waits up to `waitMs` (none when the
     * caller prefers to respond async) for it to settle. `created` says whether it settled.
     */
    async generate(actor: Actor, input: unknown, options: { respondAsync?: boolean } = {}) {
      requireRole(actor, "editor", "generate presentations");
      const request = parseInput(generateInputSchema, input ?? {});
      if (request.language && deps.languages && !deps.languages.pattern.test(request.language)) {
        throw new AppError("invalid_request", `Cannot write "${request.language}": ${deps.languages.hint}`, [
          { path: "language", message: deps.languages.hint },
        ]);
      }
      const { id } = await lifecycle.createGenerating(actor.workspaceId, {
        name: clip(request.instructions.split(/\n/)[0] ?? "Presentation", 80),
        createdBy: actor.userId,
        generation: request,
      });
      deps.log.info({ presentationId: id, templateId: request.templateId }, "generation requested");
      await deps.bus.publish(actor.workspaceId, id, { type: "status", data: { status: "generating" } });
      await deps.queue.send(
        GENERATE_QUEUE,
        { presentationId: id },
        { expireInSeconds: Math.ceil((settings.timeoutMs * 2) / 1000) },
      );
      if (!options.respondAsync && settings.waitMs > 0) {
        await waitUntilSettled(deps.bus, actor.workspaceId, id, settings.waitMs);
      }
      const body = await result(actor, id);
      return { settled: body.status !== "generating", body };
    },

    /** The job: claims the deck, composes it, and commits it as the next revision. */
    async run(presentationId: string): Promise<void> {
      const claim = await lifecycle.claim(presentationId, settings.leaseMs);
      if (!claim) return; // stopped, done, or another worker holds it
      const started = performance.now();
      const heartbeat = setInterval(() => {
        lifecycle.renew(claim.id, claim.token, settings.leaseMs).catch(() => {});
      }, settings.leaseMs / 3);
      try {
        const reader = await deps.readerFor(claim.workspaceId);
        // Progress is published in order, without holding up the composer.
        let published = Promise.resolve();
        const report = (event: Parameters<EventBus["publish"]>[2]) => {
          published = published.then(
            async () => void (await deps.bus.publish(claim.workspaceId, claim.id, event)),
          );
        };
        const progress: ComposeProgress = {
          outline: (titles) => report({ type: "outline", data: { slideCount: titles.length, titles } }),
          slide: (n, of, title) => report({ type: "slide", data: { n, of, title } }),
        };
        const draft = await withTimeout(
          (signal) => deps.composer(claim.generation, reader, signal, progress),
          settings.timeoutMs,
        );
        await published;
        parseSlides(draft.slides.map((s, index) => ({ index, ...s })));
        const template = findTemplate(claim.generation.templateId)?.name ?? claim.generation.templateId;
        const revision = await lifecycle.commit(
          claim.workspaceId,
          claim.id,
          { leaseToken: claim.token },
          {
            snapshot: draft,
            kind: "generate",
            instructions: claim.generation.instructions,
            changes: [`Generated ${draft.slides.length} slides from the ${template} template`],
            createdBy: claim.createdBy,
          },
        );
        const ms = Math.round(performance.now() - started);
        if (revision === undefined) {
          deps.log.info({ presentationId, ms }, "generation discarded: the deck was stopped or taken over");
        } else {
          deps.log.info({ presentationId, ms, slides: draft.slides.length }, "generation ready");
          await deps.bus.publish(claim.workspaceId, claim.id, {
            type: "presentation.ready",
            data: { revision, slideCount: draft.slides.length },
          });
        }
      } catch (err) {
        const reason = failureReason(err);
        if (!(err instanceof AppError)) deps.log.error({ presentationId, err }, "generation crashed");
        if (await lifecycle.fail(claim.id, reason, claim.token)) {
          await deps.bus.publish(claim.workspaceId, claim.id, {
            type: "presentation.failed",
            data: { reason },
          });
        }
        deps.log.warn({ presentationId, reason }, "generation failed");
      } finally {
        clearInterval(heartbeat);
      }
    },

    /** Stops a deck that is generating; a deck in any other state answers 409. */
    async stop(actor: Actor, id: string): Promise<GenerateResult> {
      requireRole(actor, "editor", "stop generations");
      if (!ID_PATTERN.test(id)) throw notFound(`Presentation ${id}`);
      const deck = await deps.presentations.get(actor, id);
      if (!(await lifecycle.stop(actor.workspaceId, deck.id))) {
        const now = await deps.presentations.get(actor, id);
        throw new AppError(
          "conflict",
          `The presentation is ${now.status}; only a generating presentation can be stopped`,
        );
      }
      await deps.bus.publish(actor.workspaceId, deck.id, { type: "presentation.stopped", data: {} });
      return result(actor, deck.id);
    },

    result,
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
