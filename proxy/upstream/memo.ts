import { LRUCache } from 'lru-cache';

type Loader<V> = () => Promise<V>;

export interface MemoOptions<V> {
  ttlSeconds: number;
  /** Bound by entries … */
  max?: number;
  /** … or by size. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** Answer with a stale value at once while it is refreshed (otherwise only when the refresh fails). */
  staleWhileRefreshing: boolean;
}

/**
 * Values loaded from the network, cached with lru-cache's `fetch`: one load per key for concurrent
 * callers, and the last good value kept for when a refresh fails. A failure with nothing to fall back
 * on rejects with the load's own error.
 */
export class Memo<V extends object> {
  private readonly cache: LRUCache<string, V, Loader<V>>;
  // Failures of refreshes nobody waits for would otherwise stay forever, one per key.
  private readonly failures = new LRUCache<string, { error: unknown }>({ max: 1000 });

  constructor(options: MemoOptions<V>) {
    this.cache = new LRUCache<string, V, Loader<V>>({
      ...(options.maxSize ? { maxSize: options.maxSize, sizeCalculation: options.sizeOf ?? (() => 1) } : { max: options.max ?? 1000 }),
      ttl: Math.max(1, options.ttlSeconds) * 1000,
      allowStale: options.staleWhileRefreshing,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      // A load whose entry was evicted meanwhile (cache pressure) still answers everyone waiting for it.
      ignoreFetchAbort: true,
      fetchMethod: async (key, _stale, { context }) => {
        try {
          const value = await context();
          this.failures.delete(key);
          return value;
        } catch (error) {
          this.failures.set(key, { error });
          throw error;
        }
      },
    });
  }

  async get(key: string, load: Loader<V>): Promise<V> {
    let loaded: V | undefined;
    const value = await this.cache.fetch(key, { context: async () => (loaded = await load()) });
    // A value too big to keep is still the answer for the request that loaded it.
    if (value !== undefined || loaded !== undefined) return (value ?? loaded)!;
    const failure = this.failures.get(key);
    this.failures.delete(key);
    if (failure) throw failure.error;
    // Another request's load ended without a value this one can use: load it for this request.
    return load();
  }

  get size(): number {
    return this.cache.calculatedSize || this.cache.size;
  }
}
