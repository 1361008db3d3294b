import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from "fastify-type-provider-zod";
import { SCOPES } from "../auth/scopes.ts";
import { sha256 } from "../auth/secrets.ts";
import type { Container } from "../container.ts";
import { AppError } from "../errors.ts";
import { webRoutes } from "../web/routes.ts";
import { bearerToken, createAuthHooks } from "./auth.ts";
import { installErrorHandling, RoutePatterns } from "./error-handler.ts";
import { installIdempotency } from "./idempotency.ts";
import { catalogRoutes } from "./routes/catalog.ts";
import { entityRoutes } from "./routes/entities.ts";
import { exportRoutes } from "./routes/exports.ts";
import { generationRoutes } from "./routes/generation.ts";
import { healthRoutes } from "./routes/health.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { oauthRoutes } from "./routes/oauth.ts";
import { presentationRoutes } from "./routes/presentations.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { workspaceRoutes } from "./routes/workspaces.ts";

export async function buildServer(c: Container): Promise<FastifyInstance> {
  const app = Fastify({
    // The container's logger: requests, jobs and services write the same JSON lines.
    loggerInstance: c.log as FastifyBaseLogger,
    bodyLimit: c.config.http.bodyLimit,
    // Per-request lines only when debugging: at info level they would cost more than a cached read.
    logController: new LogController({
      disableRequestLogging: c.config.logLevel !== "debug" && c.config.logLevel !== "trace",
    }),
    trustProxy: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const patterns = new RoutePatterns();
  app.addHook("onRoute", (route) => {
    if (route.url) patterns.add(route.url, route.method);
  });
  installErrorHandling(app, patterns);

  const publicOrigin = new URL(c.config.http.publicUrl).origin;
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Decksmith API",
        version: "1.0.0",
        description:
          "Generate, edit, read and export presentations grounded in a workspace's own data. " +
          "Authenticate with `Authorization: Bearer <API key>`; name the workspace in `X-Workspace-Id`.",
      },
      servers: [{ url: c.config.http.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            description: "An API key (ak_…) created under Account → API keys, or an OAuth access token.",
          },
          oauth2: {
            type: "oauth2",
            description:
              "OAuth 2.1 (authorization code with PKCE S256; clients register at /oauth/register). Each route needs the scope its tag implies; see docs/oauth.md.",
            flows: {
              authorizationCode: {
                authorizationUrl: `${publicOrigin}/oauth/authorize`,
                tokenUrl: `${publicOrigin}/oauth/token`,
                refreshUrl: `${publicOrigin}/oauth/token`,
                scopes: SCOPES,
              },
            },
          },
        },
      },
      security: [{ bearerAuth: [] }, { oauth2: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/docs" });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  if (c.config.rateLimitPerMinute > 0) {
    await app.register(fastifyRateLimit, {
      max: c.config.rateLimitPerMinute,
      timeWindow: 60_000,
      enableDraftSpec: true,
      // Per API key (hashed, so the store never holds secrets); per address without one.
      keyGenerator: (request) => {
        const token = bearerToken(request);
        return token ? `key:${sha256(token)}` : `ip:${request.ip}`;
      },
      allowList: (request) => request.url.startsWith("/docs"),
      errorResponseBuilder: (_request, context) =>
        new AppError(
          "rate_limited",
          `Rate limit exceeded: at most ${context.max} requests a minute; retry in ${context.after}`,
        ),
    });
  }

  const auth = createAuthHooks({ ...c, publicUrl: c.config.http.publicUrl });
  await app.register(healthRoutes(c));
  await app.register(workspaceRoutes({ auth, workspaces: c.workspaces }));
  await app.register(catalogRoutes({ auth }));
  await app.register(presentationRoutes({ auth, presentations: c.presentations }));
  // Generation waits up to GENERATE_WAIT_SECONDS: a key stays locked a minute longer than that.
  const idempotent = installIdempotency(app, c.idempotency, c.config.generation.waitMs + 60_000);
  await app.register(entityRoutes({ auth, entities: c.entities, idempotent }));
  await app.register(exportRoutes({ auth, exports: c.exports, idempotent }));
  await app.register(webhookRoutes({ auth, webhooks: c.webhooks }));
  await app.register(
    generationRoutes({
      auth,
      generation: c.generation,
      editing: c.editing,
      presentations: c.presentations,
      bus: c.bus,
      idempotent,
    }),
  );
  await app.register(mcpRoutes({ auth, c }));
  await app.register(oauthRoutes({ c }));
  await app.register(webRoutes(c));

  app.get("/openapi.json", { schema: { hide: true }, config: { rateLimit: false } }, async () =>
    app.swagger(),
  );
  return app;
}
