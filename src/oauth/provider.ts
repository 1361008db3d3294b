import { createHmac, createPrivateKey } from "node:crypto";
import type { Configuration, KoaContextWithOIDC, default as Provider } from "oidc-provider";
import { ALL_SCOPES } from "../auth/scopes.ts";
import type { UserService } from "../auth/user-service.ts";
import { html, SafeHtml } from "../web/html.ts";
import { page } from "../web/layout.ts";

// The OAuth 2.1 authorization server: panva's oidc-provider, configured for what MCP clients and
// API users need and nothing more. Authorization code with PKCE (S256 only, for every client),
// dynamic client registration, refresh tokens rotated on every use (a replayed one revokes the
// grant), revocation, resource indicators bound to this server, `iss` in authorization responses,
// and opaque access tokens that live an hour. The sign-in and consent pages are ours (oauth-pages.ts).

export const OAUTH_PREFIX = "/oauth";
const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** The resource identifier of this server (RFC 8707): its public URL, normalised with a slash. */
export const resourceIdentifier = (publicUrl: string) => new URL(publicUrl).href;

/** A key derived from the server secret, so every process serving one database agrees on it. */
const derive = (secret: string, purpose: string) => createHmac("sha256", secret).update(purpose).digest();

/** The signing key for ID tokens: Ed25519 from a derived seed (PKCS#8 header + 32-byte seed). */
function signingJwk(secret: string) {
  const pkcs8 = Buffer.concat([
    Buffer.from("302e020100300506032b657004220420", "hex"),
    derive(secret, "oauth id token key"),
  ]);
  const jwk = createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }).export({ format: "jwk" });
  return {
    ...jwk,
    alg: "EdDSA",
    use: "sig",
    kid: derive(secret, "oauth key id").toString("base64url").slice(0, 16),
  };
}

// oidc-provider 9 warns on any Node.js before 22; Decksmith supports Node 20.19+ and its suite
// runs the provider there, so that one notice is kept out of the logs.
async function importProvider(): Promise<typeof Provider> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes("Unsupported runtime")) warn(...args);
  };
  try {
    return (await import("oidc-provider")).default;
  } finally {
    console.warn = warn;
  }
}

// The provider's own pages, in the dashboard's look and with nothing fetched from elsewhere.
const card = (title: string, body: SafeHtml) =>
  page(title, html`<div class="card" style="max-width:520px;margin:40px auto">${body}</div>`);

/**
 * The default prompts, with every authorization passing through our login step: whoever is signed
 * in to the dashboard decides who is authorizing, not an authorization session this browser may
 * hold from another user. The page answers at once when the dashboard session is there.
 */
function dashboardLoginPolicy(policy: typeof import("oidc-provider").interactionPolicy) {
  const prompts = policy.base();
  prompts
    .get("login")
    ?.checks.push(
      new policy.Check("dashboard_session", "the dashboard session decides who is signed in", (ctx) =>
        ctx.oidc.result?.login ? policy.Check.NO_NEED_TO_PROMPT : policy.Check.REQUEST_PROMPT,
      ),
    );
  return prompts;
}

export type OAuthProviderDeps = {
  publicUrl: string;
  serverSecret: string;
  users: Pick<UserService, "getById">;
  adapter: Configuration["adapter"];
};

export async function createOAuthProvider(deps: OAuthProviderDeps): Promise<Provider> {
  const ProviderClass = await importProvider();
  const { errors, interactionPolicy } = await import("oidc-provider");
  const issuer = new URL(deps.publicUrl).origin;
  const resource = resourceIdentifier(deps.publicUrl);
  const secure = issuer.startsWith("https://");

  const configuration: Configuration = {
    adapter: deps.adapter,
    jwks: { keys: [signingJwk(deps.serverSecret)] as never },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "EdDSA",
    },
    scopes: ["openid", "offline_access", ...ALL_SCOPES],
    claims: { openid: ["sub"] },
    responseTypes: ["code"],
    pkce: { required: () => true },
    routes: {
      authorization: `${OAUTH_PREFIX}/authorize`,
      token: `${OAUTH_PREFIX}/token`,
      registration: `${OAUTH_PREFIX}/register`,
      revocation: `${OAUTH_PREFIX}/revoke`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      userinfo: `${OAUTH_PREFIX}/userinfo`,
      end_session: `${OAUTH_PREFIX}/logout`,
      pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      introspection: `${OAUTH_PREFIX}/introspect`,
      code_verification: `${OAUTH_PREFIX}/device`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
      challenge: `${OAUTH_PREFIX}/challenge`,
      credential: `${OAUTH_PREFIX}/credential`,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      // Needed when someone else signs in to the dashboard on a browser that holds an earlier
      // user's authorization session: the provider ends that session before continuing.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = "html";
          ctx.body = card(
            "Sign out",
            html`<h1>Sign out of the authorization session?</h1>${new SafeHtml(form)}
  <p class="row"><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
  <button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button></p>`,
          );
        },
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          ctx.type = "html";
          ctx.body = card(
            "Signed out",
            html`<h1>Signed out</h1><p class="muted">You can close this window.</p>`,
          );
        },
      },
      pushedAuthorizationRequests: { enabled: false },
      // Tokens are plain bearer tokens; sender-constrained ones would need DPoP checks on every route.
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource still gets a token bound to this server.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource)
            throw new errors.InvalidTarget(`unknown resource ${indicator}; use ${resource}`);
          return {
            scope: ALL_SCOPES.join(" "),
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: "opaque",
          };
        },
      },
    },
    // Refresh tokens for every client that registered the grant, not only on offline_access, and
    // never tied to the browser session: an assistant keeps working after the tab is closed.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    expiresWithSession: async () => false,
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 365 * 24 * 3600,
    },
    cookies: {
      keys: [derive(deps.serverSecret, "oauth cookies").toString("base64url")],
      names: { session: "ds_oauth_session", interaction: "ds_oauth_interaction", resume: "ds_oauth_resume" },
      long: { httpOnly: true, sameSite: "lax", secure },
      short: { httpOnly: true, sameSite: "lax", secure },
    },
    interactions: {
      policy: dashboardLoginPolicy(interactionPolicy),
      url: (_ctx, interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx, sub) => {
      const user = await deps.users.getById(sub);
      return user ? { accountId: user.id, claims: () => ({ sub: user.id }) } : undefined;
    },
    // The token and registration endpoints are called from browsers by web-based clients too.
    clientBasedCORS: () => true,
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = "html";
      ctx.body = card(
        "Authorization failed",
        html`<h1>Authorization failed</h1>
  <div class="error" role="alert">${String(out.error_description ?? out.error ?? "The request was refused")}</div>
  <p class="muted">Code: <code>${String(out.error ?? "server_error")}</code>. Start again from the app that sent you here.</p>`,
      );
    },
  };

  const provider = new ProviderClass(issuer, configuration);
  // A client that asks for no scope would get a token that can do nothing: it is asked for all of
  // them instead, and the user unticks what they do not want on the consent page.
  provider.use(async (ctx, next) => {
    if (ctx.method === "GET" && ctx.path === `${OAUTH_PREFIX}/authorize` && !ctx.query.scope) {
      ctx.query = { ...ctx.query, scope: ALL_SCOPES.join(" ") };
    }
    await next();
  });
  // Forwarded headers are set by the mount (routes/oauth.ts) from PUBLIC_URL, overwriting any a
  // client sent, so endpoint URLs and secure cookies follow the public address.
  provider.proxy = true;
  return provider;
}
