import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createTestApp, type TestApp } from "./app.ts";
import { freePort } from "./postgres-cluster.ts";

// A hand-driven OAuth client over real HTTP: a browser's cookie jar and redirects done step by
// step, so tests can bend any parameter (no PKCE, wrong verifier, other redirect URIs…) that a
// well-behaved client library would never send.

export const PASSWORD = "correct horse battery";

export type OAuthServer = TestApp & { base: string };

/** A test app listening on loopback, with PUBLIC_URL its real address (the issuer and audience). */
export async function startOAuthServer(env: Record<string, string> = {}): Promise<OAuthServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PUBLIC_URL: base, ...env });
  await t.app.listen({ port, host: "127.0.0.1" });
  if ((t.app.server.address() as AddressInfo).port !== port) throw new Error("port moved");
  return { ...t, base };
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Cookies by name, as a browser would send them to this one host. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  forget(name: string): void {
    this.cookies.delete(name);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export async function registerClient(base: string, metadata: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Test Assistant",
      redirect_uris: ["http://127.0.0.1:9/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      ...metadata,
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`registration failed: ${JSON.stringify(body)}`);
  return { clientId: String(body.client_id), redirectUri: (body.redirect_uris as string[])[0] as string };
}

export type AuthorizeOptions = {
  clientId: string;
  redirectUri: string;
  email: string;
  /** The user's password; test users all have PASSWORD. */
  password?: string;
  challenge?: string;
  method?: string;
  /** The scope parameter; "" leaves it out. */
  scope?: string;
  resource?: string;
  /** Checkbox fields to tick on the consent page (default: every one shown). */
  tick?: (field: string) => boolean;
  decision?: "allow" | "deny";
  jar?: CookieJar;
  /** Runs with the jar just before the consent form is posted. */
  beforeConsent?: (jar: CookieJar) => void;
};

export type AuthorizeResult = { location: URL; params: URLSearchParams; consentHtml?: string };

/**
 * Signs in, opens the authorization URL and answers the consent page, following redirects until
 * one leaves the server; that one (to the client's redirect URI, or an error page) is returned.
 */
export async function authorize(base: string, o: AuthorizeOptions): Promise<AuthorizeResult> {
  const jar = o.jar ?? new CookieJar();
  const get = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, base), {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.store(response);
    return response;
  };

  // Sign in to the dashboard first (the authorization server reuses the web session), as a new
  // user would after the previous one signed out; the authorization server's cookies stay.
  jar.forget("ds_session");
  const signin = await get("/signin");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await signin.text())?.[1] ?? "";
  await get("/signin", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      _csrf: csrf,
      next: "/",
      email: o.email,
      password: o.password ?? PASSWORD,
    }).toString(),
  });

  const query = new URLSearchParams({
    response_type: "code",
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    scope: o.scope ?? "presentations:read presentations:write entities:read entities:write",
    state: "state-123",
  });
  if (o.scope === "") query.delete("scope");
  if (o.challenge !== undefined) query.set("code_challenge", o.challenge);
  if (o.method !== undefined) query.set("code_challenge_method", o.method);
  if (o.resource !== undefined) query.set("resource", o.resource);

  let url = `${base}/oauth/authorize?${query}`;
  let consentHtml: string | undefined;
  for (let hop = 0; hop < 15; hop++) {
    const response = await get(url);
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== base) return { location: next, params: next.searchParams, consentHtml };
      url = next.href;
      continue;
    }
    const page = await response.text();
    // A page that submits itself (the provider's form_post pages) is submitted, as its script would.
    const self = /document\.forms\[0\]\.submit\(\)[\s\S]*<form method="post" action="([^"]+)">/.exec(page);
    if (self?.[1]) {
      const inputs = new URLSearchParams();
      for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
        if (name) inputs.set(name, value ?? "");
      }
      const submitted = await get(new URL(self[1].replaceAll("&amp;", "&"), url).href, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: inputs.toString(),
      });
      const onward = submitted.headers.get("location");
      if (!onward) throw new Error(`self-submitting form led nowhere: ${submitted.status}`);
      url = new URL(onward, url).href;
      continue;
    }
    const form = /<form method="post" action="(\/oauth\/interaction\/[^"]+\/consent)">/.exec(page);
    if (!form?.[1]) {
      const error = new URL(url);
      error.searchParams.set("page_status", String(response.status));
      return { location: error, params: new URLSearchParams({ page }), consentHtml };
    }
    consentHtml = page;
    const fields = new URLSearchParams({ _csrf: /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? "" });
    for (const [, name] of page.matchAll(/type="checkbox" name="([^"]+)"/g)) {
      if (name && (o.tick ?? (() => true))(name)) fields.set(name, "on");
    }
    fields.set("decision", o.decision ?? "allow");
    o.beforeConsent?.(jar);
    const posted = await get(form[1], {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: fields.toString(),
    });
    const after = posted.headers.get("location");
    if (!after)
      return {
        location: new URL(form[1], base),
        params: new URLSearchParams({ page: await posted.text() }),
        consentHtml,
      };
    url = new URL(after, base).href;
  }
  throw new Error("too many redirects");
}

export async function tokenRequest(base: string, form: Record<string, string>) {
  const response = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** Registration, consent and code exchange in one: a live token pair for `email`. */
export async function connect(base: string, email: string, options: Partial<AuthorizeOptions> = {}) {
  const client = await registerClient(base);
  const { verifier, challenge } = pkce();
  const result = await authorize(base, { ...client, email, challenge, method: "S256", ...options });
  const code = result.params.get("code");
  if (!code) throw new Error(`no code: ${result.location} ${result.params}`);
  const tokens = await tokenRequest(base, {
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
    client_id: client.clientId,
  });
  if (tokens.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(tokens.body)}`);
  return { client, tokens: tokens.body, result };
}
