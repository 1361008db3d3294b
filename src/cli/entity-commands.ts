import fs from "node:fs";
import type { Command } from "commander";
import { loadDemoData } from "../entities/demo-loader.ts";
import { importEntities } from "../entities/entity-import.ts";
import { entityText } from "../entities/entity-service.ts";
import { formatFromPath, type ImportFormat, importFormats } from "../entities/import-source.ts";
import { AppError } from "../errors.ts";
import { type Options, str, withContainer } from "./admin-commands.ts";
import { createProgress } from "./progress.ts";

const REINDEX_BATCH = 500;

export function registerEntityCommands(program: Command): void {
  const entities = program.command("entities").description("Import and index a workspace's CRM data");

  entities
    .command("import")
    .description("Import entities from CSV (a header row), a JSON array, or JSON Lines, in batches")
    .argument("<file>", "the file to import (.csv, .json, .jsonl)")
    .requiredOption("--workspace <id>", "workspace id")
    .option(
      "--type <type>",
      "entity type for records without one (account, contact, opportunity, note, product, …)",
    )
    .option("--format <format>", `one of ${importFormats.join(", ")} (default: from the file name)`)
    .option(
      "--skip-invalid",
      "import the valid records and report the others (default: write nothing if any is invalid)",
    )
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o: Options, [file]) => {
        const path = file as string;
        if (!fs.existsSync(path)) throw new AppError("invalid_request", `No such file: ${path}`);
        const format = (o.format as ImportFormat | undefined) ?? formatFromPath(path);
        if (!format || !importFormats.includes(format)) {
          throw new AppError(
            "invalid_request",
            `Cannot tell the format of ${path}; pass --format ${importFormats.join("|")}`,
          );
        }
        const actor = await c.workspaces.operatorActor(str(o, "workspace"));
        const size = fs.statSync(path).size;
        const progress = o.json ? undefined : createProgress("Importing", size, "B");
        const summary = await importEntities({
          entities: c.entities,
          actor,
          file: path,
          format,
          defaultType: o.type as string | undefined,
          skipInvalid: Boolean(o.skipInvalid),
          onProgress: (p) => progress?.update(p.bytes, `${p.phase} ${p.records} records`),
        });
        progress?.update(size, `${summary.records} records`, true);
        progress?.finish();
        const failed = summary.problems.length > 0 && !o.skipInvalid;
        const lines = summary.problems.slice(0, 50).map((p) => `  ${p.where}: ${p.message}`);
        if (summary.problems.length > 50) lines.push(`  … and ${summary.problems.length - 50} more`);
        if (failed) {
          const err = new AppError(
            "invalid_request",
            `${summary.skipped} of ${summary.records} records are invalid; nothing was imported (fix them, or pass --skip-invalid):\n${lines.join("\n")}`,
            summary.problems.map((p) => ({ path: p.where, message: p.message })),
          );
          throw err;
        }
        const rate = Math.round(summary.records / Math.max(summary.seconds, 0.001));
        return {
          result: { ...summary, rate },
          text: [
            `Imported ${summary.records - summary.skipped} of ${summary.records} records in ${summary.seconds.toFixed(1)} s (${rate}/s): ${summary.created} created, ${summary.updated} updated, ${summary.skipped} skipped.`,
            ...(lines.length ? ["Skipped:", ...lines] : []),
          ].join("\n"),
        };
      }),
    );

  entities
    .command("reindex")
    .description("Embed every entity the current embedder has not indexed (after changing EMBEDDINGS_*)")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const { embedder } = c.entities;
        const repo = c.entityRepository;
        const total = await repo.countNeedingEmbedding(embedder.model);
        const progress = o.json ? undefined : createProgress("Re-indexing", total, "entities");
        const started = performance.now();
        let done = 0;
        for (;;) {
          const batch = await repo.needingEmbedding(embedder.model, REINDEX_BATCH);
          if (batch.length === 0) break;
          const vectors = await embedder.embed(batch.map(entityText));
          await c.database.db.transaction(async (tx) => {
            for (const [i, e] of batch.entries()) {
              const v = vectors[i];
              await repo.setEmbedding(e.id, v ? Array.from(v) : null, embedder.model, embedder.dims, tx);
            }
          });
          done += batch.length;
          progress?.update(done);
        }
        progress?.update(done, "", true);
        progress?.finish();
        const seconds = (performance.now() - started) / 1000;
        return {
          result: { reindexed: done, model: embedder.model, seconds },
          text: done
            ? `Re-indexed ${done} entities with ${embedder.model} in ${seconds.toFixed(1)} s.`
            : `Every entity is already indexed with ${embedder.model}.`,
        };
      }),
    );

  program
    .command("demo")
    .description("Demo data")
    .command("load")
    .description("Load the demo CRM (accounts, contacts, opportunities, notes) into a workspace")
    .requiredOption("--workspace <id>", "workspace id")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const result = await loadDemoData(c.entities, await c.workspaces.operatorActor(str(o, "workspace")));
        return {
          result: { created: result.created, updated: result.updated },
          text: `Demo data loaded: ${result.created} entities created, ${result.updated} updated.`,
        };
      }),
    );
}
