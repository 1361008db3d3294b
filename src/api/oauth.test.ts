import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineUnavailable } from "../../test/database.ts";
import { createTenant, createUser, deck } from "../../test/factories.ts";
import {
  type AuthorizeOptions,
  authorize,
  CookieJar,
  connect,
  type OAuthServer,
  pkce,
  registerClient,
  startOAuthServer,
  tokenRequest,
} from "../../test/oauth-client.ts";
import { sha256 } from "../auth/secrets.ts";
import { sweepExpiredOAuthRecords } from "../oauth/oauth-adapter.ts";
import { oauthRecords } from "../storage/schema.ts";

// The authorization server and the resource server over real HTTP, including every way a client
// can get it wrong. The happy path with a real browser and the MCP SDK is in oauth.e2e.test.ts.

const withPkce = (p: { challenge: string }) => ({ challenge: p.challenge, method: "S256" });

describe.skipIf(engineUnavailable)("OAuth 2.1", () => {
  let s: OAuthServer;
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  const api = (token: string, path: string, init: RequestInit & { workspace?: string } = {}) =>
    fetch(`${s.base}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        "x-workspace-id": init.workspace ?? tenant.workspace.id,
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
    });

  /** A new client's authorization request, with PKCE, as the tenant's user; `o` bends it. */
  const authorizeAsNewClient = async (o: Partial<AuthorizeOptions> = {}) => {
    const client = await registerClient(s.base);
    const keys = pkce();
    const result = await authorize(s.base, { ...client, email: tenant.user.email, ...withPkce(keys), ...o });
    return { client, keys, result };
  };

  beforeAll(async () => {
    s = await startOAuthServer();
    tenant = await createTenant(s.c);
  });
  afterAll(async () => {
    await s?.close();
  });

  describe("discovery", () => {
    it("publishes RFC 8414 metadata on the public URL: S256 only, iss in responses, DCR, revocation", async () => {
      const meta = (await (await fetch(`${s.base}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      expect(meta).toMatchObject({
        issuer: s.base,
        authorization_endpoint: `${s.base}/oauth/authorize`,
        token_endpoint: `${s.base}/oauth/token`,
        registration_endpoint: `${s.base}/oauth/register`,
        revocation_endpoint: `${s.base}/oauth/revoke`,
        code_challenge_methods_supported: ["S256"],
        response_types_supported: ["code"],
        authorization_response_iss_parameter_supported: true,
      });
      expect(meta.scopes_supported).toEqual(expect.arrayContaining(["presentations:read", "entities:write"]));
      const oidc = await (await fetch(`${s.base}/.well-known/openid-configuration`)).json();
      expect(oidc).toEqual(meta);
    });

    it("publishes RFC 9728 resource metadata and points every 401 at it", async () => {
      const prm = await (await fetch(`${s.base}/.well-known/oauth-protected-resource`)).json();
      expect(prm).toMatchObject({
        resource: `${s.base}/`,
        authorization_servers: [s.base],
        scopes_supported: ["presentations:read", "presentations:write", "entities:read", "entities:write"],
      });
      for (const path of ["/v1/workspaces", "/v1/presentations", "/mcp"]) {
        const response = await fetch(`${s.base}${path}`, { method: path === "/mcp" ? "POST" : "GET" });
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toContain(
          `resource_metadata="${s.base}/.well-known/oauth-protected-resource"`,
        );
        expect(await response.json()).toMatchObject({ code: "unauthorized" });
      }
      const bad = await api("not-a-token", "/v1/workspaces");
      expect(bad.headers.get("www-authenticate")).toMatch(
        /^Bearer error="invalid_token", resource_metadata=/,
      );
    });
  });

  describe("authorization", () => {
    it("issues a code with iss and state, then an opaque access token and a refresh token", async () => {
      const { result, tokens } = await connect(s.base, tenant.user.email);
      expect(result.params.get("iss")).toBe(s.base);
      expect(result.params.get("state")).toBe("state-123");
      expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
      expect(tokens.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokens.refresh_token).toBeTruthy();
      const response = await api(tokens.access_token as string, "/v1/workspaces");
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([expect.objectContaining({ id: tenant.workspace.id })]);
    });

    it("stores no code, token or session id in the database, only their hashes", async () => {
      const { tokens, result } = await connect(s.base, tenant.user.email);
      const dump = JSON.stringify(await s.c.database.db.select().from(oauthRecords));
      for (const secret of [tokens.access_token, tokens.refresh_token, result.params.get("code")]) {
        expect(dump).not.toContain(secret);
      }
      const [row] = await s.c.database.db
        .select({ kind: oauthRecords.kind })
        .from(oauthRecords)
        .where(eq(oauthRecords.idHash, sha256(tokens.access_token as string)));
      expect(row?.kind).toBe("AccessToken");
    });

    it("refuses an authorization request without PKCE, or with plain PKCE", async () => {
      const client = await registerClient(s.base);
      const none = await authorize(s.base, { ...client, email: tenant.user.email });
      expect(none.params.get("error")).toBe("invalid_request");
      expect(none.params.get("error_description")).toMatch(/PKCE/);
      const { verifier } = pkce();
      const plain = await authorize(s.base, {
        ...client,
        email: tenant.user.email,
        challenge: verifier,
        method: "plain",
      });
      expect(plain.params.get("error")).toBe("invalid_request");
      expect(plain.params.get("error_description")).toMatch(/code_challenge_method/);
    });

    it("refuses a redirect_uri that differs from the registered one by a trailing slash or a query", async () => {
      const client = await registerClient(s.base, { redirect_uris: ["http://127.0.0.1:9/callback"] });
      const { challenge } = pkce();
      for (const redirectUri of ["http://127.0.0.1:9/callback/", "http://127.0.0.1:9/callback?x=1"]) {
        const result = await authorize(s.base, {
          clientId: client.clientId,
          redirectUri,
          email: tenant.user.email,
          challenge,
          method: "S256",
        });
        // Never sent to the unregistered address: an error page on this server instead.
        expect(result.location.origin).toBe(s.base);
        expect(result.params.get("page")).toMatch(/redirect_uri/);
      }
    });

    it("asks for every scope on behalf of a client that names none", async () => {
      const { tokens, result } = await connect(s.base, tenant.user.email, { scope: "" });
      expect(result.consentHtml).toContain("entities:write");
      expect(tokens.scope?.split(" ").sort()).toEqual([
        "entities:read",
        "entities:write",
        "presentations:read",
        "presentations:write",
      ]);
    });

    it("refuses a resource other than this server", async () => {
      const { result } = await authorizeAsNewClient({
        resource: "https://evil.example/",
      });
      expect(result.params.get("error")).toBe("invalid_target");
    });

    it("refuses a malformed client registration with an OAuth error", async () => {
      const response = await fetch(`${s.base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: "not a list" }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_redirect_uri" });
    });

    it("sends access_denied back when the user denies", async () => {
      const { result } = await authorizeAsNewClient({
        decision: "deny",
      });
      expect(result.params.get("error")).toBe("access_denied");
    });

    it("sends a consent posted after signing out back to sign-in, then to the same request", async () => {
      const { result } = await authorizeAsNewClient({ beforeConsent: (jar) => jar.forget("ds_session") });
      expect(result.location.pathname).toBe("/signin");
      expect(result.location.searchParams.get("next")).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    });

    it("answers an unknown or finished authorization step with a page saying so", async () => {
      const response = await fetch(`${s.base}/oauth/interaction/no-such-step`);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("expired or was already answered");
    });

    it("will not consent without a workspace", async () => {
      const { result } = await authorizeAsNewClient({
        tick: (field) => field.startsWith("scope:"),
      });
      expect(result.params.get("page")).toContain("Choose at least one workspace");
    });

    it("follows whoever is signed in to the dashboard, even on a browser another user authorized from", async () => {
      const jar = new CookieJar();
      const client = await registerClient(s.base);
      const first = pkce();
      const a = await authorize(s.base, { ...client, email: tenant.user.email, ...withPkce(first), jar });
      expect(a.params.get("code")).toBeTruthy();
      const other = await createTenant(s.c);
      const second = pkce();
      const b = await authorize(s.base, { ...client, email: other.user.email, ...withPkce(second), jar });
      const tokens = await tokenRequest(s.base, {
        grant_type: "authorization_code",
        code: b.params.get("code") ?? "",
        redirect_uri: client.redirectUri,
        code_verifier: second.verifier,
        client_id: client.clientId,
      });
      const workspaces = (await (await api(tokens.body.access_token ?? "", "/v1/workspaces")).json()) as {
        id: string;
      }[];
      expect(workspaces.map((w) => w.id)).toEqual([other.workspace.id]);
    });

    it("shows the consent page with the app's name, redirect host, scopes and API workspaces only", async () => {
      const user = await createUser(s.c, "picker");
      const pro = await s.c.workspaces.create({ name: "Pro Team", plan: "pro" }, user.id);
      await s.c.workspaces.create({ name: "Free Team", plan: "free" }, user.id);
      const { result } = await connect(s.base, user.email);
      const html = result.consentHtml ?? "";
      expect(html).toContain("Test Assistant");
      expect(html).toContain("127.0.0.1:9");
      expect(html).toContain("presentations:write");
      expect(html).toContain(`workspace:${pro.id}`);
      expect(html).toContain("Pro Team");
      expect(html).not.toContain("Free Team");
    });
  });

  describe("token endpoint", () => {
    async function codeFor() {
      const { client, keys, result } = await authorizeAsNewClient();
      const form = {
        grant_type: "authorization_code",
        code: result.params.get("code") ?? "",
        redirect_uri: client.redirectUri,
        code_verifier: keys.verifier,
        client_id: client.clientId,
      };
      return { client, form };
    }

    it("refuses a wrong code_verifier", async () => {
      const { form } = await codeFor();
      const wrong = await tokenRequest(s.base, { ...form, code_verifier: pkce().verifier });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe("invalid_grant");
    });

    it("refuses a redirect_uri that differs from the authorization request's", async () => {
      const { form } = await codeFor();
      const other = await tokenRequest(s.base, { ...form, redirect_uri: `${form.redirect_uri}/` });
      expect(other.body.error).toBe("invalid_grant");
    });

    it("refuses a replayed code and revokes what the first exchange issued", async () => {
      const { form } = await codeFor();
      const first = await tokenRequest(s.base, form);
      expect(first.status).toBe(200);
      const replay = await tokenRequest(s.base, form);
      expect(replay.body.error).toBe("invalid_grant");
      expect((await api(first.body.access_token as string, "/v1/workspaces")).status).toBe(401);
    });

    it("rotates refresh tokens; a replayed one revokes the whole grant", async () => {
      const { client, tokens } = await connect(s.base, tenant.user.email);
      const refresh = (token: string) =>
        tokenRequest(s.base, {
          grant_type: "refresh_token",
          refresh_token: token,
          client_id: client.clientId,
        });
      const next = await refresh(tokens.refresh_token as string);
      expect(next.status).toBe(200);
      expect(next.body.refresh_token).not.toBe(tokens.refresh_token);
      expect((await api(next.body.access_token as string, "/v1/workspaces")).status).toBe(200);

      const replay = await refresh(tokens.refresh_token as string);
      expect(replay.body.error).toBe("invalid_grant");
      expect((await api(next.body.access_token as string, "/v1/workspaces")).status).toBe(401);
      expect((await refresh(next.body.refresh_token as string)).body.error).toBe("invalid_grant");
    });

    it("revokes a token at once (RFC 7009), and with it the grant's other tokens", async () => {
      const { client, tokens } = await connect(s.base, tenant.user.email);
      const access = tokens.access_token as string;
      expect((await api(access, "/v1/workspaces")).status).toBe(200); // now cached, where caching is on
      const revoked = await fetch(`${s.base}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: tokens.refresh_token as string, client_id: client.clientId }),
      });
      expect(revoked.status).toBe(200);
      const refused = await api(access, "/v1/workspaces");
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    });
  });

  describe("resource server", () => {
    it("refuses an expired token", async () => {
      const { tokens } = await connect(s.base, tenant.user.email);
      await s.c.database.db
        .update(oauthRecords)
        .set({ payload: sql`${oauthRecords.payload} || '{"exp": 1000}'::jsonb` })
        .where(eq(oauthRecords.idHash, sha256(tokens.access_token as string)));
      expect((await api(tokens.access_token as string, "/v1/workspaces")).status).toBe(401);
    });

    it("refuses a token issued for another audience", async () => {
      const { tokens } = await connect(s.base, tenant.user.email);
      await s.c.database.db
        .update(oauthRecords)
        .set({ payload: sql`${oauthRecords.payload} || '{"aud": "https://other.example/"}'::jsonb` })
        .where(eq(oauthRecords.idHash, sha256(tokens.access_token as string)));
      expect((await api(tokens.access_token as string, "/v1/workspaces")).status).toBe(401);
    });

    it("answers 403 insufficient_scope naming the missing scope, and lists only the allowed MCP tools", async () => {
      const { tokens } = await connect(s.base, tenant.user.email, {
        tick: (field) => field === "scope:presentations:read" || field.startsWith("workspace:"),
      });
      const access = tokens.access_token as string;
      expect(tokens.scope).toBe("presentations:read");
      expect((await api(access, "/v1/presentations")).status).toBe(200);
      const refused = await api(access, "/v1/presentations/generate", {
        method: "POST",
        body: JSON.stringify({ instructions: "A deck" }),
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "insufficient_scope" });
      expect(refused.headers.get("www-authenticate")).toContain(
        'error="insufficient_scope", scope="presentations:write"',
      );
      const search = await api(access, "/v1/entities/search", {
        method: "POST",
        body: JSON.stringify({ query: "x" }),
      });
      expect(search.status).toBe(403);
      expect((await search.json()).message).toContain("entities:read");

      const mcp = new Client({ name: "scoped", version: "1.0.0" });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${access}` } },
        }),
      );
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "export_presentation",
        "get_presentation",
        "list_presentations",
        "list_templates",
        "list_themes",
        "list_workspaces",
      ]);
      const generate = await mcp.callTool({
        name: "generate_presentation",
        arguments: { instructions: "x" },
      });
      expect(generate.isError).toBe(true);
      await mcp.close();
    });

    it("reaches only the workspaces chosen at consent, by REST and by MCP", async () => {
      const user = await createUser(s.c, "two-teams");
      const chosen = await s.c.workspaces.create({ name: "Chosen", plan: "pro" }, user.id);
      const other = await s.c.workspaces.create({ name: "Other", plan: "pro" }, user.id);
      const otherDeck = await s.c.presentationRepository.insert(other.id, deck());
      const { tokens } = await connect(s.base, user.email, {
        tick: (field) => field.startsWith("scope:") || field === `workspace:${chosen.id}`,
      });
      const access = tokens.access_token as string;
      expect(
        ((await (await api(access, "/v1/workspaces")).json()) as { id: string }[]).map((w) => w.id),
      ).toEqual([chosen.id]);
      expect((await api(access, "/v1/presentations", { workspace: chosen.id })).status).toBe(200);
      const refused = await api(access, "/v1/presentations", { workspace: other.id });
      expect(refused.status).toBe(404);
      expect((await api(access, `/v1/presentations/${otherDeck.id}`, { workspace: chosen.id })).status).toBe(
        404,
      );

      const mcp = new Client({ name: "ws", version: "1.0.0" });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${access}` } },
        }),
      );
      const result = (await mcp.callTool({
        name: "get_presentation",
        arguments: { workspaceId: other.id, presentationId: otherDeck.id },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]?.text ?? "{}")).toMatchObject({ code: "not_found" });
      await mcp.close();
    });

    it("stops reaching a workspace the moment the user is removed from it", async () => {
      const t2 = await createTenant(s.c, { role: "editor" });
      const { tokens } = await connect(s.base, t2.user.email);
      const access = tokens.access_token as string;
      const ws = t2.workspace.id;
      expect((await api(access, "/v1/presentations", { workspace: ws })).status).toBe(200);
      await s.c.workspaces.removeMember(ws, t2.user.id);
      expect((await api(access, "/v1/presentations", { workspace: ws })).status).toBe(404);
      expect(await (await api(access, "/v1/workspaces")).json()).toEqual([]);
    });
  });

  describe("housekeeping", () => {
    it("Account → Connected apps lists the grant and disconnecting it ends the token at once", async () => {
      const user = await createUser(s.c, "apps");
      await s.c.workspaces.create({ name: "Apps Team", plan: "pro" }, user.id);
      const { tokens } = await connect(s.base, user.email);
      const [app] = await s.c.grants.listForUser(user.id);
      expect(app).toMatchObject({ clientName: "Test Assistant", workspaces: [{ name: "Apps Team" }] });
      expect(app?.scopes).toContain("entities:write");
      const access = tokens.access_token as string;
      expect((await api(access, "/v1/workspaces")).status).toBe(200);
      await expect(s.c.grants.revoke("someone-else", app?.grantId ?? "")).rejects.toMatchObject({
        code: "not_found",
      });
      await s.c.grants.revoke(user.id, app?.grantId ?? "");
      expect((await api(access, "/v1/workspaces")).status).toBe(401);
      expect(await s.c.grants.listForUser(user.id)).toEqual([]);
    });

    it("disconnects an app from the Connected apps page (CSRF-checked form)", async () => {
      const jar = new CookieJar();
      const { tokens } = await connect(s.base, tenant.user.email, { jar });
      const access = tokens.access_token as string;
      const page = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(`${s.base}${path}`, {
          ...init,
          redirect: "manual",
          headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
        });
        jar.store(response);
        return response;
      };
      const html = await (await page("/account/connected-apps")).text();
      const action = /action="(\/account\/connected-apps\/[^"]+\/revoke)"/.exec(html)?.[1] ?? "";
      const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const forged = await page(action, { method: "POST", headers: form, body: "_csrf=wrong" });
      expect(forged.status).toBe(403);
      expect((await api(access, "/v1/workspaces")).status).toBe(200);
      const done = await page(action, {
        method: "POST",
        headers: form,
        body: `_csrf=${encodeURIComponent(csrf)}`,
      });
      expect(done.status).toBe(303);
      expect((await api(access, "/v1/workspaces")).status).toBe(401);
    });

    it("sweeps expired records", async () => {
      const { tokens } = await connect(s.base, tenant.user.email);
      const hash = sha256(tokens.access_token as string);
      const later = new Date(Date.now() + 2 * 3600_000);
      expect(await sweepExpiredOAuthRecords(s.c.database.db, later)).toBeGreaterThan(0);
      const left = await s.c.database.db.select().from(oauthRecords).where(eq(oauthRecords.idHash, hash));
      expect(left).toEqual([]);
    });
  });
});

describe.skipIf(engineUnavailable)("OAuth dynamic client registration", () => {
  let s: OAuthServer;
  beforeAll(async () => {
    s = await startOAuthServer({ OAUTH_REGISTRATIONS_PER_HOUR: "2" });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("is rate-limited per address", async () => {
    await registerClient(s.base);
    await registerClient(s.base);
    const third = await fetch(`${s.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" }),
    });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await third.json()).toMatchObject({ error: "rate_limited" });
  });
});
