// Export speed through the API: POST /v1/presentations/{id}/export on 20-slide decks (render in a
// worker thread, store the file, sign the link), against the real `decksmith serve` process.
//
//   npm run bench:export
//   BENCH_SECONDS=10 npm run bench:export
//
// 1. Latency: one export at a time, each of a deck never exported before (no reuse), per format.
// 2. Sustained load: exports of fresh decks at a fixed rate (alternating PPTX and PDF) while
//    autocannon measures GET /v1/presentations/{id}; the same GET measured idle first.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { loadConfig } from "../src/config.ts";
import { createContainer } from "../src/container.ts";
import { startServer } from "../test/cli.ts";
import { allLayoutsDeck } from "../test/fixtures/all-layouts-deck.ts";
import { freePort } from "../test/postgres-cluster.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RATE = Number(process.env.BENCH_EXPORT_RATE ?? 10); // exports per second under load
const LATENCY_SAMPLES = 30;
const GET_CONNECTIONS = 10;

/** Twenty slides: the fixture's thirteen layouts, then seven more of them again. */
function twentySlides(n: number) {
  const base = allLayoutsDeck.slides;
  return Array.from({ length: 20 }, (_, i) => {
    const s = base[i % base.length] as (typeof base)[number];
    const placeholders: Record<string, string> = { ...s.placeholders };
    if (placeholders.title) placeholders.title += ` (${n})`; // every deck differs a little
    return { layoutName: s.layoutName, placeholders };
  });
}

async function seed(env: Record<string, string>, decks: number) {
  const c = await createContainer(loadConfig(env));
  try {
    const user = await c.users.create({ email: "bench@example.com", password: "bench-password" });
    const ws = await c.workspaces.create({ name: "Bench", plan: "pro" }, user.id);
    const { key } = await c.apiKeys.create(user.id, "bench");
    const ids: string[] = [];
    for (let n = 0; n < decks; n++) {
      const created = await c.presentationRepository.insert(ws.id, {
        name: `Account review ${n}`,
        status: "ready",
        summary: allLayoutsDeck.summary,
        templateId: "account-review",
        themeId: ["clean", "midnight", "boardroom", "sunrise", "graphite", "harbor"][n % 6] as string,
        slides: twentySlides(n),
        discussionTopics: allLayoutsDeck.discussionTopics,
      });
      ids.push(created.id);
    }
    return { key, workspaceId: ws.id, ids };
  } finally {
    await c.close();
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (v: number) => `${Math.round(v)} ms`;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-"));
  const env = { DATA_DIR: dataDir };
  const decksNeeded = 10 + 2 * LATENCY_SAMPLES + RATE * (SECONDS + 5) + 200;
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  process.stdout.write(`seeding ${decksNeeded} decks of 20 slides… `);
  const seeded = await seed(env, decksNeeded);
  console.log("done");
  const port = await freePort();
  const server = await startServer({
    ...env,
    PORT: String(port),
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "0",
  });
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${seeded.key}`, "x-workspace-id": seeded.workspaceId };
  const fresh = [...seeded.ids];

  const exportOnce = async (format: "pptx" | "pdf") => {
    const id = fresh.pop();
    if (!id) throw new Error("ran out of fresh decks");
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/presentations/${id}/export`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ format }),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${body}`);
    return performance.now() - t0;
  };

  try {
    // Warm-up: worker threads load fonts and modules, the JIT settles.
    for (let i = 0; i < 10; i++) await exportOnce(i % 2 ? "pdf" : "pptx");

    console.log(`\n## Latency: one export at a time, ${LATENCY_SAMPLES} fresh 20-slide decks per format`);
    console.log("| format | p50 | p95 | max |\n|---|---|---|---|");
    for (const format of ["pptx", "pdf"] as const) {
      const times: number[] = [];
      for (let i = 0; i < LATENCY_SAMPLES; i++) times.push(await exportOnce(format));
      console.log(
        `| ${format} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${ms(Math.max(...times))} |`,
      );
    }

    const getUrl = `${base}/v1/presentations/${seeded.ids[0]}`;
    const measureGet = () =>
      autocannon({ url: getUrl, headers, connections: GET_CONNECTIONS, duration: SECONDS });
    const idle = await measureGet();

    // Open loop: start one export every 1000/RATE ms whatever the previous ones are doing.
    const exportTimes: number[] = [];
    const failures: string[] = [];
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    const ticker = setInterval(() => {
      const format = inFlight.length % 2 ? "pdf" : "pptx";
      inFlight.push(
        exportOnce(format).then(
          (t) => void exportTimes.push(t),
          (err: Error) => void failures.push(err.message),
        ),
      );
    }, 1000 / RATE);
    const loaded = await measureGet();
    clearInterval(ticker);
    await Promise.all(inFlight);
    const elapsed = (performance.now() - started) / 1000;

    console.log(`\n## Sustained: ${RATE} exports/s offered for ${SECONDS} s (PPTX and PDF alternating)`);
    console.log(
      `completed ${exportTimes.length} exports in ${elapsed.toFixed(1)} s = ${(exportTimes.length / elapsed).toFixed(1)}/s, ${failures.length} failed${failures.length ? ` (${failures[0]})` : ""}; export p50 ${ms(percentile(exportTimes, 50))}, p99 ${ms(percentile(exportTimes, 99))}`,
    );
    console.log(`\nGET /v1/presentations/{id}, ${GET_CONNECTIONS} connections:`);
    console.log("| | req/s | mean | p50 | p99 |\n|---|---|---|---|---|");
    for (const [label, r] of [
      ["idle", idle],
      ["during exports", loaded],
    ] as const) {
      console.log(
        `| ${label} | ${Math.round(r.requests.average)} | ${r.latency.mean.toFixed(2)} ms | ${r.latency.p50} ms | ${r.latency.p99} ms |`,
      );
    }
    // Capacity: four clients exporting back to back, no other load.
    const capacitySeconds = 5;
    let completed = 0;
    const until = performance.now() + capacitySeconds * 1000;
    await Promise.all(
      [0, 1, 2, 3].map(async (client) => {
        while (performance.now() < until) {
          await exportOnce(client % 2 ? "pdf" : "pptx");
          completed++;
        }
      }),
    );
    console.log(
      `\n## Capacity: 4 clients exporting back to back for ${capacitySeconds} s: ${(completed / capacitySeconds).toFixed(1)} exports/s`,
    );
    const rss = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1];
    console.log(`\nserver RSS after the run: ${Math.round(Number(rss) / 1024)} MB`);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
