import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A finished response, stored as the bytes sent: a cache hit only writes them out. */
export interface StoredResponse {
  status: number;
  body: Buffer;
  contentType: string;
  etag: string;
  /** `Cache-Control` for browsers and shared caches. */
  cacheControl: string;
  storedAt: number;
  freshUntil: number;
  /** Served while revalidating until then. */
  revalidateUntil: number;
  /** Served when the upstream fails until then. */
  staleUntil: number;
}

export interface Freshness {
  /** Seconds the response is fresh. */
  ttl: number;
  /** Seconds after that it is served while a refresh runs. */
  staleWhileRevalidate: number;
  /** Seconds after that it is served when the upstream fails. */
  staleIfError: number;
}

export type CacheResult = 'hit' | 'miss' | 'stale' | 'stale-error' | 'bypass';

/** A raw request URL already answered, pointing at the key of its stored response. */
interface UrlAlias {
  key: string;
}

type Slot = StoredResponse | UrlAlias;

const isAlias = (slot: Slot): slot is UrlAlias => !('body' in slot);
/** Raw URLs live beside the normalized keys, which never start with this. */
const URL_PREFIX = 'url ';

export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Responses by normalized key, bounded by bytes. One load runs per key however many requests ask for
 * it; stale entries answer at once while one refresh runs, and answer for a failing upstream. The raw
 * request URLs the hot path looks up are kept in the same bound, so no request key escapes it.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, Slot>;
  private readonly loading = new Map<string, Promise<StoredResponse>>();

  constructor(
    readonly maxBytes: number,
    /** Which load failures a stale entry may cover (an upstream outage, not a page that is gone). */
    private readonly staleCovers: (error: unknown) => boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache<string, Slot>({
      maxSize: maxBytes,
      // Keys (UTF-16) and bookkeeping count too, so the bound holds for many small entries.
      sizeCalculation: (slot, key) => (isAlias(slot) ? slot.key.length * 2 + 128 : slot.body.length + 256) + key.length * 2,
      ttlAutopurge: false,
    });
  }

  /** The entry for `key` if it is still fresh. */
  fresh(key: string): StoredResponse | undefined {
    const entry = this.response(key);
    return entry && entry.freshUntil > this.now() ? entry : undefined;
  }

  /** Remembers that the raw request URL `url` was answered with the entry under `key`. */
  rememberUrl(url: string, key: string): void {
    this.entries.set(URL_PREFIX + url, { key });
  }

  /** The fresh entry a raw request URL was answered with: the hot path's only question, no parsing needed. */
  freshForUrl(url: string): StoredResponse | undefined {
    const slot = this.entries.get(URL_PREFIX + url);
    return slot && isAlias(slot) ? this.fresh(slot.key) : undefined;
  }

  async get(key: string, load: () => Promise<StoredResponse>): Promise<{ entry: StoredResponse; result: CacheResult }> {
    const entry = this.response(key);
    const now = this.now();
    if (entry && entry.freshUntil > now) return { entry, result: 'hit' };
    if (entry && entry.revalidateUntil > now) {
      this.load(key, load).catch(() => undefined);
      return { entry, result: 'stale' };
    }
    try {
      return { entry: await this.load(key, load), result: 'miss' };
    } catch (error) {
      if (entry && entry.staleUntil > this.now() && this.staleCovers(error)) return { entry, result: 'stale-error' };
      throw error;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  clear(): void {
    this.entries.clear();
  }

  private response(key: string): StoredResponse | undefined {
    const slot = this.entries.get(key);
    return slot && !isAlias(slot) ? slot : undefined;
  }

  private load(key: string, load: () => Promise<StoredResponse>): Promise<StoredResponse> {
    const running = this.loading.get(key);
    if (running) return running;
    const promise = load()
      .then((entry) => {
        // Failures are not stored; "not found" is, for its own short lifetime.
        if (entry.status < 400 || entry.status === 404) {
          const lifetime = entry.staleUntil - this.now();
          if (lifetime > 0) this.entries.set(key, entry, { ttl: lifetime });
        }
        return entry;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, promise);
    return promise;
  }
}

/** A response to store, with its lifetimes from `freshness`. */
export function storedResponse(
  status: number,
  body: Buffer,
  contentType: string,
  freshness: Freshness,
  shared: boolean,
  now = Date.now(),
): StoredResponse {
  const cacheControl = shared
    ? `public, max-age=${Math.min(freshness.ttl, 60)}, s-maxage=${freshness.ttl}, ` +
      `stale-while-revalidate=${freshness.staleWhileRevalidate}, stale-if-error=${freshness.staleIfError}`
    : `private, max-age=${Math.min(freshness.ttl, 60)}`;
  return {
    status,
    body,
    contentType,
    etag: etagOf(body),
    cacheControl,
    storedAt: now,
    freshUntil: now + freshness.ttl * 1000,
    revalidateUntil: now + (freshness.ttl + freshness.staleWhileRevalidate) * 1000,
    staleUntil: now + (freshness.ttl + Math.max(freshness.staleWhileRevalidate, freshness.staleIfError)) * 1000,
  };
}
