import { seededRandom } from "../prng.ts";
import { type Embedder, normalize } from "./embedder.ts";
import type { WordVectors } from "./word-vectors.ts";

// The built-in offline embedder: smooth inverse frequency (SIF) weighted averages of word vectors
// with the common component removed (Arora, Liang and Ma, "A Simple but Tough-to-Beat Baseline
// for Sentence Embeddings", ICLR 2017). Frequent words weigh little (a / (a + p(w))), so "the
// customer" and "customer" land close, and removing the direction every average shares keeps
// unrelated texts apart: a plain average scores related and unrelated phrases alike.

// Measured on the relevance set (test/fixtures/relevance.ts): a = 1e-3 with the common component
// removed ranked best; 3e-4, 1e-4, keeping the component, or down-weighting names did not help.
const DEFAULTS: Required<SifOptions> = { a: 1e-3, removeCommonComponent: true };
const EULER = 0.5772156649;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];
}

export type SifOptions = {
  /** SIF's smoothing: smaller values weigh frequent words down harder. */
  a?: number;
  removeCommonComponent?: boolean;
};

export function createSifEmbedder(vectors: WordVectors, options: SifOptions = {}): Embedder {
  const { a, removeCommonComponent } = { ...DEFAULTS, ...options };
  const { dims, index, scales, values } = vectors;
  // Zipf's law from the frequency rank: p(rank) ≈ 1 / ((rank + 2.7) · H), H the harmonic number.
  const harmonic = Math.log(vectors.sourceSize) + EULER;
  const weights = new Float32Array(scales.length);
  for (let r = 0; r < weights.length; r++) {
    const p = 1 / ((r + 2.7) * harmonic);
    weights[r] = a / (a + p);
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
    const random = seededRandom(42);
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
    if (removeCommonComponent) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += (v[d] as number) * (common[d] as number);
      for (let d = 0; d < dims; d++) v[d] = (v[d] as number) - dot * (common[d] as number);
    }
    return normalize(v);
  }

  return {
    model: "decksmith-sif-wink-100d-v1",
    dims,
    embed: async (texts) => texts.map(embedOne),
  };
}
