// Child process of the memory benchmark: the proxy alone, so that its resident memory is measured
// without the servers and the load generator.
import { parseConfig } from '../proxy/config.ts';
import { createLogger } from '../proxy/http/log.ts';
import { startProxy } from '../proxy/server.ts';

const proxy = await startProxy(
  parseConfig({
    upstream: process.env.BENCH_UPSTREAM,
    token: 'bench-memory-token-0123',
    projects: ['aurora'],
    externalDomains: [process.env.BENCH_EXTERNAL_HOST],
    allowPrivateNetwork: true,
    port: 0,
    opsPort: 0,
    // One load generator stands for many readers.
    maxClientConnections: 100_000,
    rateLimit: 0,
    externalRateLimit: 0,
    cacheBytes: Number(process.env.BENCH_CACHE_BYTES),
  }),
  { logger: createLogger('info', { write: () => undefined }) }, // as costly as real logging, minus the write
);
process.stdout.write(`${JSON.stringify({ proxy: proxy.url, ops: proxy.opsUrl })}\n`);
