import { sql } from "drizzle-orm";
import { newId } from "../ids.ts";
import { type Db, selectRows } from "../storage/db.ts";
import { createReadCache, type ReadCache } from "../storage/read-cache.ts";
import { discussionTopics, type PresentationStatus, presentations, slides } from "../storage/schema.ts";
import type { DiscussionTopic, Slide } from "./presentation-schemas.ts";

// SQL only. Every query is filtered by workspaceId: callers cannot forget to scope.
//
// Reads build their whole answer as one JSON value in one query: on the embedded database every
// query costs a fixed ~0.25 ms and every returned field is decoded in JavaScript, so one row with
// one field is the cheapest shape. Where this process owns the database, answers are also kept in
// a read cache that every write here clears after it commits.

export type PresentationItemRow = {
  id: string;
  name: string;
  status: PresentationStatus;
  summary: string | null;
  slideCount: number;
  templateId: string | null;
  themeId: string | null;
  createdAt: Date;
};

export type PresentationDetailRow = PresentationItemRow & {
  failureReason: string | null;
  revision: number;
  updatedAt: Date;
  slides: { index: number; layoutName: string | null; placeholders: Record<string, string> }[];
  topics: { topic: string; details: string; notes: string | null }[];
};

export type PresentationPage = { total: number; rows: PresentationItemRow[] };

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

type Json<T> = Omit<T, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };

// node-postgres parses json; PGlite may hand it back as text.
const parseJson = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

const itemFields = sql`'id', p.id, 'name', p.name, 'status', p.status, 'summary', p.summary,
  'slideCount', p.slide_count, 'templateId', p.template_id, 'themeId', p.theme_id,
  'createdAt', p.created_at`;

export function createPresentationRepository(
  db: Db,
  cache?: ReadCache<PresentationPage | PresentationDetailRow | null>,
) {
  const reads = cache ?? createReadCache({ enabled: false });

  async function cached<T extends PresentationPage | PresentationDetailRow | null>(
    key: string,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = reads.get(key);
    if (hit !== undefined) return hit as T;
    const value = await load();
    reads.set(key, value);
    return value;
  }

  return {
    /** One page of the workspace's decks, newest first, and the workspace's total. */
    list(workspaceId: string, limit: number, offset: number): Promise<PresentationPage> {
      return cached(`list:${workspaceId}:${limit}:${offset}`, async () => {
        const [row] = await selectRows<{ page: unknown }>(
          db,
          sql`select json_build_object(
              'total', (select presentation_count from workspaces where id = ${workspaceId}),
              'items', coalesce((select json_agg(json_build_object(${itemFields}))
                from (select * from presentations where workspace_id = ${workspaceId}
                      order by created_at desc, id desc limit ${limit} offset ${offset}) p), '[]')
            )::text as page`,
        );
        const page = parseJson<{ total: number | null; items: Json<PresentationItemRow>[] }>(row?.page);
        return {
          total: page.total ?? 0,
          rows: page.items.map((i) => ({ ...i, createdAt: new Date(i.createdAt) })),
        };
      });
    },

    /** A deck with its slides and discussion topics, or null. */
    get(workspaceId: string, id: string): Promise<PresentationDetailRow | null> {
      return cached(`get:${workspaceId}:${id}`, async () => {
        const [row] = await selectRows<{ deck: unknown }>(
          db,
          sql`select json_build_object(${itemFields},
              'failureReason', p.failure_reason, 'revision', p.revision, 'updatedAt', p.updated_at,
              'slides', coalesce((select json_agg(json_build_object('index', s.position,
                  'layoutName', s.layout_name, 'placeholders', s.placeholders) order by s.position)
                from slides s where s.presentation_id = p.id), '[]'),
              'topics', coalesce((select json_agg(json_build_object('topic', t.topic,
                  'details', t.details, 'notes', t.notes) order by t.position)
                from discussion_topics t where t.presentation_id = p.id), '[]')
            )::text as deck
            from presentations p where p.workspace_id = ${workspaceId} and p.id = ${id}`,
        );
        if (!row) return null;
        const deck = parseJson<Json<PresentationDetailRow>>(row.deck);
        return { ...deck, createdAt: new Date(deck.createdAt), updatedAt: new Date(deck.updatedAt) };
      });
    },

    /** Inserts a deck with its slides and topics in one transaction. */
    async insert(workspaceId: string, deck: NewDeck) {
      const row = await db.transaction(async (tx) => {
        const deckSlides = deck.slides ?? [];
        const [inserted] = await tx
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
        if (!inserted) throw new Error("insert returned no row");
        if (deckSlides.length > 0) {
          await tx.insert(slides).values(
            deckSlides.map((s, position) => ({
              presentationId: inserted.id,
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
            .values(topics.map((t, position) => ({ presentationId: inserted.id, position, ...t })));
        }
        return inserted;
      });
      reads.clear(); // after commit: a read in between would otherwise cache the old state
      return row;
    },
  };
}

export type PresentationRepository = ReturnType<typeof createPresentationRepository>;
