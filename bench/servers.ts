// Child process of the proxy benchmark: the local docs host, the proxy in front of it, and a bare
// node:http server answering the bytes of a cached proxy response, so the load generator runs apart.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHost } from '../host/app.ts';
import { loadManifest } from '../host/manifest.ts';
import { parseConfig } from '../proxy/config.ts';
import { createLogger } from '../proxy/http/log.ts';
import { startProxy } from '../proxy/server.ts';

const token = 'bench-token-0123456789';
const manifest = loadManifest(new URL('../demo/docs/manifest.json', import.meta.url).pathname);
const host = await startHost({ manifest, token, port: 0 });
await host.search.warm();
const proxy = await startProxy(
  parseConfig({
    upstream: host.apiUrl,
    token,
    projects: ['aurora'],
    allowPrivateNetwork: true,
    port: 0,
    opsPort: 0,
    // One load generator stands for many readers.
    maxClientConnections: 100_000,
    rateLimit: 0,
    cacheBytes: Number(process.env.BENCH_CACHE_BYTES ?? 64 * 1024 * 1024),
  }),
  { logger: createLogger('info', { write: () => undefined }) }, // as costly as real logging, minus the write
);
const hotPath = '/api/v3/search/?q=scheduler&page_size=5';
const warm = await fetch(`${proxy.url}${hotPath}`);
const body = Buffer.from(await warm.arrayBuffer());
const headers = Object.fromEntries(['content-type', 'etag', 'cache-control'].map((name) => [name, warm.headers.get(name) ?? '']));
const bare = createServer((_req, res) => {
  res.writeHead(200, { ...headers, 'content-length': String(body.length) });
  res.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
process.stdout.write(
  `${JSON.stringify({
    host: host.apiUrl,
    proxy: proxy.url,
    ops: proxy.opsUrl,
    bare: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
    hotPath,
    token,
    bytes: body.length,
  })}\n`,
);
process.on('SIGTERM', () => process.exit(0));
