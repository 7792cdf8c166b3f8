import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';
import { freePort, startFakeRedis, startRedis, type TestRedis } from '../fixtures/redis.ts';
import { KEY_OVERHEAD_BYTES } from '../../proxy/replicas/redis-responses.ts';
import { PRESENT_EVERY_MS } from '../../proxy/replicas/redis-rate-limit.ts';
import { NOT_READY_AFTER_MS, OPEN_MS } from '../../proxy/replicas/redis.ts';

/**
 * Replicas of the proxy sharing Debian's real `redis-server`: one cache (the upstream asked once for
 * an answer whichever replica is asked), one limit per client, private answers kept per reader, and
 * no failed request while Redis is down, slow, answering garbage, or killed and started again.
 */
const TOKEN = 'replica-suite-token-5c1d';

let redis: TestRedis;
let upstream: FakeServer;
/** Upstream search calls by query. */
const searches: string[] = [];
let upstreamDelayMs = 0;

/** A search answer long enough to be compressed, naming the query and the reader's session it was made for. */
function searchAnswer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url!, 'http://upstream');
  const query = url.searchParams.get('q') ?? '';
  searches.push(query.replace(/^project:\S+ /, ''));
  const reader = /sessionid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1] ?? 'shared';
  const answer = {
    count: 1,
    next: null,
    previous: null,
    projects: [],
    query,
    results: [
      {
        type: 'page',
        project: { slug: 'aurora', alias: null },
        version: { slug: 'latest' },
        title: `For ${reader}`,
        path: '/en/latest/t.html',
        blocks: [{ type: 'section', id: 's', title: 'Section', content: 'words '.repeat(300) }],
      },
    ],
  };
  setTimeout(() => json(res, 200, answer), upstreamDelayMs);
}

beforeAll(async () => {
  redis = await startRedis();
  upstream = await startFakeServer((req, res) => {
    const path = req.url!.split('?')[0];
    if (path === '/api/v3/projects/aurora/') return json(res, 200, auroraProject(upstream.url));
    if (path === '/api/v3/projects/aurora/translations/' || path === '/api/v3/projects/aurora/subprojects/') {
      return json(res, 200, { count: 0, next: null, previous: null, results: [] });
    }
    if (path === '/api/v3/search/') return searchAnswer(req, res);
    json(res, 404, { detail: 'Not found.' });
  });
});

afterAll(async () => {
  await redis.close();
  await upstream.close();
});

/** The replicas' clock, which the tests move on rather than wait (readiness' hysteresis, the circuit's pause). */
let offsetMs = 0;
const clock = () => Date.now() + offsetMs;

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  offsetMs = 0;
  await Promise.all(running.splice(0).map((server) => server.close()));
  upstreamDelayMs = 0;
  // Each test starts from an empty Redis: no limit or answer left by another.
  await redis.client.flushall();
});

/** What a load balancer in front of the replicas says: the one origin readers reach them at. */
const BALANCER = { 'x-forwarded-host': 'docs-proxy.example', 'x-forwarded-proto': 'https' };

/** Replicas of one deployment (same upstream, projects and Redis) behind one load balancer. */
async function replicas(config: Record<string, unknown> = {}, count = 2, now: () => number = clock): Promise<TestProxy[]> {
  const proxies = await Promise.all(
    Array.from({ length: count }, () =>
      // A timeout a busy test machine keeps to when Redis is well: these tests are about sharing, the
      // fault tests set a short one.
      startTestProxy(
        { upstream: upstream.url, token: TOKEN, redis: redis.url, rateLimit: 0, trustProxy: 1, redisTimeout: 1000, ...config },
        now,
      ),
    ),
  );
  running.push(...proxies);
  return proxies.map((proxy) => {
    const get = proxy.get.bind(proxy);
    return Object.assign(proxy, { get: (path: string, headers: Record<string, string> = {}) => get(path, { ...BALANCER, ...headers }) });
  });
}

const searchesFor = (query: string) => searches.filter((searched) => searched === query).length;

/** Waits until `check` holds: Redis reconnects, and the proxy notices silence, on their own schedule. */
async function eventually(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

const saidUnavailable = (proxy: TestProxy) => proxy.logs.filter((entry) => String(entry.msg).startsWith('redis unavailable')).length;
const saidBack = (proxy: TestProxy) => proxy.logs.filter((entry) => String(entry.msg).startsWith('redis available again')).length;

/** Polls the metrics until the replica uses Redis (connected, circuit closed): it is ready before, for a while. */
async function redisInUse(proxy: TestProxy): Promise<void> {
  await vi.waitFor(async () => expect((await proxy.ops('/metrics')).text).toMatch(/^doclens_redis_up 1$/m), {
    timeout: 10_000,
    interval: 50,
  });
}

/** Polls `/readyz` until it says `status` (Redis reconnects on its own schedule). */
async function readiness(proxy: TestProxy, status: number): Promise<{ status: number; body: { reason?: string } }> {
  for (;;) {
    const answer = await proxy.ops('/readyz');
    if (answer.status === status) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('replicas sharing one Redis', () => {
  it('share a search: the upstream is asked once, through A, and B answers from Redis', async () => {
    const [a, b] = await replicas();
    await redisInUse(a!);
    await redisInUse(b!);
    const first = await a!.get('/api/v3/search/?q=shared+answer');
    const second = await b!.get('/api/v3/search/?q=shared+answer');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('x-doclens-cache')).toBe('hit');
    expect(searchesFor('shared answer')).toBe(1);
    const metrics = await b!.ops('/metrics');
    expect(metrics.text).toMatch(/doclens_cache_lookups_total\{layer="redis",result="hit"\} 1/);
    expect(metrics.text).toMatch(/doclens_redis_up 1/);
  });

  it('ask the upstream once when both miss the same key at once (the refresh lock)', async () => {
    const [a, b] = await replicas();
    await redisInUse(a!);
    await redisInUse(b!);
    upstreamDelayMs = 150;
    const answers = await Promise.all([
      a!.get('/api/v3/search/?q=stampede'),
      b!.get('/api/v3/search/?q=stampede'),
      a!.get('/api/v3/search/?q=stampede'),
      b!.get('/api/v3/search/?q=stampede'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(searchesFor('stampede')).toBe(1);
  });

  it('share a limit: a burst of 10 spread over A and B passes, the 11th on either is 429', async () => {
    // 40 a minute: bursts of a quarter of it, 10, as with one replica. The replicas' clocks stand
    // still, so that no token comes back however slowly the machine answers.
    const start = Date.now();
    const [a, b] = await replicas({ rateLimit: 40 }, 2, () => start);
    await redisInUse(a!);
    await redisInUse(b!);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await (i % 2 ? b! : a!).get(`/api/v3/search/?q=limit${i}`)).status);
    expect(statuses).toEqual(Array(10).fill(200));
    for (const replica of [a!, b!]) {
      const refused = await replica.get('/api/v3/search/?q=one+more');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The hot path counts too: a cached answer does not get round the shared limit.
    expect((await a!.get('/api/v3/search/?q=limit0')).status).toBe(429);
    expect((await a!.ops('/metrics')).text).toMatch(/doclens_rate_limited_total\{limit="client"\} [1-9]/);
  });

  it('share a limit while Redis is down: each of two replicas grants its half of the burst, not a burst of its own', async () => {
    // 40 a minute, bursts of 10; the replicas' clock stands still but when moved on here.
    let time = Date.now();
    const [a, b] = await replicas({ rateLimit: 40 }, 2, () => time);
    await redisInUse(a!);
    await redisInUse(b!);
    // Each says it is there, then, once it is time to say it again, learns that the other is too.
    for (const round of [0, 1]) {
      time += round * PRESENT_EVERY_MS;
      for (const replica of [a!, b!]) expect((await replica.get(`/api/v3/search/?q=present${round}`)).status).toBe(200);
    }
    const [present] = await redis.client.keys('doclens:*:replicas:client');
    expect(await redis.client.zcard(present!)).toBe(2);
    await redis.kill();
    try {
      time += 60_000;
      for (const replica of [a!, b!]) {
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++) statuses.push((await replica.get(`/api/v3/search/?q=outage${i}`)).status);
        expect(statuses).toEqual([...Array(5).fill(200), ...Array(5).fill(429)]);
      }
    } finally {
      await redis.restart();
    }
  }, 60_000);

  it("never show one reader's session answer to another, while sharing each reader's own", async () => {
    const [a, b] = await replicas({ credentials: 'session', token: undefined, corsOrigins: ['https://docs.example.org'] });
    await redisInUse(a!);
    await redisInUse(b!);
    const alice = { cookie: 'sessionid=alice-1' };
    const bob = { cookie: 'sessionid=bob-2' };
    const forAlice = await a!.get('/api/v3/search/?q=private', alice);
    const forBob = await b!.get('/api/v3/search/?q=private', bob);
    const bobOnA = await a!.get('/api/v3/search/?q=private', bob);
    const aliceOnB = await b!.get('/api/v3/search/?q=private', alice);
    expect(forAlice.body.results[0].title).toBe('For alice-1');
    expect(aliceOnB.body.results[0].title).toBe('For alice-1');
    expect(forBob.body.results[0].title).toBe('For bob-2');
    expect(bobOnA.body.results[0].title).toBe('For bob-2');
    // One upstream call per reader: each one's answer is shared across replicas, never across readers.
    expect(searchesFor('private')).toBe(2);
    expect(forAlice.headers.get('cache-control')).toMatch(/^private/);
  });

  it('share nothing when their tokens differ: each asks the upstream, under a key prefix of its own', async () => {
    const [a] = await replicas({}, 1);
    const [other] = await replicas({ token: 'another-replica-token-90ab' }, 1);
    await redisInUse(a!);
    await redisInUse(other!);
    expect((await a!.get('/api/v3/search/?q=by+token')).status).toBe(200);
    const second = await other!.get('/api/v3/search/?q=by+token');
    expect(second.status).toBe(200);
    expect(second.headers.get('x-doclens-cache')).toBe('miss');
    expect(searchesFor('by token')).toBe(2);
    const prefixes = new Set((await redis.client.keys('doclens:*')).map((key) => key.split(':')[1]));
    expect(prefixes.size).toBe(2);
  });

  it('write nothing to Redis without an expiry', async () => {
    const [a] = await replicas({ rateLimit: 100 });
    await redisInUse(a!);
    await a!.get('/api/v3/search/?q=expiring');
    const keys = await redis.client.keys('doclens:*');
    expect(keys.length).toBeGreaterThan(0);
    const ttls = await Promise.all(keys.map((key) => redis.client.pttl(key)));
    expect(ttls.filter((ttl) => ttl < 0)).toEqual([]);
  });

  it('survive Redis killed and started again mid-run: no 5xx, no lost answer, Redis used again', async () => {
    const [a, b] = await replicas({ rateLimit: 100_000 });
    await redisInUse(a!);
    const statuses: number[] = [];
    const texts: string[] = [];
    const ask = async (round: number) => {
      const replica = round % 2 ? b! : a!;
      // Some queries repeat (answers from memory or Redis), some are new (the upstream).
      const answer = await replica.get(`/api/v3/search/?q=${round % 3 ? `round${round}` : 'steady'}`);
      statuses.push(answer.status);
      texts.push(answer.text);
    };
    for (let round = 0; round < 10; round++) await ask(round);
    await redis.kill();
    for (let round = 10; round < 30; round++) await ask(round);
    // Ready still, until Redis has been out of use for a while without a break.
    expect((await a!.ops('/readyz')).status).toBe(200);
    offsetMs += NOT_READY_AFTER_MS;
    expect((await readiness(a!, 503)).body.reason).toMatch(/redis/);
    await redis.restart();
    for (let round = 30; round < 40; round++) await ask(round);
    await redisInUse(a!);
    await redisInUse(b!);
    for (let round = 40; round < 50; round++) await ask(round);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(texts.every((text) => JSON.parse(text).results.length === 1)).toBe(true);
    // Back in use: an answer A loads now is served by B from Redis.
    await a!.get('/api/v3/search/?q=after+restart');
    expect((await b!.get('/api/v3/search/?q=after+restart')).headers.get('x-doclens-cache')).toBe('hit');
    expect(searchesFor('after restart')).toBe(1);
    // Said once each way, in JSON lines.
    for (const replica of [a!, b!]) {
      expect(saidUnavailable(replica)).toBe(1);
      expect(saidBack(replica)).toBe(1);
    }
  }, 60_000);

  it("go on without a slow Redis (paused): no 5xx, the cache layer's circuit opens, readiness holds, Redis used again after", async () => {
    // A timeout the loaded test machine keeps to when Redis is well, which the pause exceeds.
    const [a] = await replicas({ redisTimeout: 300 }, 1);
    await redisInUse(a!);
    await redis.client.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await a!.get(`/api/v3/search/?q=paused${i % 4}`)).status);
    expect(statuses).toEqual(Array(8).fill(200));
    expect((await a!.ops('/metrics')).text).toMatch(/doclens_redis_errors_total\{operation="cache_read"\} [1-9]/);
    // Cache commands failing open the cache layer's circuit only: the connection is up, readiness holds.
    expect((await a!.ops('/readyz')).status).toBe(200);
    expect(saidUnavailable(a!)).toBe(0);
    // After the pause the cache layer's circuit lets a trial through, which succeeds: answers are written again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    offsetMs += OPEN_MS;
    expect((await a!.get('/api/v3/search/?q=after+pause')).status).toBe(200);
    await eventually(() => searchesFor('after pause') === 1);
    await vi.waitFor(async () => expect(await redis.client.keys('doclens:*:r:*')).not.toEqual([]));
  }, 30_000);

  it('keep the answers they write within --redis-bytes, and their lifetime within --redis-ttl', async () => {
    const budget = 1024 * 1024;
    const [a, b] = await replicas({ redisBytes: budget, redisTtl: 120 });
    await redisInUse(a!);
    const asked = Array.from({ length: 400 }, (_, i) => i);
    const statuses: number[] = [];
    const worker = async () => {
      for (let i = asked.shift(); i !== undefined; i = asked.shift()) {
        statuses.push((await (i % 2 ? a! : b!).get(`/api/v3/search/?q=distinct${i}`)).status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const keys = await redis.client.keys('doclens:*:r:*');
    const sizes = await Promise.all(keys.map((key) => redis.client.strlen(key)));
    // As the replicas count them: the value, its key after the deployment's prefix, Redis' overhead.
    const stored = sizes.reduce((sum, size, i) => sum + size + keys[i]!.length - keys[i]!.indexOf('r:') + KEY_OVERHEAD_BYTES, 0);
    // Some were left out: 400 answers of about 3 KB each do not fit in half a megabyte.
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.length).toBeLessThan(400);
    // Half the budget a window, and at most two windows hold answers still alive.
    expect(stored).toBeLessThanOrEqual(budget);
    const ttls = await Promise.all(keys.map((key) => redis.client.pttl(key)));
    expect(Math.max(...ttls)).toBeLessThanOrEqual(120_000);
  }, 30_000);

  it('warn at start when Redis bounds nothing (no maxmemory), or refuses writes when full (noeviction)', async () => {
    const [unbounded] = await replicas({}, 1);
    await eventually(() => unbounded!.logs.some((entry) => String(entry.msg).startsWith('redis has no maxmemory')));
    await redis.client.config('SET', 'maxmemory', String(256 * 1024 * 1024));
    try {
      const [refusing] = await replicas({}, 1);
      await eventually(() => refusing!.logs.some((entry) => String(entry.msg).startsWith('redis refuses writes when full')));
      await redis.client.config('SET', 'maxmemory-policy', 'volatile-lru');
      const [bounded] = await replicas({}, 1);
      await redisInUse(bounded!);
      // Answered after the INFO asked on connecting: its warning, were there one, is logged by now.
      await bounded!.get('/api/v3/search/?q=bounded');
      expect(bounded!.logs.filter((entry) => entry.level === 'warn')).toEqual([]);
    } finally {
      await redis.client.config('SET', 'maxmemory', '0', 'maxmemory-policy', 'noeviction');
    }
  });
});

describe('a Redis that asks for a password', () => {
  it('is used with the password from the URL or from DOCLENS_REDIS_PASSWORD, and refused without', async () => {
    const guarded = await startRedis('redis-secret-31');
    running.push(guarded);
    const port = new URL(guarded.url).port;
    const { configInput } = await import('../../proxy/config.ts');
    const fromEnv = configInput({}, { DOCLENS_REDIS_PASSWORD: 'redis-secret-31' }, {}).redisPassword as string;
    const [inUrl] = await replicas({ redis: `redis://:redis-secret-31@127.0.0.1:${port}` }, 1);
    const [inEnv] = await replicas({ redis: guarded.url, redisPassword: fromEnv }, 1);
    const [without] = await replicas({ redis: guarded.url }, 1);
    await redisInUse(inUrl!);
    await redisInUse(inEnv!);
    offsetMs += NOT_READY_AFTER_MS;
    expect((await readiness(without!, 503)).body.reason).toMatch(/NOAUTH|auth/i);
    await inUrl!.get('/api/v3/search/?q=guarded');
    expect((await inEnv!.get('/api/v3/search/?q=guarded')).headers.get('x-doclens-cache')).toBe('hit');
    expect(searchesFor('guarded')).toBe(1);
    for (const proxy of [inUrl!, inEnv!, without!]) expect(JSON.stringify(proxy.logs)).not.toContain('redis-secret-31');
  });
});

describe('a proxy whose Redis misbehaves', () => {
  const cases: [string, () => Promise<{ url: string; close(): Promise<void> }>][] = [
    ['down at start', async () => ({ url: `redis://127.0.0.1:${await freePort()}`, close: async () => undefined })],
    ['answering garbage', () => startFakeRedis('garbage')],
    ['never answering (slow)', () => startFakeRedis('silent')],
  ];
  for (const [name, start] of cases) {
    it(`${name}: answers every request from memory and the upstream, says so in /readyz and once in the log`, async () => {
      const fake = await start();
      running.push(fake);
      const [proxy] = await replicas({ redis: fake.url, redisTimeout: 50, rateLimit: 600 }, 1);
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await proxy!.get(`/api/v3/search/?q=${i % 2 ? 'again' : `fault${i}`}`));
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
      expect(answers.filter((answer) => answer.headers.get('x-doclens-cache') === 'hit').length).toBeGreaterThan(0);
      offsetMs += NOT_READY_AFTER_MS;
      const ready = await readiness(proxy!, 503);
      expect(ready.body.reason).toMatch(/^redis is unavailable/);
      await eventually(() => saidUnavailable(proxy!) > 0);
      expect(saidUnavailable(proxy!)).toBe(1);
      expect(JSON.stringify(proxy!.logs)).not.toContain(TOKEN);
    });
  }
});
