import { sql } from "drizzle-orm";
import { createApiKeyService } from "./auth/api-key-service.ts";
import { newToken } from "./auth/secrets.ts";
import { createUserService } from "./auth/user-service.ts";
import { loadDemoData } from "./entities/demo-loader.ts";
import type { Embedder } from "./entities/embedder.ts";
import { createEntityRepository } from "./entities/entity-repository.ts";
import { createEntityService } from "./entities/entity-service.ts";
import type { Db } from "./storage/db.ts";
import { users } from "./storage/schema.ts";
import { createWorkspaceService } from "./workspaces/workspace-service.ts";

export type DemoAccount = {
  email: string;
  password: string;
  workspaceId: string;
  workspaceName: string;
  apiKey: string;
};

export const DEMO_EMAIL = "demo@decksmith.local";

/**
 * On an empty database, creates a demo user, a pro workspace with the demo CRM, and an API key,
 * all in one transaction, and returns their secrets: the only time they exist in clear. Returns
 * undefined once any user exists, so later starts print nothing secret.
 */
export async function createDemoAccountIfEmpty(db: Db, embedder: Embedder): Promise<DemoAccount | undefined> {
  return db.transaction(async (tx) => {
    // Serializes concurrent first starts against one PostgreSQL server.
    await tx.execute(sql`lock table users in exclusive mode`);
    const [anyUser] = await tx.select({ id: users.id }).from(users).limit(1);
    if (anyUser) return undefined;
    const password = newToken().slice(0, 16);
    const user = await createUserService({ db: tx }).create({ email: DEMO_EMAIL, password, name: "Demo" });
    const workspace = await createWorkspaceService({ db: tx }).create(
      { name: "Demo workspace", plan: "pro" },
      user.id,
    );
    const key = await createApiKeyService({ db: tx }).create(user.id, "Demo key");
    const entities = createEntityService({
      db: tx,
      entities: createEntityRepository(tx),
      embedder,
      vectorIndex: false,
    });
    await loadDemoData(entities, {
      userId: user.id,
      via: "session",
      workspaceId: workspace.id,
      role: "owner",
      plan: "pro",
    });
    return {
      email: DEMO_EMAIL,
      password,
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      apiKey: key.key,
    };
  });
}
