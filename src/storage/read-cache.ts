// An in-process cache for data that only this process can change. That holds for the embedded
// database, which one process owns (see data-dir-lock.ts): every write goes through a service
// here, which clears the cache, so a cached read is never stale. With a shared PostgreSQL server
// other processes write too, so the cache is disabled and every read goes to the database.

export type ReadCache<V> = {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  clear(): void;
};

export function createReadCache<V>(options: { enabled: boolean; maxEntries?: number }): ReadCache<V> {
  if (!options.enabled) return { get: () => undefined, set: () => {}, clear: () => {} };
  const max = options.maxEntries ?? 10_000;
  const entries = new Map<string, V>();
  return {
    get: (key) => entries.get(key),
    set: (key, value) => {
      entries.delete(key);
      entries.set(key, value);
      // Map keeps insertion order: the first key is the oldest.
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
    clear: () => entries.clear(),
  };
}
