import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FairShare, MAX_PIPELINED } from '../../proxy/http/fair-share.ts';
import { bucketBytes } from '../../proxy/http/rate-limit.ts';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';

/**
 * One client cannot crowd out the others: its connections are capped by address, its pipelined
 * requests wait their turn, what it asks for without a route is counted by its rate limit, and what
 * only operators should see is on a listener of its own. The attacker connects from 127.0.0.2, the
 * second client from 127.0.0.1.
 */
const TOKEN = 'fairness-suite-token-77e2';
const ATTACKER = '127.0.0.2';

let upstream: FakeServer;
let upstreamDelayMs = 0;
beforeAll(async () => {
  upstream = await startFakeServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname === '/api/v3/projects/aurora/') return json(res, 200, auroraProject(upstream.url));
    const answer = { count: 0, next: null, previous: null, projects: [], query: url.searchParams.get('q'), results: [] };
    setTimeout(() => json(res, 200, answer), upstreamDelayMs);
  });
});
afterAll(() => upstream.close());

const running: TestProxy[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((proxy) => proxy.close(0)));
  upstreamDelayMs = 0;
});

async function proxyWith(config: Record<string, unknown>): Promise<TestProxy> {
  const proxy = await startTestProxy({ upstream: upstream.url, token: TOKEN, ...config });
  running.push(proxy);
  return proxy;
}

/** A connection from the attacker's address; resolves with whether it is still open a moment later. */
function attackerConnection(proxy: TestProxy, bytes = ''): Promise<{ socket: Socket; open: boolean; received: () => string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: ATTACKER });
    sockets.push(socket);
    let data = '';
    let closed = false;
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    socket.on('connect', () => {
      if (bytes) socket.write(bytes);
      setTimeout(() => resolve({ socket, open: !closed, received: () => data }), 100);
    });
  });
}

const answersIn = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

describe('connections per client address', () => {
  it('closes the connections of one address beyond --max-client-connections; another address is served', async () => {
    const proxy = await proxyWith({ maxClientConnections: 4 });
    const held = await Promise.all(Array.from({ length: 4 }, () => attackerConnection(proxy, 'GET /healthz HTTP/1.1\r\nX-Half: ')));
    expect(held.every((connection) => connection.open)).toBe(true);
    const extra = await attackerConnection(proxy);
    expect(extra.open).toBe(false);
    expect((await proxy.get('/healthz')).status).toBe(200);
    // A slot is the address's again once one of its connections closed.
    held[0]!.socket.destroy();
    await vi.waitFor(async () => expect((await attackerConnection(proxy)).open).toBe(true));
  });

  it('behind --trust-proxy, counts requests in flight per forwarded address instead (429 beyond)', async () => {
    const proxy = await proxyWith({ maxClientConnections: 2, trustProxy: 1 });
    upstreamDelayMs = 300;
    const asking = (client: string, q: string) => proxy.get(`/api/v3/search/?q=${q}`, { 'x-forwarded-for': client });
    const statuses = await Promise.all([
      asking('203.0.113.9', 'a'),
      asking('203.0.113.9', 'b'),
      new Promise((resolve) => setTimeout(resolve, 100)).then(() => asking('203.0.113.9', 'c')),
      new Promise((resolve) => setTimeout(resolve, 100)).then(() => asking('198.51.100.7', 'd')),
    ]);
    expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 429, 200]);
    expect(statuses[2]!.body.error.code).toBe('rate_limited');
  });
});

describe('pipelined requests', () => {
  it(`answers up to ${MAX_PIPELINED} waiting requests of one connection in order, and closes a connection with more`, async () => {
    const proxy = await proxyWith({});
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const within = await attackerConnection(proxy, request.repeat(MAX_PIPELINED));
    await vi.waitFor(() => expect(answersIn(within.received())).toHaveLength(MAX_PIPELINED));
    expect(within.open).toBe(true);

    const flood = await attackerConnection(proxy, request.repeat(200));
    await vi.waitFor(() => expect(flood.socket.destroyed || flood.socket.readableEnded).toBe(true));
    expect(answersIn(flood.received()).length).toBeLessThan(200);
    expect((await proxy.get('/healthz')).status).toBe(200);
  });

  it('hands the app one request of a connection at a time, the next one after other connections had their turn', async () => {
    vi.useFakeTimers({ toFake: ['setImmediate'] });
    try {
      const calls: string[] = [];
      const responses = new Map<string, EventEmitter>();
      const listener = new FairShare(1000, 64, 0).listener((req) => {
        calls.push(req.url!);
      });
      const socketA = Object.assign(new EventEmitter(), { destroyed: false });
      const socketB = Object.assign(new EventEmitter(), { destroyed: false });
      const request = (socket: EventEmitter, url: string) => {
        const res = new EventEmitter();
        responses.set(url, res);
        listener({ url, socket } as unknown as IncomingMessage, res as unknown as ServerResponse);
      };
      for (let i = 1; i <= 3; i++) request(socketA, `/a${i}`);
      request(socketB, '/b1');
      expect(calls).toEqual(['/a1', '/b1']);
      responses.get('/a1')!.emit('close');
      // Not at once: after the event loop went round (other connections' requests first).
      expect(calls).toEqual(['/a1', '/b1']);
      vi.runAllTicks();
      await vi.advanceTimersToNextTimerAsync();
      expect(calls).toEqual(['/a1', '/b1', '/a2']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('answers that cost nothing to ask for', () => {
  it('counts unknown paths and other methods against the rate limit', async () => {
    // A burst of 3 (a quarter of 12), on a clock that stands still: no token comes back.
    const start = Date.now();
    const proxy = await startTestProxy({ upstream: upstream.url, token: TOKEN, rateLimit: 12 }, () => start);
    running.push(proxy);
    const statuses = [];
    for (const path of ['/nope', '/wp-admin', '/.env', '/again']) statuses.push((await proxy.get(path)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const post = await fetch(`${proxy.url}/api/v3/search/`, { method: 'POST' });
    expect(post.status).toBe(429);
    // Liveness stays answered: it is what a balancer asks.
    expect((await proxy.get('/healthz')).status).toBe(200);
  });
});

describe('per-client state', () => {
  it('keys rate limits by forwarded addresses only when they are IP addresses, counting each key by its length', async () => {
    const proxy = await proxyWith({ trustProxy: 1, rateLimit: 100_000 });
    const junk = (i: number) => `${'x'.repeat(8000)}${i}`;
    for (let i = 0; i < 20; i++) await proxy.get('/healthz/nope', { 'x-forwarded-for': junk(i) });
    // Not addresses: counted under the socket's own.
    expect(proxy.app.context.rateLimiter.bytes).toBe(bucketBytes('127.0.0.1'));
    await proxy.get('/healthz/nope', { 'x-forwarded-for': `${junk(0)}, 2001:db8::7` });
    expect(proxy.app.context.rateLimiter.bytes).toBe(bucketBytes('127.0.0.1') + bucketBytes('2001:db8::7'));
  });
});

describe('operations endpoints', () => {
  it('serves /metrics on the operations listener only, and the public /readyz without detail', async () => {
    const proxy = await proxyWith({});
    expect((await proxy.get('/metrics')).status).toBe(404);
    const metrics = await proxy.ops('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('doclens_cache_max_bytes');
    expect(new URL(proxy.opsUrl!).hostname).toBe('127.0.0.1');
    expect(Object.keys((await proxy.get('/readyz')).body)).toEqual(['status']);
    const noOps = await startTestProxy({ upstream: upstream.url, token: TOKEN, opsPort: undefined });
    running.push(noOps);
    expect(noOps.opsUrl).toBeUndefined();
    expect((await noOps.get('/metrics')).status).toBe(404);
  });
});
