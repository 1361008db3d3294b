import http from "node:http";
import type { AddressInfo } from "node:net";
import { auth, type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { expect, it } from "vitest";
import { chromiumMissing, launchBrowser } from "../../test/browser.ts";
import { serverSandbox } from "../../test/cli.ts";
import { freePort } from "../../test/postgres-cluster.ts";

// An AI assistant connecting for the first time, end to end: the MCP SDK's own OAuth client gets a
// 401, discovers the metadata, registers, and sends the user to the authorize URL; headless
// Chromium signs in and consents; the SDK exchanges the code with PKCE, calls tools, refreshes; a
// revocation ends it. The real CLI server, real HTTP, a real browser.

/** A loopback redirect URI that hands over the first authorization response it receives. */
async function startCallback() {
  let deliver: (params: URLSearchParams) => void = () => {};
  const received = new Promise<URLSearchParams>((resolve) => {
    deliver = resolve;
  });
  const server = http.createServer((req, res) => {
    deliver(new URL(req.url ?? "/", "http://127.0.0.1").searchParams);
    res.writeHead(200, { "content-type": "text/html" }).end("<p>Connected. You can close this window.</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { url, received, close: () => server.close() };
}

/** What an assistant keeps between runs: its registration, its tokens and the PKCE verifier. */
function memoryProvider(redirectUrl: string) {
  const state: {
    client?: OAuthClientInformationMixed;
    tokens?: OAuthTokens;
    verifier?: string;
    authorizationUrl?: URL;
  } = {};
  const provider: OAuthClientProvider = {
    redirectUrl,
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: "Claude (test)",
        redirect_uris: [redirectUrl],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
    },
    clientInformation: () => state.client,
    saveClientInformation: (info) => {
      state.client = info;
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens;
    },
    redirectToAuthorization: (url) => {
      state.authorizationUrl = url;
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier;
    },
    codeVerifier: () => state.verifier ?? "",
  };
  return { provider, state };
}

const sandbox = serverSandbox();

it.skipIf(chromiumMissing)(
  "an MCP client signs in through the browser, uses the tools, refreshes, and is refused after revocation",
  async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await sandbox.start({ ...sandbox.env(port), PUBLIC_URL: base }, ["--json"]);
    const ready = server
      .output()
      .split("\n")
      .find((l) => l.includes('"status":"ready"'));
    const { demo } = JSON.parse(ready ?? "{}");
    const callback = await startCallback();
    const browser = await launchBrowser();
    const mcpUrl = new URL(`${base}/mcp`);
    try {
      const { provider, state } = memoryProvider(callback.url);

      // 1. No token: a 401 sends the SDK through discovery and registration to the authorize URL.
      const first = new Client({ name: "assistant", version: "1.0.0" });
      const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await expect(first.connect(firstTransport)).rejects.toThrow(UnauthorizedError);
      expect(state.client?.client_id).toBeTruthy();
      const authorizationUrl = state.authorizationUrl as URL;
      expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${base}/oauth/authorize`);
      expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorizationUrl.searchParams.get("resource")).toBe(`${base}/`);

      // 2. The user signs in and consents in the browser.
      const page = await browser.newPage();
      await page.goto(authorizationUrl.href);
      await page.waitForURL(/\/signin/);
      await page.fill("#email", demo.email);
      await page.fill("#password", demo.password);
      await page.click("button[type=submit]");
      await page.waitForSelector("#consent");
      expect(await page.textContent("#client-name")).toBe("Claude (test)");
      expect(await page.textContent("#redirect-host")).toBe(new URL(callback.url).host);
      expect(await page.isChecked(`input[name="workspace:${demo.workspaceId}"]`)).toBe(true);
      expect(await page.isChecked('input[name="scope:presentations:write"]')).toBe(true);
      await page.click("#allow");
      const response = await callback.received;
      expect(response.get("iss")).toBe(base);
      const code = response.get("code") as string;
      expect(code).toBeTruthy();
      expect(await page.textContent("body")).toContain("Connected");

      // 3. The SDK exchanges the code (with its PKCE verifier) and calls tools.
      await firstTransport.finishAuth(code);
      const accessToken = state.tokens?.access_token as string;
      expect(state.tokens?.refresh_token).toBeTruthy();
      const client = new Client({ name: "assistant", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("generate_presentation");
      const workspaces = await client.callTool({ name: "list_workspaces", arguments: {} });
      expect(JSON.stringify(workspaces.structuredContent)).toContain(demo.workspaceId);
      const search = await client.callTool({
        name: "search_entities",
        arguments: { query: "Northwind", limit: 1 },
      });
      expect(search.isError).toBeFalsy();

      // The same token works on the REST API.
      const rest = await fetch(`${base}/v1/presentations`, {
        headers: { authorization: `Bearer ${accessToken}`, "x-workspace-id": demo.workspaceId },
      });
      expect(rest.status).toBe(200);

      // Account → Connected apps shows it, with what it may reach.
      await page.goto(`${base}/account/connected-apps`);
      const row = await page.textContent("#apps tbody");
      expect(row).toContain("Claude (test)");
      expect(row).toContain("presentations:write");
      expect(row).toContain(demo.workspaceName);

      // 4. Refresh: a new token pair, and the tools keep working.
      const oldRefresh = state.tokens?.refresh_token;
      expect(await auth(provider, { serverUrl: mcpUrl })).toBe("AUTHORIZED");
      expect(state.tokens?.access_token).not.toBe(accessToken);
      expect(state.tokens?.refresh_token).not.toBe(oldRefresh);
      const again = await client.callTool({ name: "list_templates", arguments: {} });
      expect(again.isError).toBeFalsy();

      // 5. Revocation: the grant ends, and the client is refused.
      const revoked = await fetch(`${base}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token: state.tokens?.refresh_token as string,
          client_id: state.client?.client_id as string,
        }),
      });
      expect(revoked.status).toBe(200);
      const refused = await fetch(`${base}/v1/workspaces`, {
        headers: { authorization: `Bearer ${state.tokens?.access_token}` },
      });
      expect(refused.status).toBe(401);
      await page.reload();
      expect(await page.textContent("#apps tbody")).toContain("No connected apps.");
      // The SDK's retry finds its refresh token dead too (invalid_grant): only a new sign-in helps.
      const error = await client.callTool({ name: "list_workspaces", arguments: {} }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String(error)).toMatch(/invalid_grant|grant request is invalid|Unauthorized/i);
      await client.close();
      await first.close();
    } finally {
      await browser.close();
      callback.close();
    }
  },
  90_000,
);
