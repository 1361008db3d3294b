import type { Actor } from "../auth/actor.ts";
import { AppError } from "../errors.ts";
import { type EntityInput, entityInputSchema } from "./entity-schemas.ts";
import type { EntityService } from "./entity-service.ts";
import { type ImportFormat, readRecords } from "./import-source.ts";

// Imports a file of entities in batches, each batch one transaction. Without skipInvalid the whole
// file is checked first and nothing is written if any record is bad; with it, bad records are
// reported and the rest imported. Records that link to others by externalId should come after
// them (or in the same batch).

export type ImportProblem = { where: string; message: string };
export type ImportProgress = { phase: "checking" | "importing"; bytes: number; records: number };
export type ImportSummary = {
  records: number;
  created: number;
  updated: number;
  skipped: number;
  problems: ImportProblem[];
  seconds: number;
};

const MAX_REPORTED_PROBLEMS = 1000;

function toEntity(
  value: Record<string, unknown>,
  defaultType: string | undefined,
): { entity?: EntityInput; problem?: string } {
  const parsed = entityInputSchema.safeParse({ ...value, type: value.type ?? defaultType });
  if (parsed.success) return { entity: parsed.data };
  const problem = parsed.error.issues
    .map(
      (i) =>
        `${i.path.join(".") || "record"}: ${i.path[0] === "type" && !value.type && !defaultType ? "missing (add a type column or pass --type)" : i.message}`,
    )
    .join("; ");
  return { problem };
}

export async function importEntities(options: {
  entities: EntityService;
  actor: Actor;
  file: string;
  format: ImportFormat;
  defaultType?: string;
  skipInvalid?: boolean;
  batchSize?: number;
  onProgress?: (p: ImportProgress) => void;
}): Promise<ImportSummary> {
  const started = performance.now();
  const problems: ImportProblem[] = [];
  const note = (where: string, message: string) => {
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ where, message });
  };

  // First pass: read and check every record, writing nothing.
  let valid = 0;
  let invalid = 0;
  for await (const r of readRecords(options.file, options.format, (bytes) =>
    options.onProgress?.({ phase: "checking", bytes, records: valid + invalid }),
  )) {
    const problem = r.error ?? (r.value ? toEntity(r.value, options.defaultType).problem : undefined);
    if (problem) {
      invalid++;
      note(r.where, problem);
    } else valid++;
  }
  if (invalid > 0 && !options.skipInvalid) {
    return {
      records: valid + invalid,
      created: 0,
      updated: 0,
      skipped: invalid,
      problems,
      seconds: (performance.now() - started) / 1000,
    };
  }
  // Large loads go faster without the vector index, built once at the end instead of row by row.
  const written = await options.entities.bulkLoad(valid, () => writeRecords(options, note));
  return {
    ...written,
    records: valid + invalid,
    skipped: invalid + written.skipped,
    problems,
    seconds: (performance.now() - started) / 1000,
  };
}

async function writeRecords(
  options: Parameters<typeof importEntities>[0],
  note: (where: string, message: string) => void,
) {
  const batchSize = options.batchSize ?? 500;
  let records = 0;
  let created = 0;
  let updated = 0;
  let skipped = 0;
  let batch: EntityInput[] = [];
  let batchKeys = new Set<string>();
  let batchStart = "";
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      const result = await options.entities.upsert(options.actor, { entities: batch });
      created += result.created;
      updated += result.updated;
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== "invalid_request") throw err;
      // Batch-level problems (a duplicate externalId, a link to nothing) name the batch's records.
      const details = err.details?.map((d) => `${d.path}: ${d.message}`).join("; ") ?? err.message;
      if (!options.skipInvalid)
        throw new AppError("invalid_request", `Records from ${batchStart}: ${details}`, err.details);
      skipped += batch.length;
      note(`batch from ${batchStart}`, details);
    }
    batch = [];
    batchKeys = new Set();
  };
  for await (const r of readRecords(options.file, options.format, (bytes) =>
    options.onProgress?.({ phase: "importing", bytes, records }),
  )) {
    records++;
    const { entity } = r.value ? toEntity(r.value, options.defaultType) : {};
    if (!entity) continue; // reported by the first pass
    // The same record twice in one batch would be refused; write the batch first, so the later
    // record updates the earlier one, as a re-import would.
    const key = entity.externalId ? `${entity.type}\u0000${entity.externalId}` : undefined;
    if (key && batchKeys.has(key)) await flush();
    if (key) batchKeys.add(key);
    if (batch.length === 0) batchStart = r.where;
    batch.push(entity);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { created, updated, skipped };
}
