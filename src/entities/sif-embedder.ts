import { type Embedder, normalize } from "./embedder.ts";
import type { WordVectors } from "./word-vectors.ts";

// The built-in offline embedder: smooth inverse frequency (SIF) weighted averages of word vectors
// with the common component removed (Arora, Liang and Ma, "A Simple but Tough-to-Beat Baseline
// for Sentence Embeddings", ICLR 2017). Frequent words weigh little (a / (a + p(w))), so "the
// customer" and "customer" land close, and removing the direction every average shares keeps
// unrelated texts apart: a plain average scores related and unrelated phrases alike.

const SIF_A = 1e-3;
const EULER = 0.5772156649;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];
}

/** Deterministic PRNG (mulberry32), so the common component is the same on every machine. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createSifEmbedder(vectors: WordVectors): Embedder {
  const { dims, index, scales, values } = vectors;
  // Zipf's law from the frequency rank: p(rank) ≈ 1 / ((rank + 2.7) · H), H the harmonic number.
  const harmonic = Math.log(vectors.sourceSize) + EULER;
  const weights = new Float32Array(scales.length);
  for (let r = 0; r < weights.length; r++) {
    const p = 1 / ((r + 2.7) * harmonic);
    weights[r] = SIF_A / (SIF_A + p);
  }

  function weightedAverage(ranks: number[]): Float32Array {
    const v = new Float32Array(dims);
    for (const r of ranks) {
      const w = (weights[r] as number) * (scales[r] as number);
      const base = r * dims;
      for (let d = 0; d < dims; d++) v[d] = (v[d] as number) + w * (values[base + d] as number);
    }
    if (ranks.length > 0) for (let d = 0; d < dims; d++) v[d] = (v[d] as number) / ranks.length;
    return v;
  }

  // The common component: the first principal direction of SIF averages over a fixed sample of
  // pseudo-sentences drawn by word frequency (power iteration).
  const common = (() => {
    const random = prng(42);
    const pool = Math.min(50_000, weights.length);
    const sample: Float32Array[] = [];
    for (let s = 0; s < 3000; s++) {
      const ranks: number[] = [];
      for (let k = 0; k < 12; k++)
        ranks.push(Math.min(pool - 1, Math.floor(Math.exp(random() * Math.log(pool)) - 1)));
      sample.push(weightedAverage(ranks));
    }
    let u: Float32Array = new Float32Array(dims).fill(1 / Math.sqrt(dims));
    for (let iter = 0; iter < 50; iter++) {
      const next = new Float32Array(dims);
      for (const x of sample) {
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += (x[d] as number) * (u[d] as number);
        for (let d = 0; d < dims; d++) next[d] = (next[d] as number) + dot * (x[d] as number);
      }
      u = normalize(next) ?? u;
    }
    return u;
  })();

  function embedOne(text: string): Float32Array | null {
    const ranks: number[] = [];
    for (const token of tokenize(text)) {
      const r = index.get(token);
      if (r !== undefined) ranks.push(r);
    }
    if (ranks.length === 0) return null;
    const v = weightedAverage(ranks);
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += (v[d] as number) * (common[d] as number);
    for (let d = 0; d < dims; d++) v[d] = (v[d] as number) - dot * (common[d] as number);
    return normalize(v);
  }

  return {
    model: "decksmith-sif-wink-100d-v1",
    dims,
    embed: async (texts) => texts.map(embedOne),
  };
}
