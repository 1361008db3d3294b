import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ApiKeyService } from "../auth/api-key-service.ts";
import { newToken, safeEqual } from "../auth/secrets.ts";
import type { SessionService, WebSession } from "../auth/session-service.ts";
import type { UserService } from "../auth/user-service.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { apiKeysPage, signInPage } from "./pages.ts";

// Server-rendered pages: sign-in, sign-out, Account → API keys. Sessions live in an HTTP-only
// cookie; every form carries a CSRF token that must match the session's (or, before sign-in, a
// short-lived cookie's), and SameSite cookies stop cross-site posts as a second line.

const SESSION_COOKIE = "ds_session";
const LOGIN_CSRF_COOKIE = "ds_csrf";

type Deps = { config: Config; users: UserService; sessions: SessionService; apiKeys: ApiKeyService };

const formSchema = z.record(z.string(), z.string());

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
        reply.header(
          "content-security-policy",
          "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        );
        reply.header("x-content-type-options", "nosniff");
        reply.header("referrer-policy", "same-origin");
        reply.header("cache-control", "no-store");
      }
    });

    const web = { config: { web: true }, schema: { hide: true } };

    async function currentSession(request: FastifyRequest): Promise<WebSession | undefined> {
      return deps.sessions.resolve(request.cookies[SESSION_COOKIE]);
    }

    function form(request: FastifyRequest): Record<string, string> {
      const parsed = formSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw new AppError("invalid_request", "Expected a form submission");
      return parsed.data;
    }

    /** The signed-in session for a page, or a redirect to sign-in that comes back here. */
    async function requireSession(request: FastifyRequest, reply: FastifyReply) {
      const session = await currentSession(request);
      if (!session) {
        reply.redirect(`/signin?next=${encodeURIComponent(request.url)}`, 303);
        return undefined;
      }
      return session;
    }

    function checkCsrf(session: WebSession, fields: Record<string, string>): void {
      if (!safeEqual(fields._csrf ?? "", session.csrfToken)) {
        throw new AppError("forbidden", "The form has expired; reload the page and try again");
      }
    }

    function showSignIn(reply: FastifyReply, next: string, error?: string, email?: string) {
      const csrf = newToken();
      reply.setCookie(LOGIN_CSRF_COOKIE, csrf, { ...cookieBase, sameSite: "strict", maxAge: 3600 });
      return reply.type("text/html; charset=utf-8").send(signInPage({ csrf, next, error, email }));
    }

    app.get("/", web, async (request, reply) =>
      reply.redirect((await currentSession(request)) ? "/account/api-keys" : "/signin", 303),
    );

    app.get("/signin", web, async (request, reply) => {
      const next = safeNext((request.query as Record<string, unknown>).next);
      if (await currentSession(request)) return reply.redirect(next, 303);
      return showSignIn(reply, next);
    });

    app.post("/signin", web, async (request, reply) => {
      const fields = form(request);
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
      const session = await currentSession(request);
      if (session) {
        checkCsrf(session, form(request));
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
      const session = await requireSession(request, reply);
      return session ? renderKeys(session, reply) : reply;
    });

    app.post("/account/api-keys", web, async (request, reply) => {
      const session = await requireSession(request, reply);
      if (!session) return reply;
      const fields = form(request);
      checkCsrf(session, fields);
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
      const session = await requireSession(request, reply);
      if (!session) return reply;
      checkCsrf(session, form(request));
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
