import { SCOPES, type Scope } from "../auth/scopes.ts";
import type { WebSession } from "../auth/session-service.ts";
import type { ConnectedApp } from "../oauth/grant-service.ts";
import type { WorkspaceSummary } from "../workspaces/workspace-service.ts";
import { html } from "./html.ts";
import { page } from "./layout.ts";

const nav = (session: WebSession) => ({ email: session.email, csrfToken: session.csrfToken });

export type ConsentView = {
  session: WebSession;
  uid: string;
  clientName: string;
  redirectHost: string;
  scopes: Scope[];
  workspaces: WorkspaceSummary[];
  error?: string;
};

/** Asks the signed-in user whether an app may act for them, with which scopes, in which workspaces. */
export function consentPage(v: ConsentView): string {
  const canAllow = v.workspaces.length > 0 && v.scopes.length > 0;
  return page(
    "Authorize app",
    html`<div class="card" style="max-width:560px;margin:32px auto" id="consent">
  <h1><span id="client-name">${v.clientName}</span> wants to use your Decksmith account</h1>
  <p class="muted">It will be sent back to <strong id="redirect-host">${v.redirectHost}</strong>. Only allow apps you trust.</p>
  ${v.error ? html`<div class="error" role="alert">${v.error}</div>` : ""}
  <form method="post" action="/oauth/interaction/${v.uid}/consent">
    <input type="hidden" name="_csrf" value="${v.session.csrfToken}">
    <h2>It may</h2>
    ${
      v.scopes.length === 0
        ? html`<p class="error">The app asked for no permission Decksmith knows; there is nothing to allow.</p>`
        : v.scopes.map(
            (s) =>
              html`<label style="font-weight:400"><input type="checkbox" name="scope:${s}" checked> ${SCOPES[s]} <code class="muted">${s}</code></label>`,
          )
    }
    <h2 style="margin-top:20px">In these workspaces</h2>
    ${
      v.workspaces.length === 0
        ? html`<p class="error">None of your workspaces has a plan with API access, so there is nothing to connect.</p>`
        : v.workspaces.map(
            (w) =>
              html`<label style="font-weight:400"><input type="checkbox" name="workspace:${w.id}" ${v.workspaces.length === 1 ? "checked" : ""}> ${w.name} <span class="muted">(${w.role}, ${w.plan})</span></label>`,
          )
    }
    <p class="row" style="margin-top:20px">
      <button type="submit" name="decision" value="allow" id="allow" ${canAllow ? "" : "disabled"}>Allow</button>
      <button type="submit" name="decision" value="deny" id="deny" class="secondary">Deny</button>
    </p>
    <p class="muted">Signed in as ${v.session.email}. You can disconnect the app at any time under Account → Connected apps.</p>
  </form>
</div>`,
    nav(v.session),
  );
}

/** A dead end in the authorization flow, with what to do next. */
export function oauthErrorPage(message: string, session?: WebSession): string {
  return page(
    "Authorization failed",
    html`<div class="card" style="max-width:520px;margin:40px auto">
  <h1>Authorization failed</h1>
  <div class="error" role="alert">${message}</div>
  <p class="muted">Start again from the app that sent you here.</p>
</div>`,
    session ? nav(session) : undefined,
  );
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Account → Connected apps: every grant the user gave, with what it reaches, and a revoke button. */
export function connectedAppsPage(p: { session: WebSession; apps: ConnectedApp[] }): string {
  return page(
    "Connected apps",
    html`<h1>Account</h1>
<div class="card">
  <h2>Connected apps</h2>
  <p class="muted">Apps you allowed to act for you through OAuth, such as AI assistants. Disconnecting one ends its access at once.</p>
  <table id="apps">
    <thead><tr><th>App</th><th>Permissions</th><th>Workspaces</th><th>Connected</th><th></th></tr></thead>
    <tbody>
    ${
      p.apps.length === 0
        ? html`<tr><td colspan="5" class="muted">No connected apps.</td></tr>`
        : p.apps.map(
            (a) => html`<tr data-grant-id="${a.grantId}">
      <td>${a.clientName}</td>
      <td>${a.scopes.map((s) => html`<code>${s}</code> `)}</td>
      <td>${a.workspaces.map((w) => w.name).join(", ") || "none"}</td>
      <td style="white-space:nowrap">${day(a.createdAt)}</td>
      <td><form method="post" action="/account/connected-apps/${a.grantId}/revoke" onsubmit="return confirm('Disconnect this app? It will stop working at once.')">
        <input type="hidden" name="_csrf" value="${p.session.csrfToken}"><button class="danger" type="submit">Disconnect</button></form></td>
    </tr>`,
          )
    }
    </tbody>
  </table>
</div>`,
    nav(p.session),
  );
}
