/** Memory one bucket takes besides its key: the bucket and the map's entry. */
export const BUCKET_BYTES = 200;

/** Memory a bucket under `key` takes: its key counted at two bytes a character, whatever it is made of. */
export const bucketBytes = (key: string) => BUCKET_BYTES + 24 + 2 * key.length;

/**
 * Where a limit counts (as fastify-rate-limit's stores): this process's memory, or Redis for all
 * replicas. Both answer alike: token buckets of `perMinute` a minute with bursts of a quarter of it.
 */
export interface RateLimitStore {
  /**
   * 0 when the request may go ahead, else the seconds until it may: a promise when counted elsewhere.
   * `cost` tokens are taken (1 unless a replica counts its share of a limit shared by several).
   */
  take(key: string, cost?: number): number | Promise<number>;
  /** Memory kept in this process, for the cache bound. */
  readonly bytes: number;
}

/** The default burst: a quarter of the minute's requests at once. */
export const burstOf = (perMinute: number) => Math.max(1, Math.ceil(perMinute / 4));

/** `store`, telling `refused` of each request it refuses (for the metrics). */
export function countingRefusals(store: RateLimitStore, refused: () => void): RateLimitStore {
  const note = (wait: number) => {
    if (wait > 0) refused();
    return wait;
  };
  return {
    take(key) {
      const wait = store.take(key);
      return typeof wait === 'number' ? note(wait) : wait.then(note);
    },
    get bytes() {
      return store.bytes;
    },
  };
}

/**
 * Token buckets by key (client address, external domain) in memory: `perMinute` requests a minute
 * with bursts of up to `burst`. Buckets that filled up again are forgotten, so memory follows active
 * keys only, and they take at most `maxBytes`, keys included.
 */
export class RateLimiter implements RateLimitStore {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();
  private readonly refillPerMs: number;
  private used = 0;

  constructor(
    readonly perMinute: number,
    private readonly burst: number = burstOf(perMinute),
    private readonly now: () => number = Date.now,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {
    this.refillPerMs = perMinute / 60_000;
  }

  /** 0 when the request may go ahead, else the seconds until it may; a cost beyond the burst is the burst. */
  take(key: string, cost = 1): number {
    if (this.perMinute <= 0) return 0;
    const tokens = Math.min(cost, this.burst);
    const now = this.now();
    const known = this.buckets.get(key);
    const bucket = known ?? { tokens: this.burst, updated: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updated) * this.refillPerMs);
    bucket.updated = now;
    // Re-inserted on every request, so that the map's order is the order keys were last seen in.
    if (known) this.buckets.delete(key);
    else {
      this.used += bucketBytes(key);
      if (this.used > this.maxBytes) this.sweep(now);
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens < tokens) return Math.max(1, Math.ceil((tokens - bucket.tokens) / this.refillPerMs / 1000));
    bucket.tokens -= tokens;
    return 0;
  }

  /** Memory the buckets take, keys included, for the cache bound. */
  get bytes(): number {
    return this.used;
  }

  /** Makes room for a new bucket (already counted in `used`, not yet in the map). */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updated) * this.refillPerMs >= this.burst) this.forget(key);
    }
    // Under a flood of distinct keys, forget the least recently seen rather than grow without bound.
    for (const key of this.buckets.keys()) {
      if (this.used <= this.maxBytes) break;
      this.forget(key);
    }
  }

  private forget(key: string): void {
    this.buckets.delete(key);
    this.used -= bucketBytes(key);
  }
}
