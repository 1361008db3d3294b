import type { Actor } from "../auth/actor.ts";
import { AppError, notFound, parseInput } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import { ID_PATTERN } from "../ids.ts";
import type { LifecycleRepository } from "../presentations/lifecycle-repository.ts";
import type {
  PresentationDetailRow,
  PresentationRepository,
} from "../presentations/presentation-repository.ts";
import { parseSlides } from "../rendering/layouts.ts";
import type { DeckSnapshot } from "../storage/schema.ts";
import { requireRole } from "../workspaces/workspace-service.ts";
import { DeckDraft } from "./deck-draft.ts";
import type { Research } from "./deck-tools.ts";
import { type EditResult, editInputSchema } from "./generation-schemas.ts";
import type { DeckComposer } from "./generation-service.ts";
import type { WorkspaceReader } from "./offline/composer.ts";

// Edits, revisions and restores. An edit reads the deck at revision n, changes a draft, and
// commits revision n+1 only if the deck is still at n. If another edit committed first, an edit
// that can be replayed (the built-in editor: the same instructions on the newer deck) is applied
// again on top of it; one that cannot (a language model's) answers 409. No update is ever lost.

/** Changes a draft by instructions; `replayable` when running it again on a newer deck is cheap and safe. */
export type DeckEditor = {
  replayable: boolean;
  edit(
    env: { draft: DeckDraft; research: Research; recompose?: () => Promise<DeckSnapshot> },
    instructions: string,
    signal: AbortSignal,
  ): Promise<void>;
};

type Deps = {
  presentations: PresentationRepository;
  lifecycle: LifecycleRepository;
  editor: DeckEditor;
  composer: DeckComposer;
  bus: EventBus;
  readerFor(actor: Actor): WorkspaceReader & Research;
  timeoutMs: number;
};

const REPLAYS = 5;

export const snapshotOf = (row: PresentationDetailRow): DeckSnapshot => ({
  name: row.name,
  summary: row.summary ?? "",
  themeId: row.themeId ?? "clean",
  slides: row.slides.map((s) => ({ layoutName: s.layoutName ?? "bullets", placeholders: s.placeholders })),
  topics: row.topics.map((t) => ({
    topic: t.topic,
    details: t.details,
    ...(t.notes ? { notes: t.notes } : {}),
  })),
});

export function createEditingService(deps: Deps) {
  async function readyDeck(actor: Actor, id: string): Promise<PresentationDetailRow> {
    if (!ID_PATTERN.test(id)) throw notFound(`Presentation ${id}`);
    const row = await deps.presentations.get(actor.workspaceId, id.toLowerCase());
    if (!row) throw notFound(`Presentation ${id}`);
    if (row.status !== "ready") {
      throw new AppError(
        "presentation_not_ready",
        `The presentation is ${row.status}; only a ready presentation can be changed`,
      );
    }
    return row;
  }

  return {
    async edit(actor: Actor, id: string, input: unknown): Promise<EditResult> {
      requireRole(actor, "editor", "edit presentations");
      const { instructions } = parseInput(editInputSchema, input ?? {});
      const research = deps.readerFor(actor);
      for (let attempt = 0; attempt < REPLAYS; attempt++) {
        const row = await readyDeck(actor, id);
        const draft = new DeckDraft(snapshotOf(row));
        const request = await deps.lifecycle.generationRequest(actor.workspaceId, row.id);
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), deps.timeoutMs);
        try {
          await deps.editor.edit(
            {
              draft,
              research,
              recompose: request
                ? () =>
                    deps.composer({ ...request, themeId: draft.deck.themeId }, research, controller.signal)
                : undefined,
            },
            instructions,
            controller.signal,
          );
        } finally {
          clearTimeout(timer);
        }
        if (draft.changes.length === 0)
          return { status: "updated", changesApplied: [], revision: row.revision };
        parseSlides(draft.deck.slides.map((s, index) => ({ index, ...s })));
        const revision = await deps.lifecycle.commit(
          actor.workspaceId,
          row.id,
          { revision: row.revision },
          {
            snapshot: draft.deck,
            kind: "edit",
            instructions,
            changes: draft.changes,
            createdBy: actor.userId,
          },
        );
        if (revision !== undefined) {
          await deps.bus.publish(actor.workspaceId, row.id, {
            type: "presentation.updated",
            data: { revision, kind: "edit", changes: draft.changes },
          });
          return { status: "updated", changesApplied: draft.changes, revision };
        }
        if (!deps.editor.replayable) break;
      }
      throw new AppError(
        "conflict",
        "The presentation changed while this edit was being made; read it again and retry",
      );
    },

    async revisions(actor: Actor, id: string) {
      if (!ID_PATTERN.test(id)) throw notFound(`Presentation ${id}`);
      const row = await deps.presentations.get(actor.workspaceId, id.toLowerCase());
      if (!row) throw notFound(`Presentation ${id}`);
      const items = await deps.lifecycle.revisions(actor.workspaceId, row.id);
      return {
        current: row.revision,
        items: items.map((r) => ({
          number: r.number,
          kind: r.kind,
          ...(r.instructions ? { instructions: r.instructions } : {}),
          changes: r.changes,
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },

    /** Makes revision n the deck's content again, as a new revision. */
    async restore(actor: Actor, id: string, n: number): Promise<EditResult> {
      requireRole(actor, "editor", "restore revisions");
      const row = await readyDeck(actor, id);
      const snapshot = await deps.lifecycle.revisionSnapshot(actor.workspaceId, row.id, n);
      if (!snapshot) throw notFound(`Revision ${n} of presentation ${id}`);
      const changes = [`Restored revision ${n}`];
      const revision = await deps.lifecycle.commit(
        actor.workspaceId,
        row.id,
        { revision: row.revision },
        {
          snapshot,
          kind: "restore",
          changes,
          createdBy: actor.userId,
        },
      );
      if (revision === undefined) {
        throw new AppError("conflict", "The presentation changed while restoring; read it again and retry");
      }
      await deps.bus.publish(actor.workspaceId, row.id, {
        type: "presentation.updated",
        data: { revision, kind: "restore", changes },
      });
      return { status: "updated", changesApplied: changes, revision };
    },
  };
}

export type EditingService = ReturnType<typeof createEditingService>;
