// Events through the real `decksmith serve` process (embedded database, in-process worker):
//   1. webhook delivery latency: from the event's timestamp to the receiver getting the POST;
//   2. SSE: the first event after a generate is accepted, and a live event (an edit) reaching a
//      client already connected.
//
//   npm run bench:events
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContainer } from "../src/container.ts";
import { loadDemoData } from "../src/entities/demo-loader.ts";
import { startServer } from "../test/cli.ts";
import { freePort } from "../test/postgres-cluster.ts";
import { collectEvents } from "../test/sse.ts";
import { startReceiver } from "../test/webhook-receiver.ts";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ??
  Number.NaN;
const row = (label: string, v: number[]) =>
  `| ${label} | ${v.length} | ${Math.round(percentile(v, 50))} ms | ${Math.round(percentile(v, 95))} ms | ${Math.round(Math.max(...v))} ms |`;

async function main() {
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-"));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "0",
    WEBHOOKS_ALLOW_PRIVATE: "true",
  };
  const c = await createContainer(loadConfig(env));
  const user = await c.users.create({ email: "bench@example.com", password: "bench-password" });
  const ws = await c.workspaces.create({ name: "Bench", plan: "pro" }, user.id);
  const { key } = await c.apiKeys.create(user.id, "bench");
  await loadDemoData(c.entities, await c.workspaces.operatorActor(ws.id));
  await c.close();
  const headers = {
    authorization: `Bearer ${key}`,
    "x-workspace-id": ws.id,
    "content-type": "application/json",
  };
  const port = await freePort();
  const server = await startServer({ ...env, PORT: String(port) });
  const base = `http://127.0.0.1:${port}`;
  const post = async (url: string, body: object, extra: Record<string, string> = {}) => {
    const res = await fetch(`${base}${url}`, {
      method: "POST",
      headers: { ...headers, ...extra },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const receiver = await startReceiver();
  try {
    await post("/v1/webhooks", { url: receiver.url, events: ["presentation.updated"] });
    const { json: deck } = await post("/v1/presentations/generate", {
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
    });

    // 1. Webhooks: each edit makes one presentation.updated event, delivered to the receiver.
    const webhook: number[] = [];
    for (let i = 0; i < SAMPLES + 3; i++) {
      const before = receiver.received.length;
      await post(`/v1/presentations/${deck.presentationId}/edit`, {
        instructions: `rename the deck to "Review ${i}"`,
      });
      while (receiver.received.length === before) await new Promise((r) => setTimeout(r, 2));
      const got = receiver.received.at(-1);
      const sentAt = Date.parse(JSON.parse(got?.body ?? "{}").timestamp);
      if (i >= 3) webhook.push(performance.timeOrigin + (got?.at ?? 0) - sentAt);
    }

    // 2a. SSE: the first event after the generate request was accepted (202).
    const firstEvent: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const { json } = await post(
        "/v1/presentations/generate",
        { instructions: "Pipeline review", templateId: "pipeline-review", slideCount: 4 },
        { prefer: "respond-async" },
      );
      const accepted = performance.now();
      await collectEvents(`${base}/v1/presentations/${json.presentationId}/events`, headers, () => true);
      firstEvent.push(performance.now() - accepted);
    }
    // 2b. SSE: a live event to a client already connected, from the edit's answer to its event.
    const live: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      let answered = 0;
      const name = `Live ${i}`;
      const seen = collectEvents(
        `${base}/v1/presentations/${deck.presentationId}/events`,
        headers,
        (e) => e.event === "presentation.updated" && JSON.stringify(e.data).includes(name),
      );
      await new Promise((r) => setTimeout(r, 100)); // connected, and the backlog sent
      void post(`/v1/presentations/${deck.presentationId}/edit`, {
        instructions: `rename the deck to "Live ${i}"`,
      }).then(() => (answered = performance.now()));
      await seen;
      const arrived = performance.now();
      live.push(Math.max(0, arrived - (answered || arrived)));
    }

    console.log("\n| measure | samples | p50 | p95 | max |\n|---|---|---|---|---|");
    console.log(row("webhook: event time → receiver has the POST", webhook));
    console.log(row("SSE: generate accepted (202) → first event", firstEvent));
    console.log(row("SSE: edit answered → presentation.updated at a connected client", live));
  } finally {
    await receiver.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
