import type { Actor } from "../auth/actor.ts";
import { demoDataset, toEntityInput } from "./demo-data.ts";
import type { EntityService } from "./entity-service.ts";

/** Loads the demo CRM into a workspace (idempotent: entities are matched on externalId). */
export async function loadDemoData(entities: EntityService, actor: Actor) {
  return entities.upsert(actor, { entities: demoDataset().map(toEntityInput) });
}
