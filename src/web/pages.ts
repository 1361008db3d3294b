import type { ApiKeyInfo } from "../auth/api-key-service.ts";
import type { WebSession } from "../auth/session-service.ts";
import { html } from "./html.ts";
import { page } from "./layout.ts";

const when = (date: Date | null) =>
  date ? `${date.toISOString().replace("T", " ").slice(0, 16)} UTC` : "never";

export function signInPage(p: { csrf: string; next: string; error?: string; email?: string }): string {
  return page(
    "Sign in",
    html`<div class="card" style="max-width:420px;margin:40px auto">
  <h1>Sign in to Decksmith</h1>
  ${p.error ? html`<div class="error" role="alert">${p.error}</div>` : ""}
  <form method="post" action="/signin">
    <input type="hidden" name="_csrf" value="${p.csrf}">
    <input type="hidden" name="next" value="${p.next}">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${p.email ?? ""}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <p><button type="submit">Sign in</button></p>
  </form>
</div>`,
  );
}

export function apiKeysPage(p: {
  session: WebSession;
  keys: ApiKeyInfo[];
  publicUrl: string;
  flash: { createdKey?: { name: string; key: string }; error?: string };
}): string {
  const { session, keys, flash } = p;
  const created = flash.createdKey;
  return page(
    "API keys",
    html`<h1>Account</h1>
<div class="card">
  <h2>API keys</h2>
  <p class="muted">A key acts as you in every workspace you belong to whose plan includes API access.
  Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
  ${
    created
      ? html`<div class="notice" id="new-key">
    <strong>Key “${created.name}” created.</strong> Copy it now: it will not be shown again.
    <div class="key"><code id="new-key-value">${created.key}</code>
    <button type="button" id="copy-key" class="secondary">Copy</button></div>
    <p class="muted" style="margin:8px 0 0">Try it: <code>curl -H "Authorization: Bearer ${created.key}" ${p.publicUrl}/v1/workspaces</code></p>
  </div>
  <script>
    document.getElementById("copy-key").addEventListener("click", async (e) => {
      const text = document.getElementById("new-key-value").textContent;
      try { await navigator.clipboard.writeText(text); e.target.textContent = "Copied"; }
      catch { const r = document.createRange(); r.selectNodeContents(document.getElementById("new-key-value"));
        const s = getSelection(); s.removeAllRanges(); s.addRange(r); e.target.textContent = "Press Ctrl+C"; }
    });
  </script>`
      : ""
  }
  ${flash.error ? html`<div class="error" role="alert">${flash.error}</div>` : ""}
  <form method="post" action="/account/api-keys" class="row">
    <input type="hidden" name="_csrf" value="${session.csrfToken}">
    <div><label for="key-name">Name</label><input id="key-name" name="name" type="text" maxlength="100" placeholder="e.g. CRM sync" required></div>
    <div style="flex:0"><button type="submit">Create API key</button></div>
  </form>
</div>
<div class="card">
  <table id="keys">
    <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th></th></tr></thead>
    <tbody>
    ${
      keys.length === 0
        ? html`<tr><td colspan="5" class="muted">No keys yet.</td></tr>`
        : keys.map(
            (k) => html`<tr data-key-id="${k.id}">
      <td>${k.name}</td><td><code>${k.prefix}…</code></td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td>
      <td>${
        k.revokedAt
          ? html`<span class="muted">revoked ${when(k.revokedAt)}</span>`
          : html`<form method="post" action="/account/api-keys/${k.id}/revoke" onsubmit="return confirm('Revoke this key? Programs using it will stop working.')">
        <input type="hidden" name="_csrf" value="${session.csrfToken}"><button class="danger" type="submit">Revoke</button></form>`
      }</td>
    </tr>`,
          )
    }
    </tbody>
  </table>
</div>`,
    { email: session.email, csrfToken: session.csrfToken },
  );
}
