import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Cache, ResponseCache, storedResponse, timed, type Freshness, type StoredResponse, type Timed } from './cache.ts';

class UpstreamDown extends Error {}
class PageGone extends Error {}

const FRESHNESS: Freshness = { ttl: 60, staleWhileRevalidate: 30, staleIfError: 600 };

/** A cache on a clock the test moves, whose stale entries may stand in for `UpstreamDown` only. */
function cacheOn(maxBytes = 1024 * 1024) {
  let time = 1_000_000;
  const cache = new ResponseCache(
    maxBytes,
    (error) => error instanceof UpstreamDown,
    () => time,
  );
  const answer = (text: string, status = 200, freshness = FRESHNESS): StoredResponse =>
    storedResponse(status, Buffer.from(text), 'application/json', freshness, true, time);
  return {
    cache,
    answer,
    advance: (seconds: number) => {
      time += seconds * 1000;
    },
  };
}

const text = (entry: StoredResponse) => entry.body.toString();

describe('ResponseCache', () => {
  it('loads on a miss, then answers hits without loading', async () => {
    const { cache, answer } = cacheOn();
    let loads = 0;
    const load = async () => answer(`v${++loads}`);
    const first = await cache.get('k', load);
    const second = await cache.get('k', load);
    expect([first.result, text(first.entry)]).toEqual(['miss', 'v1']);
    expect([second.result, text(second.entry)]).toEqual(['hit', 'v1']);
    expect(loads).toBe(1);
  });

  it('runs one load for any number of concurrent requests of a key', async () => {
    const { cache, answer } = cacheOn();
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return answer('shared');
    };
    vi.useFakeTimers();
    let answers: { entry: StoredResponse }[];
    try {
      const all = Promise.all(Array.from({ length: 20 }, () => cache.get('k', load)));
      await vi.runAllTimersAsync();
      answers = await all;
    } finally {
      vi.useRealTimers();
    }
    expect(loads).toBe(1);
    expect(new Set(answers.map(({ entry }) => text(entry)))).toEqual(new Set(['shared']));
  });

  it('answers a stale entry at once while one refresh runs, then the refreshed one', async () => {
    const { cache, answer, advance } = cacheOn();
    await cache.get('k', async () => answer('old'));
    advance(61);
    expect(cache.fresh('k')).toBeUndefined();
    let refreshes = 0;
    let finish: (entry: StoredResponse) => void = () => undefined;
    const refreshed = new Promise<StoredResponse>((resolve) => (finish = resolve));
    const refresh = () => {
      refreshes++;
      return refreshed;
    };
    const stale = await Promise.all([cache.get('k', refresh), cache.get('k', refresh)]);
    expect(stale.map(({ result, entry }) => [result, text(entry)])).toEqual([
      ['stale', 'old'],
      ['stale', 'old'],
    ]);
    expect(refreshes).toBe(1);
    finish(answer('new'));
    // The refresh is stored once it has settled (a step or more later): wait until it is there.
    await vi.waitFor(() => expect(cache.fresh('k')).toBeDefined());
    const after = await cache.get('k', refresh);
    expect([after.result, text(after.entry)]).toEqual(['hit', 'new']);
  });

  it('answers a stale entry while the upstream fails, for stale-if-error only, and only for failures it may cover', async () => {
    const { cache, answer, advance } = cacheOn();
    await cache.get('k', async () => answer('kept'));
    advance(60 + 30 + 1);
    const down = await cache.get('k', async () => {
      throw new UpstreamDown();
    });
    expect([down.result, text(down.entry)]).toEqual(['stale-error', 'kept']);
    await expect(cache.get('k', async () => Promise.reject(new PageGone()))).rejects.toBeInstanceOf(PageGone);
    advance(600);
    await expect(cache.get('k', async () => Promise.reject(new UpstreamDown()))).rejects.toBeInstanceOf(UpstreamDown);
  });

  it('keeps "not found" for its own lifetime and never keeps other failures', async () => {
    const { cache, answer } = cacheOn();
    let loads = 0;
    const gone = async () => {
      loads++;
      return answer('{"error":{}}', 404, { ttl: 30, staleWhileRevalidate: 0, staleIfError: 0 });
    };
    await cache.get('missing', gone);
    expect((await cache.get('missing', gone)).result).toBe('hit');
    expect(loads).toBe(1);
    const failing = async () => {
      loads++;
      return answer('{"error":{}}', 502);
    };
    await cache.get('broken', failing);
    expect((await cache.get('broken', failing)).result).toBe('miss');
    expect(loads).toBe(3);
  });

  it('keeps no answer given no lifetime (a partial one), and keeps serving the good copy meanwhile', async () => {
    const { cache, answer, advance } = cacheOn();
    await cache.get('k', async () => answer('complete'));
    advance(61);
    const partial = Promise.resolve(answer('partial', 200, { ttl: 0, staleWhileRevalidate: 0, staleIfError: 0 }));
    await cache.get('k', () => partial);
    // The cache has handled the partial answer: its handler was registered before this await's.
    await partial;
    const next = await cache.get('k', async () => answer('complete again'));
    expect([next.result, text(next.entry)]).toEqual(['stale', 'complete']);
  });

  it('stays within its byte bound, forgetting the least recently used entries first', async () => {
    const { cache, answer } = cacheOn(20_000);
    const body = 'x'.repeat(2_000);
    await cache.get('first', async () => answer(body));
    for (let i = 0; i < 30; i++) {
      await cache.get(`k${i}`, async () => answer(body));
      // Used all along, the first entry outlives the others.
      expect(cache.fresh('first')).toBeDefined();
    }
    expect(cache.size.bytes).toBeLessThanOrEqual(20_000);
    expect(cache.size.entries).toBeLessThan(10);
    expect(cache.fresh('k0')).toBeUndefined();
    expect(cache.fresh('k29')).toBeDefined();
  });

  it('answers an answer bigger than the whole cache without keeping it', async () => {
    const { cache, answer } = cacheOn(10_000);
    const big = await cache.get('big', async () => answer('x'.repeat(50_000)));
    expect([big.result, big.entry.body.length]).toEqual(['miss', 50_000]);
    expect(cache.fresh('big')).toBeUndefined();
    expect(cache.size.bytes).toBe(0);
  });

  it('finds fresh entries by the raw URL they answered, within the same bound', async () => {
    const { cache, answer, advance } = cacheOn();
    await cache.get('shared|/api/v3/search/?q=a', async () => answer('found'));
    const before = cache.size.bytes;
    cache.rememberUrl('http://proxy.test/api/v3/search/?q=a', 'shared|/api/v3/search/?q=a');
    expect(cache.size.bytes).toBeGreaterThan(before);
    expect(text(cache.freshForUrl('http://proxy.test/api/v3/search/?q=a')!)).toBe('found');
    expect(cache.freshForUrl('http://proxy.test/api/v3/search/?q=b')).toBeUndefined();
    // The raw URL is no key of a response: nothing is found by it on the normal path.
    expect(cache.fresh('http://proxy.test/api/v3/search/?q=a')).toBeUndefined();
    advance(61);
    expect(cache.freshForUrl('http://proxy.test/api/v3/search/?q=a')).toBeUndefined();
  });
});

describe('storedResponse', () => {
  it('gives shared answers public lifetimes, browsers at most a minute', () => {
    const entry = storedResponse(
      200,
      Buffer.from('{}'),
      'application/json',
      { ttl: 600, staleWhileRevalidate: 30, staleIfError: 86400 },
      true,
      0,
    );
    expect(entry.cacheControl).toBe('public, max-age=60, s-maxage=600, stale-while-revalidate=30, stale-if-error=86400');
    expect([entry.freshUntil, entry.revalidateUntil, entry.staleUntil]).toEqual([600_000, 630_000, 87_000_000]);
  });

  it('keeps answers for one reader private, and gives equal bodies equal strong ETags', () => {
    const a = storedResponse(200, Buffer.from('{"a":1}'), 'application/json', FRESHNESS, false, 0);
    const b = storedResponse(200, Buffer.from('{"a":1}'), 'application/json', FRESHNESS, false, 5);
    const c = storedResponse(200, Buffer.from('{"a":2}'), 'application/json', FRESHNESS, false, 0);
    expect(a.cacheControl).toBe('private, max-age=60');
    expect(a.etag).toMatch(/^"[\w-]+"$/);
    expect(a.etag).toBe(b.etag);
    expect(a.etag).not.toBe(c.etag);
  });

  it('compresses an answer once, when it is loaded, and counts the copies in its size', async () => {
    const { cache, answer } = cacheOn();
    const json = JSON.stringify({ results: Array.from({ length: 200 }, (_, i) => `result ${i}`) });
    const first = await cache.get('k', async () => answer(json));
    const bytesWithCopies = cache.size.bytes;
    const second = await cache.get('k', async () => answer('never loaded'));
    expect(first.entry.encoded.br).toBeDefined();
    expect(first.entry.encoded.gzip).toBeDefined();
    // The same buffers: a hit sends the copies made at load time.
    expect(second.entry.encoded.br).toBe(first.entry.encoded.br);
    expect(bytesWithCopies).toBeGreaterThan(json.length + first.entry.encoded.br!.length + first.entry.encoded.gzip!.length);
  });
});

describe('Cache of values with their lifetimes (project data, fetched pages)', () => {
  // Loads take time on a fake clock: the test runs it to the end of every load.
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const pageCache = () =>
    new Cache<Timed<{ bytes: number }>>({
      maxBytes: 400,
      sizeOf: (entry) => entry.value.bytes,
      staleCovers: (error) => error instanceof UpstreamDown,
    });
  const slowLoad = (bytes: number, delay: number) => async () => {
    await new Promise((resolve) => setTimeout(resolve, delay));
    return timed({ bytes }, FRESHNESS, Date.now());
  };

  it('answers every concurrent caller with a value too big to keep, loading it once', async () => {
    const cache = pageCache();
    let loads = 0;
    const load = async () => {
      loads++;
      return slowLoad(1000, 10)();
    };
    const all = Promise.all([cache.get('big', load), cache.get('big', load), cache.get('big', load)]);
    await vi.runAllTimersAsync();
    expect((await all).map(({ entry }) => entry.value.bytes)).toEqual([1000, 1000, 1000]);
    expect(loads).toBe(1);
    expect(cache.size.bytes).toBe(0);
  });

  it('answers callers whose entry was evicted by other loads meanwhile', async () => {
    const cache = pageCache();
    // The first loads finish last: the entries of the early finishers are evicted before their callers are answered.
    const all = Promise.all(Array.from({ length: 6 }, (_, i) => cache.get(`page${i}`, slowLoad(200, 5 * (6 - i)))));
    await vi.runAllTimersAsync();
    expect((await all).every(({ entry }) => entry.value.bytes === 200)).toBe(true);
    expect(cache.size.bytes).toBeLessThanOrEqual(400);
  });

  it('rejects with the load error when there is nothing to fall back on', async () => {
    await expect(pageCache().get('x', () => Promise.reject(new UpstreamDown('upstream down')))).rejects.toThrow('upstream down');
  });

  it('answers a stale value while the upstream fails, within its stale-if-error lifetime', async () => {
    const cache = pageCache();
    await cache.get('p', async () => timed({ bytes: 10 }, FRESHNESS, Date.now()));
    vi.advanceTimersByTime((FRESHNESS.ttl + FRESHNESS.staleWhileRevalidate + 1) * 1000);
    const stale = await cache.get('p', () => Promise.reject(new UpstreamDown()));
    expect([stale.result, stale.entry.value.bytes]).toEqual(['stale-error', 10]);
    vi.advanceTimersByTime(FRESHNESS.staleIfError * 1000);
    await expect(cache.get('p', () => Promise.reject(new UpstreamDown('still down')))).rejects.toThrow('still down');
  });
});
