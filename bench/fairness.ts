import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../proxy/config.ts';
import { createLogger } from '../proxy/http/log.ts';
import { startProxy } from '../proxy/server.ts';
import { startRedis } from '../test/fixtures/redis.ts';
import { FAIRNESS_ATTACKS, startIsolationRun } from '../test/reliability/isolation-harness.ts';
import { searchResults } from './corpus.ts';
import { table } from './stats.ts';

/** Seconds each attack runs while the second client measures. */
const SECONDS = Number(process.env.BENCH_FAIRNESS_SECONDS ?? 10);
/** What issue 30 asks of /healthz and cache hits while one client attacks. */
const TARGET_P99_MS = 100;
/** Distinct searches written through Redis, and the budget they are written within. */
const SEARCHES = Number(process.env.BENCH_FAIRNESS_SEARCHES ?? 10_000);
const REDIS_BYTES = 16 * 1024 * 1024;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Latency of a second client (and the proxy's peak RSS) while one client does each attack of issue 30, beside a baseline. */
async function attacks(): Promise<void> {
  const run = await startIsolationRun();
  try {
    const rows: [string, ...string[]][] = [['attack', 'answers', 'p50', 'p99', 'max', 'failures', 'peak RSS']];
    for (const [attack, name] of [[undefined, '0. nothing (the baseline)'] as const, ...FAIRNESS_ATTACKS]) {
      const { count, p50, p99, max, failures, peakRss } = await run.measure(attack, SECONDS * 1000);
      rows.push([
        name,
        String(count),
        `${p50.toFixed(1)} ms`,
        `${p99.toFixed(1)} ms${p99 < TARGET_P99_MS ? '' : ' (over target)'}`,
        `${max.toFixed(1)} ms`,
        String(failures.length),
        mb(peakRss),
      ]);
    }
    table(
      `Fairness: /healthz and a cache hit from a second client (127.0.0.1) while one client (127.0.0.2) attacks ` +
        `(${SECONDS} s each; target p99 < ${TARGET_P99_MS} ms, no failures)`,
      rows,
    );
  } finally {
    await run.close();
  }
}

/** Redis' used memory after distinct searches through a replica whose --redis-bytes is far below what they would take. */
async function redisBudget(): Promise<void> {
  const results = searchResults(20, (i) => `Lease ${i} retry scheduler. `.repeat(40));
  const upstream = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const body =
      url.pathname === '/api/v3/projects/aurora/'
        ? { slug: 'aurora', name: 'Aurora', language: { code: 'en', name: 'English' }, default_version: 'latest', urls: {} }
        : { count: results.length, next: null, previous: null, projects: [], query: url.searchParams.get('q'), results };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const redis = await startRedis();
  const proxy = await startProxy(
    parseConfig({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      token: 'bench-fairness-token-0123',
      projects: ['aurora'],
      allowPrivateNetwork: true,
      port: 0,
      rateLimit: 0,
      redis: redis.url,
      redisBytes: REDIS_BYTES,
      redisTimeout: 1000,
    }),
    { logger: createLogger('silent') },
  );
  try {
    const usedMemory = async () => Number(/^used_memory:(\d+)/m.exec(await redis.client.info('memory'))?.[1]);
    const before = await usedMemory();
    let next = 0;
    let failed = 0;
    let peak = before;
    const worker = async () => {
      for (let i = next++; i < SEARCHES; i = next++) {
        const response = await fetch(`${proxy.url}/api/v3/search/?q=distinct+${i}`);
        await response.arrayBuffer();
        if (response.status !== 200) failed++;
        if (i % 500 === 0) peak = Math.max(peak, await usedMemory());
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    peak = Math.max(peak, await usedMemory());
    const keys = (await redis.client.keys('doclens:*:r:*')).length;
    table(`Redis bounded by --redis-bytes: ${SEARCHES} distinct searches (20 results each) through one replica`, [
      ['measure', 'value'],
      ['answers other than 200', String(failed)],
      ['answers kept in Redis', String(keys)],
      ['Redis used memory, before / peak', `${mb(before)} / ${mb(peak)}`],
      ['peak above before / --redis-bytes', `${mb(peak - before)} / ${mb(REDIS_BYTES)}`],
    ]);
  } finally {
    await proxy.close(100);
    await redis.close();
    upstream.close();
  }
}

/** The attacks of issue 30 beside a second client, then Redis' memory under distinct searches. */
export async function benchFairness(): Promise<void> {
  await attacks();
  await redisBudget();
}
