import type { Container } from "../src/container.ts";
import { loadDemoData } from "../src/entities/demo-loader.ts";
import type { NewDeck } from "../src/presentations/presentation-repository.ts";
import type { Plan, Role } from "../src/storage/schema.ts";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function createUser(c: Container, name = "user") {
  return c.users.create({
    email: `${name}-${unique()}@example.com`,
    password: "correct horse battery",
    name,
  });
}

/** A user with a workspace of the given plan, their role in it, and an API key. */
export async function createTenant(c: Container, options: { plan?: Plan; role?: Role; name?: string } = {}) {
  const owner = await createUser(c, "owner");
  const workspace = await c.workspaces.create(
    { name: options.name ?? `Workspace ${unique()}`, plan: options.plan ?? "pro" },
    owner.id,
  );
  let user = owner;
  if (options.role && options.role !== "owner") {
    user = await createUser(c, options.role);
    await c.workspaces.addMember(workspace.id, user.id, options.role);
  }
  const { key } = await c.apiKeys.create(user.id, "test key");
  return {
    user,
    workspace,
    key,
    headers: { authorization: `Bearer ${key}`, "x-workspace-id": workspace.id },
  };
}

export function deck(overrides: Partial<NewDeck> = {}, slideCount = 3): NewDeck {
  return {
    name: `Deck ${unique()}`,
    status: "ready",
    summary: "A test deck",
    templateId: "account-review",
    themeId: "clean",
    slides: Array.from({ length: slideCount }, (_, i) => ({
      layoutName: i === 0 ? "title" : "bullets",
      placeholders: { title: `Slide ${i + 1}`, body: `Point one\nPoint two for slide ${i + 1}` },
    })),
    discussionTopics: [{ topic: "Renewal", details: "Discuss renewal timing", notes: "Ask about budget" }],
    ...overrides,
  };
}

/** A tenant whose workspace holds the demo CRM, and its Actor. */
export async function createDemoTenant(c: Container) {
  const tenant = await createTenant(c);
  const actor = await c.workspaces.resolveActor(
    { userId: tenant.user.id, via: "api_key" },
    tenant.workspace.id,
  );
  await loadDemoData(c.entities, actor);
  return { ...tenant, actor };
}
