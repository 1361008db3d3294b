// Generation and editing through the API, against the real `decksmith serve` process on the
// embedded database with the demo CRM loaded:
//   1. offline generation of a 10-slide grounded account review (201 when ready), per request;
//   2. offline edits of a generated deck, per request;
//   3. with a language model server (OpenAI protocol, local) that answers every call after
//      300 ms: a 12-slide deck, end to end, and the calls and tokens it took.
//
//   npm run bench:generate
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContainer } from "../src/container.ts";
import { INDUSTRIES } from "../src/entities/demo-data.ts";
import { loadDemoData } from "../src/entities/demo-loader.ts";
import { startServer } from "../test/cli.ts";
import { deckWriter, startFakeLlm } from "../test/fake-llm.ts";
import { freePort } from "../test/postgres-cluster.ts";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const row = (label: string, times: number[]) =>
  `| ${label} | ${times.length} | ${Math.round(percentile(times, 50))} ms | ${Math.round(percentile(times, 95))} ms | ${Math.round(Math.max(...times))} ms |`;

async function seed(env: Record<string, string>) {
  const c = await createContainer(loadConfig(env));
  try {
    const user = await c.users.create({ email: "bench@example.com", password: "bench-password" });
    const ws = await c.workspaces.create({ name: "Bench", plan: "pro" }, user.id);
    const { key } = await c.apiKeys.create(user.id, "bench");
    await loadDemoData(c.entities, await c.workspaces.operatorActor(ws.id));
    return {
      headers: {
        authorization: `Bearer ${key}`,
        "x-workspace-id": ws.id,
        "content-type": "application/json",
      },
    };
  } finally {
    await c.close();
  }
}

async function timed(url: string, headers: Record<string, string>, body: object, expected: number) {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const json = await res.json();
  const ms = performance.now() - t0;
  if (res.status !== expected || (json.status && !["ready", "updated"].includes(json.status))) {
    throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  }
  return { ms, json };
}

async function main() {
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  const accounts = Object.values(INDUSTRIES).flatMap((i) => i.accounts);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-"));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0" };
  process.stdout.write("seeding the demo CRM… ");
  const { headers } = await seed(env);
  console.log("done");
  const port = await freePort();
  let server = await startServer({ ...env, PORT: String(port) });
  const base = `http://127.0.0.1:${port}`;
  const generateUrl = `${base}/v1/presentations/generate`;
  try {
    const accountReview = (i: number) => ({
      instructions: `Prepare an account review for ${accounts[i % accounts.length]}`,
      templateId: "account-review",
      slideCount: 10,
    });
    for (let i = 0; i < 5; i++) await timed(generateUrl, headers, accountReview(i), 201); // warm-up
    const generations: number[] = [];
    let slides = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const { ms, json } = await timed(generateUrl, headers, accountReview(i + 5), 201);
      generations.push(ms);
      const deck = await (await fetch(`${base}/v1/presentations/${json.presentationId}`, { headers })).json();
      slides += deck.slides.length;
    }

    const { json: target } = await timed(generateUrl, headers, accountReview(0), 201);
    const forms = [
      (i: number) => `rename the deck to "Review ${i}"`,
      (i: number) => `change the title of slide 3 to "Where we stand (${i})"`,
      (i: number) => `switch the theme to ${["Midnight", "Harbor", "Clean"][i % 3]}`,
      () => "move slide 4 to position 5",
      (i: number) => `add a discussion topic "Topic ${i}": follow up`,
    ];
    const edits: number[] = [];
    for (let i = 0; i < SAMPLES + 5; i++) {
      const { ms } = await timed(
        `${base}/v1/presentations/${target.presentationId}/edit`,
        headers,
        { instructions: (forms[i % forms.length] as (i: number) => string)(i) },
        200,
      );
      if (i >= 5) edits.push(ms);
    }

    console.log("\n## Offline (built-in composer and editor), one request at a time");
    console.log("| request | samples | p50 | p95 | max |\n|---|---|---|---|---|");
    console.log(row("generate: 10-slide account review, 201 ready", generations));
    console.log(row("edit: one instruction form", edits));
    console.log(`average slides per generated deck: ${(slides / SAMPLES).toFixed(1)}`);
    await server.stop();

    // With a language model that takes 300 ms for every answer.
    const llm = await startFakeLlm(deckWriter({ delayMs: 300 }));
    server = await startServer({
      ...env,
      PORT: String(port),
      LLM_PROVIDER: "openai-compatible",
      LLM_BASE_URL: llm.url,
      LLM_MODEL: "bench",
    });
    const llmTimes: number[] = [];
    const runs = 5;
    const before = llm.requests.length;
    for (let i = 0; i < runs; i++) {
      const { ms } = await timed(
        generateUrl,
        headers,
        { instructions: `Account review for ${accounts[i]}`, templateId: "account-review", slideCount: 12 },
        201,
      );
      llmTimes.push(ms);
    }
    const calls = (llm.requests.length - before) / runs;
    const promptTokens =
      llm.requests.slice(before).reduce((a, r) => a + Math.ceil(JSON.stringify(r.messages).length / 4), 0) /
      runs;
    console.log("\n## With a language model answering every call after 300 ms (LLM_CONCURRENCY=4)");
    console.log("| request | samples | p50 | p95 | max |\n|---|---|---|---|---|");
    console.log(row("generate: 12 slides, 201 ready", llmTimes));
    console.log(
      `per deck: ${calls} model calls (1 outline + 12 slides + 1 topics), ~${Math.round(promptTokens)} prompt tokens (the server's count: characters / 4)`,
    );
    await llm.close();
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
