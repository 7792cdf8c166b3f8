import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { encodedBodies, type EncodedBodies } from './encoding.ts';
import type { CacheLayer, LayerResult } from './metrics.ts';

/** Until when (ms since the epoch) an entry is fresh, is served while it is refreshed, and stands in for failures. */
export interface Lifetimes {
  freshUntil: number;
  /** Served while revalidating until then. */
  revalidateUntil: number;
  /** Served when the upstream fails until then. */
  staleUntil: number;
}

/** A finished response, stored as the bytes sent: a cache hit only writes them out. */
export interface StoredResponse extends Lifetimes {
  status: number;
  body: Buffer;
  /** The body compressed, when it is large enough to gain from it: made once, before the entry is kept. */
  encoded: EncodedBodies;
  contentType: string;
  etag: string;
  /** `Cache-Control` for browsers and shared caches. */
  cacheControl: string;
  storedAt: number;
}

/** Anything else the proxy caches (project data, fetched pages): the value and its lifetimes. */
export interface Timed<V> extends Lifetimes {
  value: V;
}

export interface Freshness {
  /** Seconds the response is fresh. */
  ttl: number;
  /** Seconds after that it is served while a refresh runs. */
  staleWhileRevalidate: number;
  /** Seconds after that it is served when the upstream fails. */
  staleIfError: number;
}

export type CacheResult = 'hit' | 'miss' | 'stale' | 'stale-error';

/** An answer and how the cache came by it. */
export interface CacheOutcome<E extends Lifetimes = StoredResponse> {
  entry: E;
  result: CacheResult;
}

/** A refresh lock on a key in the shared layer. */
export type SharedLock = { state: 'acquired'; release(): void } | { state: 'held' } | { state: 'unavailable' };

/**
 * A second cache layer shared by replicas (Redis). Every call settles within a bounded time and never
 * throws: an unavailable layer reads as empty and its locks as `unavailable`.
 */
export interface SharedLayer<E extends Lifetimes = StoredResponse> {
  read(key: string): Promise<E | undefined>;
  /** Stores the entry until its `staleUntil`, without waiting for it. */
  write(key: string, entry: E): void;
  /** Takes the short lock under which one replica refreshes a key while the others wait for its answer. */
  lock(key: string): Promise<SharedLock>;
  /** Milliseconds a lock lives: how long a replica waits for another's answer before asking itself. */
  readonly lockMs: number;
}

export interface CacheLayers<E extends Lifetimes = StoredResponse> {
  /** The shared layer behind memory, when replicas share one. */
  shared?: SharedLayer<E>;
  /** Counts each look into a layer, for the metrics. */
  onLookup?: (layer: CacheLayer, result: LayerResult) => void;
}

/** What a cache keeps and how: everything but the staleness rules, which are the cache's own. */
export interface CacheOptions<E extends Lifetimes> extends CacheLayers<E> {
  maxBytes: number;
  /** Bytes an entry takes in memory, its key aside. */
  sizeOf: (entry: E) => number;
  /** Which load failures a stale entry may cover (an upstream outage, not a page that is gone). */
  staleCovers: (error: unknown) => boolean;
  now?: () => number;
  /** Whether a loaded entry is kept; it answers the requests that waited for it either way. */
  keepable?: (entry: E) => boolean;
  /** Work done once on a loaded entry, before it is kept and answered (compression). */
  prepare?: (entry: E) => Promise<E>;
}

/** A raw request URL already answered, pointing at the key of its entry. */
interface UrlAlias {
  key: string;
}

type Slot<E> = E | UrlAlias;

/** What a look in the shared layer leads to: its answer, or a load from the upstream (under its lock, if taken). */
type SharedFinding<E extends Lifetimes> = { outcome: CacheOutcome<E> } | { release?: () => void; fallback?: E };

const isAlias = <E extends Lifetimes>(slot: Slot<E>): slot is UrlAlias => !('freshUntil' in slot);
/** Raw URLs live beside the normalized keys, which never start with this. */
const URL_PREFIX = 'url ';
/** How often a replica looks for the answer another replica is loading under the lock: quickly at first. */
const FIRST_POLL_MS = 10;
const LAST_POLL_MS = 100;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const encodedBytes = (entry: StoredResponse) => (entry.encoded.br?.length ?? 0) + (entry.encoded.gzip?.length ?? 0);

export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** The lifetimes of an entry stored `now`: the one place that turns freshness into instants. */
export function lifetimesOf(freshness: Freshness, now: number): Lifetimes {
  return {
    freshUntil: now + freshness.ttl * 1000,
    revalidateUntil: now + (freshness.ttl + freshness.staleWhileRevalidate) * 1000,
    staleUntil: now + (freshness.ttl + Math.max(freshness.staleWhileRevalidate, freshness.staleIfError)) * 1000,
  };
}

/** A value to keep with its lifetimes from `freshness`. */
export function timed<V>(value: V, freshness: Freshness, now: number): Timed<V> {
  return { value, ...lifetimesOf(freshness, now) };
}

/**
 * Entries by key, bounded by bytes: the proxy's one cache (responses, project data, fetched pages). One
 * load runs per key however many requests ask for it; stale entries answer at once while one refresh
 * runs, and answer for a failing upstream; an entry too big to keep still answers the requests that
 * waited for it. The raw request URLs the hot path looks up are kept in the same bound, so no request
 * key escapes it.
 *
 * With a shared layer (Redis), memory stays first: a hit it holds never waits on the network. A miss
 * looks in the shared layer, which other replicas fill, before the upstream; and a replica loading a
 * key takes the layer's lock, so that replicas missing the same key at once wait for its answer
 * instead of asking the upstream each.
 */
export class Cache<E extends Lifetimes> {
  readonly maxBytes: number;
  private readonly entries: LRUCache<string, Slot<E>>;
  private readonly loading = new Map<string, Promise<CacheOutcome<E>>>();
  private readonly refreshing = new Set<string>();
  private readonly staleCovers: (error: unknown) => boolean;
  private readonly now: () => number;
  private readonly layers: CacheLayers<E>;
  private readonly keepable: (entry: E) => boolean;
  private readonly prepare: (entry: E) => Promise<E>;

  constructor({
    maxBytes,
    sizeOf,
    staleCovers,
    now = Date.now,
    keepable = () => true,
    prepare = async (entry) => entry,
    ...layers
  }: CacheOptions<E>) {
    this.maxBytes = maxBytes;
    this.staleCovers = staleCovers;
    this.now = now;
    this.layers = layers;
    this.keepable = keepable;
    this.prepare = prepare;
    this.entries = new LRUCache<string, Slot<E>>({
      maxSize: maxBytes,
      // Keys (UTF-16) and bookkeeping count too, so the bound holds for many small entries.
      sizeCalculation: (slot, key) => (isAlias(slot) ? slot.key.length * 2 + 128 : sizeOf(slot) + 256) + key.length * 2,
      ttlAutopurge: false,
    });
  }

  /** The entry for `key` if it is still fresh. */
  fresh(key: string): E | undefined {
    const entry = this.entryOf(key);
    return entry && entry.freshUntil > this.now() ? entry : undefined;
  }

  /** Remembers that the raw request URL `url` was answered with the entry under `key`. */
  rememberUrl(url: string, key: string): void {
    this.entries.set(URL_PREFIX + url, { key });
  }

  /** The fresh entry a raw request URL was answered with: the hot path's only question, no parsing needed. */
  freshForUrl(url: string): E | undefined {
    const slot = this.entries.get(URL_PREFIX + url);
    return slot && isAlias(slot) ? this.fresh(slot.key) : undefined;
  }

  async get(key: string, load: () => Promise<E>): Promise<CacheOutcome<E>> {
    const entry = this.entryOf(key);
    const now = this.now();
    if (entry && entry.freshUntil > now) {
      this.layers.onLookup?.('memory', 'hit');
      return { entry, result: 'hit' };
    }
    if (entry && entry.revalidateUntil > now) {
      this.layers.onLookup?.('memory', 'stale');
      this.refresh(key, load);
      return { entry, result: 'stale' };
    }
    this.layers.onLookup?.('memory', 'miss');
    try {
      return await this.loadOnce(key, load);
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

  private entryOf(key: string): E | undefined {
    const slot = this.entries.get(key);
    return slot && !isAlias(slot) ? slot : undefined;
  }

  /** One load per key at a time in this process, from the shared layer or the upstream. */
  private loadOnce(key: string, load: () => Promise<E>): Promise<CacheOutcome<E>> {
    const running = this.loading.get(key);
    if (running) return running;
    const promise = this.loadThroughLayers(key, load).finally(() => this.loading.delete(key));
    this.loading.set(key, promise);
    return promise;
  }

  private async loadThroughLayers(key: string, load: () => Promise<E>): Promise<CacheOutcome<E>> {
    const finding: SharedFinding<E> = this.layers.shared ? await this.lookShared(key, load, false) : {};
    if ('outcome' in finding) return finding.outcome;
    try {
      return { entry: await this.loadUpstream(key, load, finding.release), result: 'miss' };
    } catch (error) {
      const { fallback } = finding;
      if (fallback && fallback.staleUntil > this.now() && this.staleCovers(error)) return { entry: fallback, result: 'stale-error' };
      throw error;
    }
  }

  /** Refreshes a stale entry in the background, once per key: nothing when another replica already does. */
  private refresh(key: string, load: () => Promise<E>): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    const run = async () => {
      const finding: SharedFinding<E> | undefined = this.layers.shared ? await this.lookShared(key, load, true) : {};
      if (finding && !('outcome' in finding)) await this.loadUpstream(key, load, finding.release);
    };
    run()
      .catch(() => undefined)
      .finally(() => this.refreshing.delete(key));
  }

  /**
   * Looks for `key` in the shared layer, waiting while another replica holds its lock. Undefined (when
   * `refreshing` a stale entry) means another replica is refreshing it already.
   */
  private async lookShared(key: string, load: () => Promise<E>, refreshing: true): Promise<SharedFinding<E> | undefined>;
  private async lookShared(key: string, load: () => Promise<E>, refreshing: false): Promise<SharedFinding<E>>;
  private async lookShared(key: string, load: () => Promise<E>, refreshing: boolean): Promise<SharedFinding<E> | undefined> {
    const shared = this.layers.shared!;
    const giveUpAt = this.now() + shared.lockMs;
    let fallback: E | undefined;
    for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, LAST_POLL_MS)) {
      const found = await shared.read(key);
      const now = this.now();
      if (found && found.freshUntil > now) {
        this.layers.onLookup?.('redis', 'hit');
        return this.sharedHit(key, found);
      }
      if (found && !refreshing && found.revalidateUntil > now) {
        this.layers.onLookup?.('redis', 'stale');
        this.keep(key, found, false);
        this.refresh(key, load);
        return { outcome: { entry: found, result: 'stale' } };
      }
      if (found && found.staleUntil > now) fallback = found;
      if (wait === FIRST_POLL_MS) this.layers.onLookup?.('redis', found ? 'stale' : 'miss');
      const lock = await shared.lock(key);
      if (lock.state === 'acquired') {
        // Another replica may have loaded the key and let its lock go between the read above and this lock.
        const loaded = await shared.read(key);
        if (!loaded || loaded.freshUntil <= this.now()) return { release: lock.release, fallback };
        lock.release();
        return this.sharedHit(key, loaded);
      }
      if (lock.state === 'unavailable' || now >= giveUpAt) return { fallback };
      if (refreshing) return undefined;
      await pause(wait);
    }
  }

  /** A fresh answer from the shared layer, kept in memory too. */
  private sharedHit(key: string, entry: E): SharedFinding<E> {
    this.keep(key, entry, false);
    return { outcome: { entry, result: 'hit' } };
  }

  /** Loads from the upstream, prepares once, keeps the answer in memory and the shared layer. */
  private async loadUpstream(key: string, load: () => Promise<E>, release?: () => void): Promise<E> {
    try {
      const entry = await this.prepare(await load());
      this.keep(key, entry, true);
      return entry;
    } finally {
      release?.();
    }
  }

  private keep(key: string, entry: E, share: boolean): void {
    if (!this.keepable(entry)) return;
    const lifetime = entry.staleUntil - this.now();
    if (lifetime <= 0) return;
    this.entries.set(key, entry, { ttl: lifetime });
    if (share) this.layers.shared?.write(key, entry);
  }
}

/** Responses as sent, compressed once when loaded; failures but "not found" are not kept. */
export class ResponseCache extends Cache<StoredResponse> {
  constructor(maxBytes: number, staleCovers: (error: unknown) => boolean, now: () => number = Date.now, layers: CacheLayers = {}) {
    super({
      maxBytes,
      sizeOf: (entry) => entry.body.length + encodedBytes(entry),
      staleCovers,
      now,
      // "Not found" is kept, for its own short lifetime.
      keepable: (entry) => entry.status < 400 || entry.status === 404,
      // Copies made already (a large answer's, in a worker thread) are kept as they are.
      prepare: async (entry) => (entry.encoded.br || entry.encoded.gzip ? entry : { ...entry, encoded: await encodedBodies(entry.body) }),
      ...layers,
    });
  }
}

/** A response to store, with its lifetimes from `freshness`; its tag and copies when they were made elsewhere. */
export function storedResponse(
  status: number,
  body: Buffer,
  contentType: string,
  freshness: Freshness,
  shared: boolean,
  now = Date.now(),
  made: Pick<StoredResponse, 'encoded' | 'etag'> = { encoded: {}, etag: etagOf(body) },
): StoredResponse {
  const cacheControl = shared
    ? `public, max-age=${Math.min(freshness.ttl, 60)}, s-maxage=${freshness.ttl}, ` +
      `stale-while-revalidate=${freshness.staleWhileRevalidate}, stale-if-error=${freshness.staleIfError}`
    : `private, max-age=${Math.min(freshness.ttl, 60)}`;
  return {
    status,
    body,
    ...made,
    contentType,
    cacheControl,
    storedAt: now,
    ...lifetimesOf(freshness, now),
  };
}
