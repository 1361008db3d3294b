import type { Actor } from "../auth/actor.ts";
import type { EntityRepository } from "../entities/entity-repository.ts";
import type { EntityService } from "../entities/entity-service.ts";
import type { Research } from "./deck-tools.ts";
import type { WorkspaceReader } from "./offline/composer.ts";

// The workspace's entities as generation reads them: always through the caller's actor, so a
// deck can only be grounded in its own workspace's data.

const query = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 1000);

export function workspaceReader(
  actor: Actor,
  deps: { entities: EntityService; entityRepository: EntityRepository },
): WorkspaceReader & Research {
  const search = async (text: string, types?: string[], limit = 10) =>
    query(text)
      ? (await deps.entities.search(actor, { query: query(text), types, limit: Math.min(50, limit) })).items
      : [];
  return {
    search,
    async get(id) {
      const record = await deps.entityRepository.get(actor.workspaceId, id.toLowerCase());
      return (
        record && {
          id: record.id,
          type: record.type,
          name: record.name,
          fields: record.fields,
          body: record.body,
          links: record.links,
        }
      );
    },
    linkedTo: (id, types) => deps.entityRepository.linkedTo(actor.workspaceId, id, types),
    ofType: (type) => deps.entityRepository.ofType(actor.workspaceId, type),
  };
}
