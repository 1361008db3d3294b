import fs from "node:fs";
import readline from "node:readline";
import { parse as parseCsv } from "csv-parse";
import chain from "stream-chain";
import { parser as jsonParser } from "stream-json";
import { streamArray } from "stream-json/streamers/stream-array.js";

// Reads an import file one record at a time, in constant memory, whatever its size: CSV (first
// row names the columns), a JSON array of objects, or JSON Lines. Each record carries where it
// came from, so errors can name it.

export const importFormats = ["csv", "json", "jsonl"] as const;
export type ImportFormat = (typeof importFormats)[number];

export type SourceRecord = { where: string; value?: Record<string, unknown>; error?: string };

export function formatFromPath(file: string): ImportFormat | undefined {
  const ext = file.toLowerCase().split(".").pop();
  if (ext === "csv") return "csv";
  if (ext === "json") return "json";
  if (ext === "jsonl" || ext === "ndjson") return "jsonl";
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Records of the file; `progress` receives the bytes read so far. */
export async function* readRecords(
  file: string,
  format: ImportFormat,
  progress?: (bytes: number) => void,
): AsyncGenerator<SourceRecord> {
  const stream = fs.createReadStream(file);
  const report = () => progress?.(stream.bytesRead);
  if (format === "jsonl") {
    let line = 0;
    for await (const text of readline.createInterface({
      input: stream,
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      line++;
      report();
      if (!text.trim()) continue;
      try {
        const value = JSON.parse(text) as unknown;
        yield isObject(value)
          ? { where: `line ${line}`, value }
          : { where: `line ${line}`, error: "expected a JSON object" };
      } catch (err) {
        yield { where: `line ${line}`, error: `invalid JSON: ${(err as Error).message}` };
      }
    }
  } else if (format === "csv") {
    const rows = stream.pipe(
      parseCsv({
        columns: true,
        bom: true,
        skip_empty_lines: true,
        trim: true,
        info: true,
        relax_column_count: false,
      }),
    );
    try {
      for await (const row of rows as AsyncIterable<{
        record: Record<string, string>;
        info: { lines: number };
      }>) {
        report();
        yield { where: `line ${row.info.lines}`, value: csvRecord(row.record) };
      }
    } catch (err) {
      // A CSV that cannot be parsed further (unclosed quote, wrong column count) ends the file.
      const lines = (err as { lines?: number }).lines;
      yield { where: lines ? `line ${lines}` : "file", error: (err as Error).message };
    }
  } else {
    const pipeline = chain([stream, jsonParser(), streamArray()]);
    try {
      for await (const { key, value } of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
        report();
        yield isObject(value)
          ? { where: `item ${key + 1}`, value }
          : { where: `item ${key + 1}`, error: "expected a JSON object" };
      }
    } catch (err) {
      yield { where: "file", error: `invalid JSON: ${(err as Error).message}` };
    }
  }
  report();
}

const RESERVED = new Set(["type", "externalId", "external_id", "name", "body", "links"]);

/** A CSV row as an entity: known columns map to entity properties, the rest become fields. */
function csvRecord(row: Record<string, string>): Record<string, unknown> {
  const fields: Record<string, string | number | boolean> = {};
  for (const [column, raw] of Object.entries(row)) {
    if (RESERVED.has(column) || raw === "") continue;
    fields[column] =
      /^-?\d+(\.\d+)?$/.test(raw) && raw.length < 16
        ? Number(raw)
        : raw === "true"
          ? true
          : raw === "false"
            ? false
            : raw;
  }
  const links = (row.links ?? "")
    .split(/[;|]/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      if (/^[a-f\d]{24}$/i.test(l)) return { id: l };
      const [type, ...rest] = l.split(":");
      return { type, externalId: rest.join(":") };
    });
  const entity: Record<string, unknown> = { name: row.name, fields, links };
  if (row.type) entity.type = row.type;
  const externalId = row.externalId ?? row.external_id;
  if (externalId) entity.externalId = externalId;
  if (row.body) entity.body = row.body;
  return entity;
}
