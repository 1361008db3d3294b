// Entity ingestion and search at scale: 100,000 entities in one workspace plus 10 noise workspaces
// of 5,000 each, imported through the real importer (JSON Lines), then search latency per mode,
// HNSW recall@10 against exact scoring, and the RSS of a server process over that data.
//
//   npm run bench:search                # both engines
//   BENCH_ENTITIES=20000 npm run bench:search -- pglite
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContainer } from "../src/container.ts";
import { COMPETITORS, INDUSTRIES, NOTE_THEMES, PRODUCTS, TITLES } from "../src/entities/demo-data.ts";
import { cosine } from "../src/entities/embedder.ts";
import { importEntities } from "../src/entities/entity-import.ts";
import { searchModes } from "../src/entities/entity-schemas.ts";
import { seededRandom } from "../src/prng.ts";
import { openDatabase } from "../src/storage/db.ts";
import { startServer } from "../test/cli.ts";
import { createTenant } from "../test/factories.ts";
import { relevanceSet } from "../test/fixtures/relevance.ts";
import { freePort, startCluster } from "../test/postgres-cluster.ts";

const ENTITIES = Number(process.env.BENCH_ENTITIES ?? 100_000);
const NOISE_WORKSPACES = 10;
const NOISE_EACH = Number(process.env.BENCH_NOISE_EACH ?? 5_000);

// Words sprinkled into the records so that no two texts are alike: identical vectors (a template
// used verbatim thousands of times) are not what a CRM holds, and they degrade any HNSW graph.
const VOCABULARY = (
  "budget renewal contract pricing discount invoice payment quarter forecast pipeline revenue margin " +
  "meeting call email demo workshop training onboarding rollout migration integration dashboard report " +
  "analytics security compliance audit privacy encryption outage incident support ticket escalation " +
  "feedback roadmap feature request bug release upgrade license seats users adoption usage growth " +
  "expansion churn risk competitor evaluation pilot proposal negotiation procurement legal signature " +
  "executive sponsor champion stakeholder manager director team department region office warehouse " +
  "factory hospital clinic school campus store branch bank insurance shipping freight energy solar " +
  "network mobile hotel restaurant laboratory medicine government agency city county schedule delay " +
  "deadline priority goal strategy plan review update summary follow question answer concern issue"
).split(" ");

/** Varied CRM records built from the demo vocabulary. */
export async function writeSyntheticFile(file: string, count: number, seed: number): Promise<void> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = (n: number) => Array.from({ length: n }, () => pick(VOCABULARY)).join(" ");
  const industries = Object.values(INDUSTRIES);
  const themes = Object.values(NOTE_THEMES);
  const out = fs.createWriteStream(file);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const industry = pick(industries);
    const company = `${pick(industry.accounts).split(" ")[0]} ${pick(["Group", "Holdings", "Partners", "Systems", "Co"])} ${i}`;
    const kind = i % 10;
    let record: object;
    if (kind < 2) {
      record = {
        type: "account",
        externalId: `a${i}`,
        name: company,
        fields: { industry: industry.label, employees: Math.round(random() * 50_000) },
        body: industry.about,
      };
    } else if (kind < 5) {
      const role = pick(TITLES);
      record = {
        type: "contact",
        externalId: `c${i}`,
        name: `Person ${i}`,
        fields: { title: role.title, company },
      };
    } else if (kind < 6) {
      const product = pick(PRODUCTS);
      record = {
        type: "opportunity",
        externalId: `o${i}`,
        name: `${company}: ${product.name}`,
        fields: {
          stage: pick(["Proposal", "Negotiation", "Closed Won"]),
          amount: Math.round(random() * 500) * 1000,
        },
        body: product.about,
      };
    } else {
      const text = pick(pick(themes))
        .replaceAll("{contact}", `Person ${i}`)
        .replaceAll("{product}", pick(PRODUCTS).name)
        .replaceAll("{competitor}", pick(COMPETITORS));
      record = {
        type: "note",
        externalId: `n${i}`,
        name: `Notes on ${company}`,
        body: `${text} Also discussed ${words(10)}.`,
      };
    }
    lines.push(JSON.stringify(record));
    if (lines.length === 1000) out.write(`${lines.splice(0).join("\n")}\n`);
  }
  out.write(`${lines.join("\n")}\n`);
  await new Promise((resolve, reject) => out.end(resolve).on("error", reject));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

async function run(engine: string, env: Record<string, string>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-bench-search-"));
  const c = await createContainer(loadConfig({ DATA_DIR: dir, ...env }));
  const report: string[] = [
    `\n## ${engine}: ${ENTITIES.toLocaleString()} entities + ${NOISE_WORKSPACES} × ${NOISE_EACH.toLocaleString()} noise`,
  ];
  try {
    const file = path.join(dir, "main.jsonl");
    await writeSyntheticFile(file, ENTITIES, 1);
    // Each noise workspace gets its own records: ten copies of one file would put every vector in
    // the index ten times, and exact duplicates cut an HNSW graph into cliques.
    for (let w = 0; w < NOISE_WORKSPACES; w++) {
      const noiseFile = path.join(dir, `noise-${w}.jsonl`);
      await writeSyntheticFile(noiseFile, NOISE_EACH, 100 + w);
      const t = await createTenant(c);
      await importEntities({
        entities: c.entities,
        actor: await c.workspaces.operatorActor(t.workspace.id),
        file: noiseFile,
        format: "jsonl",
      });
    }
    const tenant = await createTenant(c);
    const actor = await c.workspaces.operatorActor(tenant.workspace.id);
    const summary = await importEntities({ entities: c.entities, actor, file, format: "jsonl" });
    report.push(
      `ingestion: ${summary.created.toLocaleString()} entities in ${summary.seconds.toFixed(1)} s = ${Math.round(summary.created / summary.seconds)} entities/s (check pass, embedding, batched writes${c.database.vector ? ", HNSW build" : ""})`,
    );
    if (c.database.kind === "pglite") await c.database.query("analyze");

    report.push("| mode | p50 ms | p95 ms | queries |\n|---|---|---|---|");
    const rounds = c.database.vector ? 5 : 1;
    for (const mode of searchModes) {
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        for (const q of relevanceSet) {
          const t0 = performance.now();
          await c.entities.search(actor, { query: q.query, types: q.types, limit: 10, mode });
          times.push(performance.now() - t0);
        }
      }
      times.sort((a, b) => a - b);
      report.push(
        `| ${mode} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${times.length} |`,
      );
    }

    if (c.database.vector) {
      // HNSW against exact scoring of every vector in the workspace, for the same query vectors.
      const { embedder } = c.entities;
      const all = await c.entityRepository.allVectors(actor.workspaceId, embedder.model, undefined);
      let overlap = 0;
      let total = 0;
      for (const q of relevanceSet) {
        const [v] = await embedder.embed([q.query]);
        if (!v) continue;
        const exact = all
          .filter((r) => r.embedding)
          .map((r) => cosine(v, r.embedding as number[]))
          .sort((a, b) => b - a);
        // Texts made from the same template share a vector, so ties at the 10th place are common:
        // a neighbour counts as found when it scores at least the exact 10th best.
        const tenth = exact[9] ?? -1;
        const approx = await c.entityRepository.nearestByIndex(
          actor.workspaceId,
          embedder.model,
          embedder.dims,
          v,
          undefined,
          10,
        );
        overlap += approx.filter((r) => Number(r.similarity) >= tenth - 1e-5).length;
        total += Math.min(10, exact.length);
      }
      report.push(
        `HNSW recall@10 against exact: ${(overlap / total).toFixed(3)} over ${relevanceSet.length} queries (ef_search 400)`,
      );
    } else {
      report.push("no pgvector on this server: semantic search scores every vector exactly");
    }
  } finally {
    await c.database.close();
  }

  // A real server over the same data: RSS with the embedder loaded, after some searches.
  const port = await freePort();
  const server = await startServer({
    DATA_DIR: dir,
    PORT: String(port),
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "0",
    ...env,
  });
  try {
    const rss = () =>
      Math.round(
        Number(fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1]) /
          1024,
      );
    report.push(`server RSS after start: ${rss()} MB`);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(report.join("\n"));
}

async function main(): Promise<void> {
  const only = process.argv[2];
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  const embeddingsDir = path.resolve(".test-data/embeddings");
  const shared: Record<string, string> = fs.existsSync(embeddingsDir)
    ? { EMBEDDINGS_CACHE_DIR: embeddingsDir }
    : {};
  if (!only || only === "pglite") await run("embedded PGlite + pgvector", shared);
  if (!only || only === "postgres") {
    const cluster = await startCluster();
    if ("skipped" in cluster) console.log(`\nPostgreSQL skipped: ${cluster.skipped}`);
    else {
      try {
        const admin = await openDatabase({
          kind: "postgres",
          url: cluster.url("postgres"),
          maxConnections: 1,
        });
        await admin.query("create database bench");
        await admin.close();
        await run("PostgreSQL 15 server", { ...shared, DATABASE_URL: cluster.url("bench") });
      } finally {
        cluster.stop();
      }
    }
  }
}

// Run when executed, not when imported for its generator.
if (process.argv[1]?.endsWith("search.ts")) await main();
