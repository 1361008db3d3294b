import type { Actor } from "../auth/actor.ts";
import { findTemplate, findTheme } from "../catalog/catalog.ts";
import { notFound } from "../errors.ts";
import type { PresentationItemRow, PresentationRepository } from "./presentation-repository.ts";
import type {
  ListQuery,
  PresentationDetail,
  PresentationItem,
  PresentationList,
} from "./presentation-schemas.ts";

// Presenter: database rows → the API's shapes. Optional fields are left out rather than null.
function toItem(row: PresentationItemRow): PresentationItem {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    summary: row.summary ?? undefined,
    slideCount: row.slideCount,
    createdAt: row.createdAt.toISOString(),
    templateName: findTemplate(row.templateId)?.name,
    themeName: findTheme(row.themeId)?.name,
  };
}

export function createPresentationService(deps: { presentations: PresentationRepository }) {
  const repo = deps.presentations;

  return {
    async list(actor: Actor, query: ListQuery): Promise<PresentationList> {
      const { rows, total } = await repo.list(actor.workspaceId, query.limit, query.offset);
      return { items: rows.map(toItem), total };
    },

    async get(actor: Actor, id: string): Promise<PresentationDetail> {
      const found = await repo.get(actor.workspaceId, id.toLowerCase());
      if (!found) throw notFound(`Presentation ${id}`);
      return {
        ...toItem(found),
        templateId: found.templateId ?? undefined,
        themeId: found.themeId ?? undefined,
        failureReason: found.failureReason ?? undefined,
        updatedAt: found.updatedAt.toISOString(),
        slides: found.slides.map((s) => ({
          index: s.index,
          layoutName: s.layoutName ?? undefined,
          placeholders: s.placeholders,
        })),
        discussionTopics: found.topics.map((t) => ({
          topic: t.topic,
          details: t.details,
          notes: t.notes ?? undefined,
        })),
      };
    },
  };
}

export type PresentationService = ReturnType<typeof createPresentationService>;
