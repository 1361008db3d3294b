import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type Provider from "oidc-provider";
import type { ApiKeyService } from "../auth/api-key-service.ts";
import { newToken, safeEqual } from "../auth/secrets.ts";
import type { SessionService, WebSession } from "../auth/session-service.ts";
import type { UserService } from "../auth/user-service.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { GrantService } from "../oauth/grant-service.ts";
import type { PresentationService } from "../presentations/presentation-service.ts";
import type { ExportService } from "../rendering/export-service.ts";
import type { WorkspaceService } from "../workspaces/workspace-service.ts";
import { oauthWebRoutes } from "./oauth-routes.ts";
import { apiKeysPage, signInPage } from "./pages.ts";
import { viewerRoutes } from "./viewer-routes.ts";
import { contentSecurityPolicy, SESSION_COOKIE, webSession } from "./web-session.ts";

// Server-rendered pages: sign-in, sign-out, Account → API keys. Sessions live in an HTTP-only
// cookie; every form carries a CSRF token that must match the session's (or, before sign-in, a
// short-lived cookie's), and SameSite cookies stop cross-site posts as a second line.

const LOGIN_CSRF_COOKIE = "ds_csrf";

type Deps = {
  config: Config;
  users: UserService;
  sessions: SessionService;
  apiKeys: ApiKeyService;
  workspaces: WorkspaceService;
  presentations: PresentationService;
  exports: ExportService;
  bus: EventBus;
  grants: GrantService;
  oauthProvider: () => Promise<Provider>;
};

/** Only same-site relative paths, so a crafted link cannot bounce a user to another site. */
function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/(?![/\\])/.test(next) ? next : "/account/api-keys";
}

export const webRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const secure = deps.config.http.publicUrl.startsWith("https://");
    const cookieBase = { path: "/", httpOnly: true, secure, sameSite: "lax" as const };

    app.addHook("onSend", async (request, reply) => {
      if (request.routeOptions.config?.web) {
        // A page may widen form-action (the consent page's form ends at the app's redirect URI).
        if (!reply.hasHeader("content-security-policy")) {
          reply.header("content-security-policy", contentSecurityPolicy());
        }
        reply.header("x-content-type-options", "nosniff");
        reply.header("referrer-policy", "same-origin");
        reply.header("cache-control", "no-store");
      }
    });

    const web = { config: { web: true }, schema: { hide: true } };

    const pages = webSession(deps.sessions);
    // A child context, so the viewer's pages get the headers above too.
    await app.register(viewerRoutes({ ...deps, pages }));
    await app.register(oauthWebRoutes({ ...deps, publicUrl: deps.config.http.publicUrl, pages }));

    function showSignIn(reply: FastifyReply, next: string, error?: string, email?: string) {
      const csrf = newToken();
      reply.setCookie(LOGIN_CSRF_COOKIE, csrf, { ...cookieBase, sameSite: "strict", maxAge: 3600 });
      return reply.type("text/html; charset=utf-8").send(signInPage({ csrf, next, error, email }));
    }

    app.get("/", web, async (request, reply) =>
      reply.redirect((await pages.current(request)) ? "/account/api-keys" : "/signin", 303),
    );

    app.get("/signin", web, async (request, reply) => {
      const next = safeNext((request.query as Record<string, unknown>).next);
      if (await pages.current(request)) return reply.redirect(next, 303);
      return showSignIn(reply, next);
    });

    app.post("/signin", web, async (request, reply) => {
      const fields = pages.form(request);
      const next = safeNext(fields.next);
      const cookieCsrf = request.cookies[LOGIN_CSRF_COOKIE] ?? "";
      if (!cookieCsrf || !safeEqual(fields._csrf ?? "", cookieCsrf)) {
        reply.code(403);
        return showSignIn(reply, next, "The form has expired; please sign in again.");
      }
      const user = await deps.users.verifyCredentials(fields.email ?? "", fields.password ?? "");
      if (!user) {
        request.log.info({ email: fields.email }, "sign-in failed");
        reply.code(401);
        return showSignIn(reply, next, "Wrong email or password.", fields.email);
      }
      const session = await deps.sessions.create(user.id);
      reply.clearCookie(LOGIN_CSRF_COOKIE, { path: "/" });
      reply.setCookie(SESSION_COOKIE, session.token, { ...cookieBase, expires: session.expiresAt });
      return reply.redirect(next, 303);
    });

    app.post("/signout", web, async (request, reply) => {
      const session = await pages.current(request);
      if (session) {
        pages.checkCsrf(session, pages.form(request));
        await deps.sessions.destroy(request.cookies[SESSION_COOKIE]);
      }
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return reply.redirect("/signin", 303);
    });

    async function renderKeys(
      session: WebSession,
      reply: FastifyReply,
      extra: Parameters<typeof apiKeysPage>[0]["flash"] = {},
    ) {
      const keys = await deps.apiKeys.list(session.userId);
      return reply
        .type("text/html; charset=utf-8")
        .send(apiKeysPage({ session, keys, flash: extra, publicUrl: deps.config.http.publicUrl }));
    }

    app.get("/account/api-keys", web, async (request, reply) => {
      const session = await pages.require(request, reply);
      return session ? renderKeys(session, reply) : reply;
    });

    app.post("/account/api-keys", web, async (request, reply) => {
      const session = await pages.require(request, reply);
      if (!session) return reply;
      const fields = pages.form(request);
      pages.checkCsrf(session, fields);
      try {
        const created = await deps.apiKeys.create(session.userId, fields.name ?? "");
        reply.code(201);
        return renderKeys(session, reply, { createdKey: { name: created.name, key: created.key } });
      } catch (err) {
        if (err instanceof AppError && err.code === "invalid_request") {
          reply.code(400);
          return renderKeys(session, reply, { error: "Give the key a name (up to 100 characters)." });
        }
        throw err;
      }
    });

    app.post("/account/api-keys/:keyId/revoke", web, async (request, reply) => {
      const session = await pages.require(request, reply);
      if (!session) return reply;
      pages.checkCsrf(session, pages.form(request));
      const { keyId } = request.params as { keyId: string };
      await deps.apiKeys.revoke(keyId, session.userId);
      return reply.redirect("/account/api-keys", 303);
    });
  };

declare module "fastify" {
  interface FastifyContextConfig {
    web?: boolean;
  }
}
