import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/database.ts";
import { createTenant } from "../../test/factories.ts";
import { relevanceSet } from "../../test/fixtures/relevance.ts";
import { TEST_EMBEDDINGS_DIR } from "../../test/setup-embeddings.ts";
import type { Actor } from "../auth/actor.ts";
import { loadConfig } from "../config.ts";
import { type Container, createContainer } from "../container.ts";
import { demoDataset } from "./demo-data.ts";
import { loadDemoData } from "./demo-loader.ts";
import { searchModes } from "./entity-schemas.ts";

// Ranking quality over the demo CRM: recall@10 and nDCG@10 per search mode. Prints the table
// docs/benchmarks.md quotes.

const K = 10;

function metrics(ranked: string[], relevant: Set<string>) {
  const top = ranked.slice(0, K);
  const hits = top.filter((id) => relevant.has(id)).length;
  const ideal = Math.min(relevant.size, K);
  const dcg = top.reduce((sum, id, i) => sum + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  let idcg = 0;
  for (let i = 0; i < ideal; i++) idcg += 1 / Math.log2(i + 2);
  return { recall: ideal ? hits / ideal : 0, ndcg: idcg ? dcg / idcg : 0 };
}

describe("search relevance on the demo CRM", () => {
  let c: Container;
  let actor: Actor;
  const byExternalId = new Map<string, string>();

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-relevance-"));
    c = await createContainer(
      loadConfig({ DATA_DIR: dataDir, EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_DIR }),
      await openTestDatabase(),
    );
    const tenant = await createTenant(c);
    actor = await c.workspaces.resolveActor({ userId: tenant.user.id, via: "api_key" }, tenant.workspace.id);
    const result = await loadDemoData(c.entities, actor);
    for (const [i, e] of demoDataset().entries())
      byExternalId.set(e.externalId, result.items[i]?.id as string);
  });
  afterAll(() => c.database.close());

  it("has at least 40 queries over a realistic CRM", () => {
    expect(relevanceSet.length).toBeGreaterThanOrEqual(40);
    const count = (type: string) => demoDataset().filter((e) => e.type === type).length;
    expect(count("account")).toBeGreaterThanOrEqual(40);
    expect(count("contact")).toBeGreaterThanOrEqual(150);
    expect(count("opportunity")).toBeGreaterThanOrEqual(80);
    expect(count("note")).toBeGreaterThanOrEqual(200);
  });

  it("ranks well, and hybrid beats keyword-only", async () => {
    const dataset = demoDataset();
    const summary: Record<string, { recall: number; ndcg: number }> = {};
    const perQuery: string[] = [];
    for (const mode of searchModes) {
      let recall = 0;
      let ndcg = 0;
      for (const q of relevanceSet) {
        const relevant = new Set(
          dataset.filter(q.relevant).map((e) => byExternalId.get(e.externalId) as string),
        );
        expect(relevant.size, q.query).toBeGreaterThan(0);
        const result = await c.entities.search(actor, { query: q.query, types: q.types, limit: K, mode });
        const m = metrics(
          result.items.map((i) => i.id),
          relevant,
        );
        recall += m.recall;
        ndcg += m.ndcg;
        if (mode === "hybrid") perQuery.push(`${m.recall.toFixed(2)}  ${q.query}`);
      }
      summary[mode] = { recall: recall / relevanceSet.length, ndcg: ndcg / relevanceSet.length };
    }
    console.log(
      `relevance over ${relevanceSet.length} queries (k=${K}):\n` +
        Object.entries(summary)
          .map(
            ([mode, m]) =>
              `  ${mode.padEnd(8)} recall@10 ${m.recall.toFixed(3)}  nDCG@10 ${m.ndcg.toFixed(3)}`,
          )
          .join("\n") +
        `\nhybrid recall@10 per query:\n  ${perQuery.join("\n  ")}`,
    );
    expect(summary.hybrid?.recall).toBeGreaterThan(summary.keyword?.recall ?? 1);
    expect(summary.hybrid?.ndcg).toBeGreaterThan(summary.keyword?.ndcg ?? 1);
  });
});
