/** Turns texts into unit-length vectors whose cosine similarity reflects meaning. */
export type Embedder = {
  /** Recorded with every stored vector, so a change of embedder is noticed and re-indexed. */
  model: string;
  dims: number;
  /** One vector per text; null where the text has nothing to embed. */
  embed(texts: string[]): Promise<(Float32Array | null)[]>;
};

export function normalize(v: Float32Array): Float32Array | null {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (!(norm > 1e-9)) return null;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / norm;
  return v;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot; // both unit length
}
