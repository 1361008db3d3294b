import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { safeEqual } from "../auth/secrets.ts";
import type { SessionService, WebSession } from "../auth/session-service.ts";
import { AppError } from "../errors.ts";

// What every server-rendered page needs: the session from its cookie, a redirect to sign-in when
// there is none, form fields, and the CSRF check every form post must pass.

export const SESSION_COOKIE = "ds_session";

/** The pages' Content-Security-Policy; `formAction` lists where forms may lead besides this site. */
export function contentSecurityPolicy(formAction: string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "script-src 'unsafe-inline'",
    "font-src 'self'",
    "connect-src 'self'",
    `form-action ${["'self'", ...formAction].join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

const formSchema = z.record(z.string(), z.string());

export function webSession(sessions: SessionService) {
  const current = (request: FastifyRequest): Promise<WebSession | undefined> =>
    sessions.resolve(request.cookies[SESSION_COOKIE]);
  return {
    current,

    /** The signed-in session for a page, or a redirect to sign-in that comes back here. */
    async require(request: FastifyRequest, reply: FastifyReply): Promise<WebSession | undefined> {
      const session = await current(request);
      if (!session) {
        reply.redirect(`/signin?next=${encodeURIComponent(request.url)}`, 303);
        return undefined;
      }
      return session;
    },

    form(request: FastifyRequest): Record<string, string> {
      const parsed = formSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw new AppError("invalid_request", "Expected a form submission");
      return parsed.data;
    },

    checkCsrf(session: WebSession, fields: Record<string, string>): void {
      if (!safeEqual(fields._csrf ?? "", session.csrfToken)) {
        throw new AppError("forbidden", "The form has expired; reload the page and try again");
      }
    },
  };
}

export type WebSessionHelpers = ReturnType<typeof webSession>;
