import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';

/** What operators look at: compressed answers, `/readyz`, `/metrics`, the log level. */
const TOKEN = 'operations-token-2b9a';

/** A search answer of about 8 KB, as real ones are. */
const bigAnswer = {
  count: 20,
  next: null,
  previous: null,
  projects: [],
  query: 'x',
  results: Array.from({ length: 20 }, (_, i) => ({
    type: 'page',
    project: { slug: 'aurora', alias: null },
    version: { slug: 'latest' },
    title: `Page ${i}`,
    path: `/en/latest/page-${i}.html`,
    blocks: [{ type: 'section', id: `s${i}`, title: `Section ${i}`, content: `Text of section ${i} about scheduling. `.repeat(8) }],
  })),
};

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function setUp(config: Record<string, unknown> = {}): Promise<{ proxy: TestProxy; upstream: FakeServer }> {
  const upstream: FakeServer = await startFakeServer((req, res) => {
    const path = req.url!.split('?')[0];
    if (path === '/api/v3/projects/aurora/') return json(res, 200, auroraProject(upstream.url));
    if (path === '/api/v3/projects/aurora/translations/' || path === '/api/v3/projects/aurora/subprojects/') {
      return json(res, 200, { count: 0, next: null, previous: null, results: [] });
    }
    if (path === '/api/v3/search/') return json(res, 200, bigAnswer);
    json(res, 404, { detail: 'Not found.' });
  });
  const proxy = await startTestProxy({ upstream: upstream.url, token: TOKEN, ...config });
  running.push(proxy, upstream);
  return { proxy, upstream };
}

/** The raw bytes and headers of an answer (fetch would decode them). */
function raw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('compression', () => {
  it('sends JSON answers above 1 KB in brotli or gzip as asked, on the hot path too, varying by Accept-Encoding', async () => {
    const { proxy } = await setUp();
    const url = `${proxy.url}/api/v3/search/?q=scheduling`;
    const plain = await raw(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    const text = plain.body.toString();
    expect(plain.body.length).toBeGreaterThan(4096);

    // Later requests are hits the hot path answers before Express.
    let throughExpress = 0;
    // Express's own entry point (not in its types), which the hot path calls for what it does not serve.
    const express = proxy.app as unknown as { handle: (...args: unknown[]) => unknown };
    const handle = express.handle.bind(express);
    express.handle = (...args) => {
      throughExpress++;
      return handle(...args);
    };
    const br = await raw(url, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await raw(url, { 'accept-encoding': 'gzip' });
    const identity = await raw(url, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(throughExpress).toBe(0);

    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(text);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(text);
    expect(identity.body.toString()).toBe(text);
    // One ETag per representation, each revalidating to a 304.
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    const revalidated = await raw(url, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.vary).toMatch(/Accept-Encoding/);
  });

  it('leaves small answers alone', async () => {
    const { proxy } = await setUp();
    const answer = await raw(`${proxy.url}/api/v3/projects/aurora/versions/nope/`, { 'accept-encoding': 'br, gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString()).error).toBeDefined();
  });
});

describe('/readyz', () => {
  it('is 200 once the upstream answered, and 503 when it cannot be reached, the reason on the operations listener only', async () => {
    const { proxy, upstream } = await setUp();
    await proxy.get('/api/v3/search/?q=x');
    const ready = await proxy.get('/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }]);

    const down = await startTestProxy({ upstream: 'http://127.0.0.1:9', token: TOKEN });
    running.push(down);
    const notReady = await down.get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toEqual({ status: 'not_ready' });
    const detail = await down.ops('/readyz');
    expect([detail.status, detail.body]).toEqual([
      503,
      { status: 'not_ready', reason: 'the upstream http://127.0.0.1:9 cannot be reached' },
    ]);
    expect((await down.get('/healthz')).status).toBe(200);
    expect(upstream.requests.every((request) => request.url !== '/readyz')).toBe(true);
  });
});

describe('operations', () => {
  it('counts upstream errors and rate-limit refusals in /metrics', async () => {
    // A burst of 3 (a quarter of 12), on a clock that stands still: no token comes back.
    const start = Date.now();
    const proxy = await startTestProxy({ upstream: 'http://127.0.0.1:9', token: TOKEN, rateLimit: 12 }, () => start);
    running.push(proxy);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await proxy.get(`/api/v3/search/?q=e${i}`)).status);
    expect(statuses.every((status) => status >= 500)).toBe(true);
    expect((await proxy.get('/api/v3/search/?q=e9')).status).toBe(429);
    const metrics = (await proxy.ops('/metrics')).text;
    expect(metrics).toMatch(/doclens_upstream_errors_total\{code="unreachable"\} [1-9]/);
    expect(metrics).toMatch(/doclens_rate_limited_total\{limit="client"\} 1/);
    expect(metrics).toMatch(/doclens_http_request_duration_seconds_count\{route="\/api\/v3\/search\/",status_class="4xx"\} 1/);
  });

  it('logs at the level asked: warn leaves out the request lines, keeps the errors', async () => {
    const { proxy } = await setUp({ logLevel: 'warn' });
    await proxy.get('/api/v3/search/?q=x');
    await proxy.get('/healthz');
    expect(proxy.logs.filter((entry) => entry.msg === 'request')).toEqual([]);
  });
});
