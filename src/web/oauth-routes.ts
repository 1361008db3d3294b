import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import type { InteractionResults } from "oidc-provider";
import { isScope, type Scope } from "../auth/scopes.ts";
import type { WebSession } from "../auth/session-service.ts";
import type { GrantService } from "../oauth/grant-service.ts";
import { OAUTH_PREFIX, resourceIdentifier } from "../oauth/provider.ts";
import type { WorkspaceService } from "../workspaces/workspace-service.ts";
import { type ConsentView, connectedAppsPage, consentPage, oauthErrorPage } from "./oauth-pages.ts";
import { contentSecurityPolicy, type WebSessionHelpers } from "./web-session.ts";

// The authorization server's pages. oidc-provider sends the browser to /oauth/interaction/{uid};
// sign-in is the dashboard's own (the web session), so a signed-in user goes straight to consent,
// where they choose the scopes and the workspaces the app may reach. Account → Connected apps lists
// the grants and revokes them.

type Deps = {
  oauthProvider: () => Promise<Provider>;
  grants: GrantService;
  workspaces: WorkspaceService;
  publicUrl: string;
  pages: WebSessionHelpers;
};

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

/** Where a redirect URI leads, for people and for the consent page's form-action. */
function destination(redirectUri: unknown): { host: string; source: string } {
  try {
    const url = new URL(String(redirectUri));
    return url.protocol === "http:" || url.protocol === "https:"
      ? { host: url.host, source: url.origin }
      : { host: url.protocol.slice(0, -1), source: url.protocol };
  } catch {
    return { host: "an unknown address", source: "'none'" };
  }
}

export const oauthWebRoutes =
  (deps: Deps): FastifyPluginAsync =>
  async (app) => {
    const { pages } = deps;
    const resource = resourceIdentifier(deps.publicUrl);
    const web = { config: { web: true }, schema: { hide: true } };
    const html = (reply: FastifyReply, body: string) => reply.type("text/html; charset=utf-8").send(body);

    async function interaction(request: FastifyRequest, reply: FastifyReply) {
      const provider = await deps.oauthProvider();
      try {
        return { provider, details: await provider.interactionDetails(request.raw, reply.raw) };
      } catch (err) {
        // Only an unknown or finished interaction is answered as expired; anything else is a fault.
        if ((err as Error).name !== "SessionNotFound") throw err;
        reply.code(400);
        html(reply, oauthErrorPage("This authorization request has expired or was already answered."));
        return undefined;
      }
    }

    /** Hands the result back to the provider, which redirects the browser onwards. */
    async function finish(
      provider: Provider,
      request: FastifyRequest,
      reply: FastifyReply,
      result: InteractionResults,
      merge = false,
    ) {
      reply.hijack();
      await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    }

    /** The resource scopes the app asked for and the user has not granted yet. */
    function requestedScopes(details: Interaction): Scope[] {
      const missing = details.prompt.details.missingResourceScopes as Record<string, string[]> | undefined;
      return (missing?.[resource] ?? []).filter(isScope);
    }

    async function consentView(
      session: WebSession,
      details: Interaction,
      error?: string,
    ): Promise<ConsentView> {
      const provider = await deps.oauthProvider();
      const clientId = String(details.params.client_id);
      const client = await provider.Client.find(clientId);
      return {
        session,
        uid: details.uid,
        clientName: client?.clientName ?? clientId,
        redirectHost: destination(details.params.redirect_uri).host,
        scopes: requestedScopes(details),
        workspaces: await deps.workspaces.listForApi({ userId: session.userId }),
        error,
      };
    }

    function showConsent(reply: FastifyReply, details: Interaction, view: ConsentView) {
      reply.header(
        "content-security-policy",
        contentSecurityPolicy([destination(details.params.redirect_uri).source]),
      );
      return html(reply, consentPage(view));
    }

    app.get(`${OAUTH_PREFIX}/interaction/:uid`, web, async (request, reply) => {
      const found = await interaction(request, reply);
      if (!found) return reply;
      const session = await pages.require(request, reply);
      if (!session) return reply;
      const { provider, details } = found;
      // Signed in to the dashboard is signed in here; another user's earlier session is replaced.
      if (details.prompt.name === "login" || details.session?.accountId !== session.userId) {
        return finish(provider, request, reply, { login: { accountId: session.userId } });
      }
      if (details.prompt.name !== "consent") {
        reply.code(400);
        return html(reply, oauthErrorPage(`Unexpected authorization step ${details.prompt.name}.`, session));
      }
      return showConsent(reply, details, await consentView(session, details));
    });

    app.post(`${OAUTH_PREFIX}/interaction/:uid/consent`, web, async (request, reply) => {
      const found = await interaction(request, reply);
      if (!found) return reply;
      const session = await pages.current(request);
      // Signed out meanwhile: sign in again, then see the consent page again.
      if (!session)
        return reply.redirect(
          `/signin?next=${encodeURIComponent(`${OAUTH_PREFIX}/interaction/${found.details.uid}`)}`,
          303,
        );
      const fields = pages.form(request);
      pages.checkCsrf(session, fields);
      const { provider, details } = found;
      if (details.prompt.name !== "consent" || details.session?.accountId !== session.userId) {
        reply.code(400);
        return html(reply, oauthErrorPage("This authorization request belongs to another sign-in.", session));
      }
      if (fields.decision !== "allow") {
        return finish(provider, request, reply, {
          error: "access_denied",
          error_description: "The user denied the request",
        });
      }

      const requested = requestedScopes(details);
      const scopes = requested.filter((s) => fields[`scope:${s}`]);
      const available = await deps.workspaces.listForApi({ userId: session.userId });
      const chosen = available.filter((w) => fields[`workspace:${w.id}`]).map((w) => w.id);
      if (scopes.length === 0 || chosen.length === 0) {
        reply.code(400);
        const why = scopes.length === 0 ? "Allow at least one permission." : "Choose at least one workspace.";
        return showConsent(reply, details, await consentView(session, details, why));
      }

      const clientId = String(details.params.client_id);
      const grant =
        (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
        new provider.Grant({ accountId: session.userId, clientId });
      const { missingOIDCScope, missingOIDCClaims } = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
      };
      if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "));
      if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
      grant.addResourceScope(resource, scopes.join(" "));
      const declined = requested.filter((s) => !scopes.includes(s));
      // Declined scopes are recorded as seen, so the app is not asked again in a loop.
      if (declined.length) grant.rejectResourceScope(resource, declined.join(" "));
      const grantId = await grant.save();
      await deps.grants.recordWorkspaces(grantId, chosen);
      return finish(provider, request, reply, { consent: { grantId } }, true);
    });

    app.get("/account/connected-apps", web, async (request, reply) => {
      const session = await pages.require(request, reply);
      if (!session) return reply;
      return html(reply, connectedAppsPage({ session, apps: await deps.grants.listForUser(session.userId) }));
    });

    app.post("/account/connected-apps/:grantId/revoke", web, async (request, reply) => {
      const session = await pages.require(request, reply);
      if (!session) return reply;
      pages.checkCsrf(session, pages.form(request));
      const { grantId } = request.params as { grantId: string };
      await deps.grants.revoke(session.userId, grantId);
      return reply.redirect("/account/connected-apps", 303);
    });
  };
