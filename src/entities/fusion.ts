// Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each ranked list adds
// 1 / (k + rank) to an item's score. It needs no score calibration between lists, which matters
// here: cosine similarities and ts_rank_cd values live on unrelated scales.

export const RRF_K = 60;

export function reciprocalRankFusion(lists: string[][], k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    for (const [rank, id] of list.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1));
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** The distinct words of a query, safe to join into a tsquery (letters and digits only). */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return [...new Set(words)].slice(0, 32);
}

/** The sentence of the body that shares most words with the query, else its opening. */
export function snippetFor(body: string, query: string, max = 200): string {
  const text = body.replace(/\s+/g, " ").trim();
  if (!text) return "";
  const words = new Set(query.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);
  const sentences = text.split(/(?<=[.!?])\s+/);
  let best = sentences[0] ?? text;
  let bestHits = 0;
  for (const s of sentences) {
    const hits = (s.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []).filter((w) => words.has(w)).length;
    if (hits > bestHits) {
      best = s;
      bestHits = hits;
    }
  }
  return best.length > max ? `${best.slice(0, max - 1).trimEnd()}…` : best;
}
