import type { WebSession } from "../auth/session-service.ts";
import type { PresentationDetail } from "../presentations/presentation-schemas.ts";
import type { FontFamily, FontWeight } from "../rendering/fonts.ts";
import { SLIDE, type SlideGeometry, usedFamilies } from "../rendering/geometry.ts";
import { slideCss, slideHtml } from "../rendering/writers/html-writer.ts";
import { html, SafeHtml } from "./html.ts";
import { page } from "./layout.ts";

// The viewer: one slide at a time, scaled to the window, with arrow-key navigation, the deck's
// discussion topics below and buttons that export it. Slides are the HTML writer's output, so
// they match the PPTX and PDF box for box; fonts come from /fonts on this server.

/** Where the viewer's pages load the theme fonts from. */
export const fontUrl = (family: FontFamily, weight: FontWeight) =>
  `/fonts/${encodeURIComponent(family)}/${weight}.ttf`;

const styles = `
.deck-head{display:flex;gap:16px;align-items:flex-start;justify-content:space-between;margin:0 auto 12px;max-width:1280px}
.deck-head h1{margin:0 0 4px}.deck-head p{margin:0}.actions{display:flex;gap:8px}
#stage{display:flex;flex-direction:column;align-items:center;gap:16px}
.frame{width:calc(${SLIDE.width}px * var(--scale,1));height:calc(${SLIDE.height}px * var(--scale,1));overflow:hidden;box-shadow:0 2px 12px rgba(16,24,40,.18);border-radius:4px;background:#fff}
.frame .slide{transform:scale(var(--scale,1));transform-origin:0 0}
.controls{display:flex;justify-content:center;align-items:center;gap:16px;margin:12px 0}
.controls span{min-width:72px;text-align:center;font-variant-numeric:tabular-nums}
.topics{max-width:880px;margin:24px auto}.topics li{margin-bottom:12px}.topics p{margin:2px 0}
`;

// Progressive: without JavaScript every slide shows, one under the other, at full size.
const script = `
const frames = [...document.querySelectorAll(".frame")];
const stage = document.getElementById("stage");
const counter = document.getElementById("counter");
const prev = document.getElementById("prev");
const next = document.getElementById("next");
let current = 0;
function fit() {
  const room = window.innerHeight - stage.getBoundingClientRect().top - 64;
  const scale = Math.max(0.1, Math.min(stage.clientWidth / ${SLIDE.width}, room / ${SLIDE.height}));
  document.documentElement.style.setProperty("--scale", String(scale));
}
function show(n) {
  current = Math.max(0, Math.min(frames.length - 1, n));
  frames.forEach((f, k) => { f.hidden = k !== current; });
  counter.textContent = (current + 1) + " / " + frames.length;
  prev.disabled = current === 0;
  next.disabled = current === frames.length - 1;
  history.replaceState(null, "", "#" + (current + 1));
}
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return;
  const step = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 }[e.key];
  if (step) { e.preventDefault(); show(current + step); }
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(frames.length - 1);
});
prev.addEventListener("click", () => show(current - 1));
next.addEventListener("click", () => show(current + 1));
window.addEventListener("resize", fit);
if (frames.length) { document.querySelector(".controls").hidden = false; fit(); show((parseInt(location.hash.slice(1), 10) || 1) - 1); }
`;

// While the deck is written: its progress stream drives the notice, and the page reloads when
// the deck is ready (or failed, or stopped).
const progressScript = `
const status = document.getElementById("status");
const events = new EventSource(location.pathname + "/events");
events.addEventListener("outline", (e) => { status.textContent = "Outline ready: " + JSON.parse(e.data).slideCount + " slides. Writing them…"; });
events.addEventListener("slide", (e) => { const d = JSON.parse(e.data); status.textContent = "Writing slide " + d.n + " of " + d.of + ": " + d.title; });
for (const type of ["presentation.ready", "presentation.failed", "presentation.stopped"]) {
  events.addEventListener(type, () => { events.close(); location.reload(); });
}
`;

const statusNotes: Record<string, string> = {
  generating: "Decksmith is still writing this deck; it appears here as soon as it is ready.",
  stopped: "Generation was stopped before the deck was finished.",
};

export function viewerPage(p: {
  session: WebSession;
  deck: PresentationDetail;
  slides: SlideGeometry[];
  /** Why the slides cannot be drawn, if they cannot. */
  renderError?: string;
}): string {
  const { deck, slides } = p;
  const ready = deck.status === "ready";
  const exportButton = (format: "pptx" | "pdf", label: string) =>
    html`<form method="post" action="/p/${deck.id}/export">
      <input type="hidden" name="_csrf" value="${p.session.csrfToken}">
      <input type="hidden" name="format" value="${format}">
      <button type="submit" id="export-${format}"${format === "pdf" ? new SafeHtml(' class="secondary"') : ""}>${label}</button>
    </form>`;
  const meta = [
    `${deck.slideCount} slide${deck.slideCount === 1 ? "" : "s"}`,
    deck.themeName,
    deck.templateName,
  ]
    .filter(Boolean)
    .join(" · ");
  const head = html`<style>${new SafeHtml(styles + slideCss(usedFamilies(slides), fontUrl))}</style>
${deck.status === "generating" ? new SafeHtml('<noscript><meta http-equiv="refresh" content="5"></noscript>') : ""}`;
  const body = html`<div class="deck-head">
  <div>
    <h1 id="deck-name">${deck.name}</h1>
    ${deck.summary ? html`<p>${deck.summary}</p>` : ""}
    <p class="muted">${meta}</p>
  </div>
  ${ready ? html`<div class="actions">${exportButton("pptx", "Download PPTX")}${exportButton("pdf", "Download PDF")}</div>` : ""}
</div>
${statusNotes[deck.status] ? html`<div class="notice" role="status" id="status">${statusNotes[deck.status]}</div>` : ""}
${deck.status === "failed" ? html`<div class="error" role="alert" id="status">Generation failed: ${deck.failureReason ?? "no reason was recorded"}</div>` : ""}
${p.renderError ? html`<div class="error" role="alert">This deck cannot be drawn: ${p.renderError}</div>` : ""}
<div id="stage">${new SafeHtml(slides.map((g) => `<div class="frame" id="slide-${g.index + 1}">${slideHtml(g)}</div>`).join(""))}</div>
<nav class="controls" hidden>
  <button type="button" class="secondary" id="prev" aria-label="Previous slide">←</button>
  <span id="counter" aria-live="polite"></span>
  <button type="button" class="secondary" id="next" aria-label="Next slide">→</button>
</nav>
${
  deck.discussionTopics.length
    ? html`<section class="topics card" id="topics"><h2>Discussion topics</h2><ol>${deck.discussionTopics.map(
        (t) =>
          html`<li><strong>${t.topic}</strong><p>${t.details}</p>${t.notes ? html`<p class="muted">${t.notes}</p>` : ""}</li>`,
      )}</ol></section>`
    : ""
}
<script>${new SafeHtml(script)}</script>
${deck.status === "generating" ? html`<script>${new SafeHtml(progressScript)}</script>` : ""}`;
  return page(
    deck.name,
    body,
    { email: p.session.email, csrfToken: p.session.csrfToken },
    { head, wide: true },
  );
}
