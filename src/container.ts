import path from "node:path";
import type Provider from "oidc-provider";
import { createApiKeyService } from "./auth/api-key-service.ts";
import { createSecretBox } from "./auth/secret-box.ts";
import { loadSigningSecret } from "./auth/server-secret.ts";
import { createSessionService } from "./auth/session-service.ts";
import { createUserService } from "./auth/user-service.ts";
import type { Config } from "./config.ts";
import { createEmbedder } from "./entities/create-embedder.ts";
import type { Embedder } from "./entities/embedder.ts";
import { createEntityRepository } from "./entities/entity-repository.ts";
import { createEntityService } from "./entities/entity-service.ts";
import { createEventBus } from "./events/event-bus.ts";
import { createEventRepository } from "./events/event-repository.ts";
import { createAgent } from "./generation/agent.ts";
import { createEditingService } from "./generation/editing-service.ts";
import { createGenerationService } from "./generation/generation-service.ts";
import { workspaceReader } from "./generation/workspace-reader.ts";
import { createIdempotencyRepository } from "./idempotency/idempotency-repository.ts";
import { createQueue } from "./jobs/queue.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createGrantService } from "./oauth/grant-service.ts";
import { createOAuthAdapter } from "./oauth/oauth-adapter.ts";
import { createOAuthProvider, resourceIdentifier } from "./oauth/provider.ts";
import { createLifecycleRepository } from "./presentations/lifecycle-repository.ts";
import { createPresentationRepository } from "./presentations/presentation-repository.ts";
import { createPresentationService } from "./presentations/presentation-service.ts";
import { createDownloadSigner } from "./rendering/download-signer.ts";
import { createExportService } from "./rendering/export-service.ts";
import { createRenderPool } from "./rendering/render-pool.ts";
import { createFileBlobStore } from "./storage/blobs.ts";
import { type Database, databaseOptionsFrom, openDatabase } from "./storage/db.ts";
import { createReadCache } from "./storage/read-cache.ts";
import { createWebhookRepository } from "./webhooks/webhook-repository.ts";
import { createWebhookService } from "./webhooks/webhook-service.ts";
import { createWorkspaceService } from "./workspaces/workspace-service.ts";

// Wires repositories into services. Adapters (REST, web, CLI) receive the container and call
// services; nothing below this file knows which adapter called it.

export type Container = ReturnType<typeof wire> & {
  config: Config;
  database: Database;
  /** Stops the render threads, then closes the database. */
  close(): Promise<void>;
};

function wire(config: Config, database: Database, embedder: Embedder, now: () => number, log: Logger) {
  const { db } = database;
  // Reads are cached only where this process owns the database (see read-cache.ts).
  const exclusive = database.kind === "pglite";
  const entityRepository = createEntityRepository(db);
  const presentationReads = createReadCache<never>({ enabled: exclusive, maxEntries: 2_000 });
  const presentationRepository = createPresentationRepository(db, presentationReads);
  const lifecycle = createLifecycleRepository(db, presentationReads);
  const presentations = createPresentationService({ presentations: presentationRepository });
  const renderer = createRenderPool({ threads: config.renderThreads });
  const workspaces = createWorkspaceService({ db, cache: createReadCache({ enabled: exclusive }) });
  const entities = createEntityService({
    db,
    entities: entityRepository,
    embedder,
    vectorIndex: database.vector,
  });
  const queue = createQueue(database, (line) => log.warn(line));
  const eventRepository = createEventRepository(db);
  const bus = createEventBus(database, eventRepository, (msg, err) => log.warn({ err }, msg));
  const agent = createAgent(config, log);
  const serverSecret = loadSigningSecret(config.storage.dataDir, config.signingSecret);
  const webhooks = createWebhookService({
    repo: createWebhookRepository(db),
    box: createSecretBox(serverSecret),
    queue,
    presentations,
    operatorActor: (workspaceId) => workspaces.operatorActor(workspaceId),
    settings: config.webhooks,
    log,
  });
  bus.onPublish((event) => webhooks.dispatch(event));
  const users = createUserService({ db });
  // Live OAuth tokens are cached like API keys; every revocation path clears the cache.
  const tokenCache = createReadCache<never>({ enabled: exclusive });
  const grants = createGrantService({
    db,
    resource: resourceIdentifier(config.http.publicUrl),
    cache: tokenCache,
  });
  const oauthAdapter = createOAuthAdapter({
    db,
    box: createSecretBox(serverSecret, "oauth client secrets"),
    onRevoke: () => tokenCache.clear(),
  });
  let provider: Promise<Provider> | undefined;
  /** The authorization server, made on first use: only the HTTP server needs it. */
  const oauthProvider = () => {
    provider ??= createOAuthProvider({
      publicUrl: config.http.publicUrl,
      serverSecret,
      users,
      adapter: oauthAdapter,
    });
    return provider;
  };
  const generation = createGenerationService({
    lifecycle,
    presentations,
    queue,
    bus,
    composer: agent.composer,
    languages: agent.languages,
    readerFor: async (workspaceId) =>
      workspaceReader(await workspaces.operatorActor(workspaceId), { entities, entityRepository }),
    publicUrl: config.http.publicUrl,
    settings: config.generation,
    log,
  });
  const editing = createEditingService({
    presentations: presentationRepository,
    lifecycle,
    editor: agent.editor,
    composer: agent.composer,
    bus,
    readerFor: (actor) => workspaceReader(actor, { entities, entityRepository }),
    timeoutMs: config.generation.timeoutMs,
  });
  return {
    log,
    agent,
    idempotency: createIdempotencyRepository(db),
    webhooks,
    bus,
    eventRepository,
    lifecycle,
    editing,
    queue,
    generation,
    users,
    grants,
    oauthProvider,
    apiKeys: createApiKeyService({ db, cache: createReadCache({ enabled: exclusive }) }),
    sessions: createSessionService({ db, ttlMs: config.sessionTtlMs }),
    workspaces,
    presentationRepository,
    presentations,
    renderer,
    exports: createExportService({
      presentations,
      blobs: createFileBlobStore(path.join(config.storage.dataDir, "blobs")),
      signer: createDownloadSigner(serverSecret, now),
      renderer,
      onRendered: (actor, id, format) =>
        bus.publish(actor.workspaceId, id, { type: "export.ready", data: { format } }),
      publicUrl: config.http.publicUrl,
    }),
    entityRepository,
    entities,
  };
}

/** Opens (and migrates) the configured database, or uses the one given, and wires services. */
export async function createContainer(
  config: Config,
  database?: Database,
  options: { embedder?: Embedder; log?: (line: string) => void; now?: () => number; logger?: Logger } = {},
): Promise<Container> {
  const db = database ?? (await openDatabase(databaseOptionsFrom(config.storage)));
  try {
    await db.migrate();
    const embedder = options.embedder ?? (await createEmbedder(config.embeddings, options.log));
    if (db.vector) await createEntityRepository(db.db).ensureVectorIndex(embedder.model, embedder.dims);
    const logger = options.logger ?? createLogger(config.logLevel);
    const services = wire(config, db, embedder, options.now ?? Date.now, logger);
    const close = async () => {
      await services.queue.stop();
      await services.bus.close();
      await services.renderer.close();
      await db.close();
    };
    return { config, database: db, ...services, close };
  } catch (err) {
    await db.close();
    throw err;
  }
}
