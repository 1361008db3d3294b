import { and, asc, desc, eq } from "drizzle-orm";
import { newId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import {
  discussionTopics,
  type PresentationStatus,
  presentations,
  slides,
  workspaces,
} from "../storage/schema.ts";
import type { DiscussionTopic, Slide } from "./presentation-schemas.ts";

// SQL only. Every query is filtered by workspaceId: callers cannot forget to scope.

export type PresentationRow = typeof presentations.$inferSelect;

export type NewDeck = {
  name: string;
  status: PresentationStatus;
  summary?: string;
  templateId?: string;
  themeId?: string;
  createdBy?: string;
  createdAt?: Date;
  slides?: Omit<Slide, "index">[];
  discussionTopics?: DiscussionTopic[];
};

export function createPresentationRepository(db: Db) {
  return {
    async list(workspaceId: string, limit: number, offset: number) {
      const [rows, [workspace]] = await Promise.all([
        db
          .select()
          .from(presentations)
          .where(eq(presentations.workspaceId, workspaceId))
          .orderBy(desc(presentations.createdAt), desc(presentations.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ total: workspaces.presentationCount })
          .from(workspaces)
          .where(eq(workspaces.id, workspaceId)),
      ]);
      return { rows, total: workspace?.total ?? 0 };
    },

    async get(workspaceId: string, id: string) {
      const [row] = await db
        .select()
        .from(presentations)
        .where(and(eq(presentations.workspaceId, workspaceId), eq(presentations.id, id)));
      if (!row) return undefined;
      const [slideRows, topicRows] = await Promise.all([
        db.select().from(slides).where(eq(slides.presentationId, id)).orderBy(asc(slides.position)),
        db
          .select()
          .from(discussionTopics)
          .where(eq(discussionTopics.presentationId, id))
          .orderBy(asc(discussionTopics.position)),
      ]);
      return { row, slides: slideRows, topics: topicRows };
    },

    /** Inserts a deck with its slides and topics in one transaction. */
    async insert(workspaceId: string, deck: NewDeck): Promise<PresentationRow> {
      return db.transaction(async (tx) => {
        const deckSlides = deck.slides ?? [];
        const [row] = await tx
          .insert(presentations)
          .values({
            id: newId(deck.createdAt?.getTime()),
            workspaceId,
            name: deck.name,
            status: deck.status,
            summary: deck.summary,
            templateId: deck.templateId,
            themeId: deck.themeId,
            createdBy: deck.createdBy,
            slideCount: deckSlides.length,
            createdAt: deck.createdAt,
            updatedAt: deck.createdAt,
          })
          .returning();
        if (!row) throw new Error("insert returned no row");
        if (deckSlides.length > 0) {
          await tx.insert(slides).values(
            deckSlides.map((s, position) => ({
              presentationId: row.id,
              position,
              layoutName: s.layoutName,
              placeholders: s.placeholders,
            })),
          );
        }
        const topics = deck.discussionTopics ?? [];
        if (topics.length > 0) {
          await tx
            .insert(discussionTopics)
            .values(topics.map((t, position) => ({ presentationId: row.id, position, ...t })));
        }
        return row;
      });
    },
  };
}

export type PresentationRepository = ReturnType<typeof createPresentationRepository>;
