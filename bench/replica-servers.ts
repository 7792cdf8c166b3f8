// Child process of the replicas benchmark: the local docs host, Debian's redis-server, and the proxy in
// the setups compared (one replica alone, one and two on Redis), so that the load generator runs apart.
import { startHost } from '../host/app.ts';
import { loadManifest } from '../host/manifest.ts';
import { parseConfig } from '../proxy/config.ts';
import { createLogger } from '../proxy/http/log.ts';
import { startProxy, type RunningProxy } from '../proxy/server.ts';
import { startRedis } from '../test/fixtures/redis.ts';

export interface ReplicaSetup {
  name: string;
  replicas: string[];
  /** Their operations listeners, in the same order. */
  ops: string[];
}

const token = 'bench-token-0123456789';
const manifest = loadManifest(new URL('../demo/docs/manifest.json', import.meta.url).pathname);
const host = await startHost({ manifest, token, port: 0 });
await host.search.warm();
const redis = await startRedis();

const proxies: RunningProxy[] = [];
/** `count` replicas of one deployment; with Redis, each setup in a database of its own, so that none finds another's answers. */
async function setup(name: string, count: number, database?: number, rateLimit = 0): Promise<ReplicaSetup> {
  const config = parseConfig({
    upstream: host.apiUrl,
    token,
    projects: ['aurora'],
    allowPrivateNetwork: true,
    port: 0,
    opsPort: 0,
    // One load generator stands for many readers.
    maxClientConnections: 100_000,
    rateLimit,
    // Behind a balancer: every replica sees the one public origin, which search answers are cached by.
    trustProxy: 1,
    // On a machine as busy as a shared 2-core one, Redis itself may take longer than the default 100 ms
    // to answer; the benchmark measures sharing, not the circuit breaker (the tests do).
    redisTimeout: Number(process.env.BENCH_REDIS_TIMEOUT ?? 1000),
    redis: database === undefined ? undefined : `${redis.url}/${database}`,
  });
  const replicas = [];
  const ops: string[] = [];
  for (let i = 0; i < count; i++) {
    // As costly as real logging, minus the write.
    const proxy = await startProxy(config, { logger: createLogger('info', { write: () => undefined }) });
    proxies.push(proxy);
    replicas.push(proxy.url);
    ops.push(proxy.opsUrl!);
  }
  return { name, replicas, ops };
}

const setups = [
  await setup('1 replica, memory only', 1),
  await setup('1 replica on Redis', 1, 1),
  // A limit no benchmark reaches, so that every hit still counts: what a limit costs, in memory and in Redis.
  await setup('1 replica, memory only, limit', 1, undefined, 1_000_000_000),
  await setup('1 replica on Redis, shared limit', 1, 2, 1_000_000_000),
  await setup('2 replicas, memory only', 2),
  await setup('2 replicas on Redis', 2, 3),
];
process.stdout.write(`${JSON.stringify(setups)}\n`);
process.on('SIGTERM', async () => {
  await Promise.all(proxies.map((proxy) => proxy.close(100)));
  await redis.close();
  process.exit(0);
});
