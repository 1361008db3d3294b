import { html, SafeHtml } from "./html.ts";

const styles = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2433;background:#f5f7fb}
header{display:flex;align-items:center;justify-content:space-between;padding:12px 24px;background:#fff;border-bottom:1px solid #e3e8f0}
header a.brand{font-weight:700;color:#1b2433;text-decoration:none;font-size:17px}
main{max-width:880px;margin:32px auto;padding:0 24px}main.wide{max-width:none;margin:16px auto}
.card{background:#fff;border:1px solid #e3e8f0;border-radius:10px;padding:24px;margin-bottom:24px}
h1{font-size:22px;margin:0 0 16px}h2{font-size:17px;margin:0 0 12px}
label{display:block;font-weight:600;margin:12px 0 4px}
input[type=text],input[type=email],input[type=password]{width:100%;padding:9px 11px;border:1px solid #c9d2e0;border-radius:6px;font:inherit}
button{white-space:nowrap;padding:8px 16px;border:0;border-radius:6px;background:#2563eb;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:#e8edf5;color:#1b2433}button.danger{background:#fff;color:#b42318;border:1px solid #f1c1bc}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:8px 6px;border-bottom:1px solid #eef1f6;vertical-align:middle}
th{font-size:13px;color:#5b6578;font-weight:600}code{font:13px ui-monospace,Menlo,Consolas,monospace}
.error{background:#fef3f2;color:#b42318;border:1px solid #fecdca;padding:10px 12px;border-radius:6px;margin-bottom:12px}
.notice{background:#ecfdf3;border:1px solid #abefc6;padding:14px;border-radius:8px;margin-bottom:16px}
.key{display:flex;gap:8px;align-items:center;margin-top:8px}.key code{flex:1;padding:8px;background:#fff;border:1px solid #c9d2e0;border-radius:6px;word-break:break-all}
.muted{color:#5b6578}.row{display:flex;gap:12px;align-items:end}.row>div{flex:1}
`;

export function page(
  title: string,
  body: SafeHtml,
  nav?: { email: string; csrfToken: string },
  options: { head?: SafeHtml; wide?: boolean } = {},
): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Decksmith</title>
<style>${new SafeHtml(styles)}</style>
${options.head ?? ""}
</head>
<body>
<header>
  <a class="brand" href="/">Decksmith</a>
  ${
    nav
      ? html`<form method="post" action="/signout" style="display:flex;gap:12px;align-items:center">
    <span class="muted">${nav.email}</span>
    <a href="/account/api-keys">API keys</a>
    <a href="/account/connected-apps">Connected apps</a>
    <a href="/docs">API docs</a>
    <input type="hidden" name="_csrf" value="${nav.csrfToken}">
    <button class="secondary" type="submit">Sign out</button>
  </form>`
      : html`<a href="/docs">API docs</a>`
  }
</header>
<main${options.wide ? new SafeHtml(' class="wide"') : ""}>${body}</main>
</body>
</html>`.value;
}
