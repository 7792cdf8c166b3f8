import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';

/**
 * Steady traffic while the upstream misbehaves in every way in turn: the proxy stays up, answers
 * within its timeout, serves stale data for what it had, recovers by itself, and its cache stays
 * within its byte bound.
 */
const TOKEN = 'fault-suite-token-51ab';
const TIMEOUT = 300;
type Mode =
  | 'healthy'
  | 'slow'
  | 'trickle'
  | 'down'
  | 'flapping'
  | 'errors'
  | 'invalid-json'
  | 'wrong-shape'
  | 'truncated'
  | 'huge'
  | 'redirect-loop'
  | 'reset';
const FAULTS: Mode[] = [
  'slow',
  'trickle',
  'errors',
  'flapping',
  'invalid-json',
  'wrong-shape',
  'truncated',
  'huge',
  'redirect-loop',
  'reset',
  'down',
];

let mode: Mode = 'healthy';
let flip = 0;
let upstream: FakeServer;
let proxy: TestProxy;

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://upstream');
  if (url.pathname === '/api/v3/projects/aurora/') return json(res, 200, auroraProject('https://docs.example.org'));
  if (url.pathname.startsWith('/api/v3/projects/aurora/')) return json(res, 200, { count: 0, next: null, previous: null, results: [] });
  const q = url.searchParams.get('q') ?? '';
  json(res, 200, {
    count: 1,
    next: null,
    previous: null,
    projects: [],
    query: q,
    results: [
      { type: 'page', title: q, project: { slug: 'aurora', alias: null }, version: { slug: 'latest' }, path: '/x.html', blocks: [] },
    ],
  });
}

function misbehave(req: IncomingMessage, res: ServerResponse): void {
  const scope = req.url?.startsWith('/api/v3/projects/');
  if (mode === 'healthy' || scope) return answer(req, res);
  switch (mode) {
    case 'slow':
      return void setTimeout(() => !res.destroyed && answer(req, res), TIMEOUT * 4);
    case 'down':
      return void req.socket.destroy();
    case 'flapping':
      return ++flip % 2 ? answer(req, res) : json(res, 503, { detail: 'flap' });
    case 'trickle': {
      // Each chunk within the timeout, the whole body well past it.
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), TIMEOUT / 3);
      return void setTimeout(() => {
        clearInterval(timer);
        if (!res.destroyed) res.end('{}');
      }, TIMEOUT * 3);
    }
    case 'wrong-shape':
      return json(res, 200, [{ results: 'x' }, { count: -1, results: [] }, { count: 1e308, results: [] }][++flip % 3]);
    case 'errors':
      return json(res, 500, { detail: 'Internal Server Error' });
    case 'invalid-json':
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [');
    case 'truncated':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      // Cut once the first chunk is on the wire.
      return void res.write('{"count": 1, "res', () => req.socket.destroy());
    case 'huge':
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) }).end('{}');
    case 'redirect-loop':
      return void res.writeHead(302, { location: req.url }).end();
    case 'reset':
      return void req.socket.resetAndDestroy();
  }
}

beforeAll(async () => {
  upstream = await startFakeServer(misbehave);
  proxy = await startTestProxy({
    upstream: upstream.url,
    token: TOKEN,
    rateLimit: 0,
    // The suite's one address stands for the many readers of steady traffic.
    maxClientConnections: 1000,
    timeout: TIMEOUT,
    headerTimeout: 1000,
    searchTtl: 0,
    staleWhileRevalidate: 0,
    staleIfError: 3600,
    cacheBytes: 1024 * 1024,
    maxResponseBytes: 256 * 1024,
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const KNOWN = Array.from({ length: 20 }, (_, i) => `known${i}`);

/** Requests each client of the steady traffic makes during a fault: half of them known searches, half fresh. */
const ROUNDS = 4;

/** `clients` readers searching one after another, each while `going(n)` holds for its `n`th search. */
async function traffic(going: (n: number) => boolean, clients = 8) {
  const results: { status: number; cache: string | null; ms: number; known: boolean; json: boolean }[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let n = 0; going(n); n++) {
        const known = n % 2 === 0;
        const q = known ? KNOWN[(n + client) % KNOWN.length]! : `fresh-${client}-${n}-${Math.random()}`;
        const start = performance.now();
        const response = await fetch(`${proxy.url}/api/v3/search/?q=${q}`, { signal: AbortSignal.timeout(TIMEOUT * 10) });
        const text = await response.text();
        results.push({
          status: response.status,
          cache: response.headers.get('x-doclens-cache'),
          ms: performance.now() - start,
          known,
          json: text.startsWith('{'),
        });
      }
    }),
  );
  return results;
}

describe('faults during steady traffic', () => {
  it('keeps answering through every fault, stale where it can, and recovers', async () => {
    for (const q of KNOWN) expect((await fetch(`${proxy.url}/api/v3/search/?q=${q}`)).status).toBe(200);
    for (const fault of FAULTS) {
      mode = fault;
      const results = await traffic((n) => n < ROUNDS);
      for (const result of results) {
        expect(result.json, fault).toBe(true);
        expect([200, 502, 503, 504], fault).toContain(result.status);
        // Within the upstream timeout plus the proxy's own work, never a hang.
        expect(result.ms, fault).toBeLessThan(TIMEOUT * 2 + 1000);
        if (result.known && fault !== 'flapping') expect(`${fault} ${result.status} ${result.cache}`).toBe(`${fault} 200 stale-error`);
      }
      expect(results.filter((result) => !result.known && result.status === 200 && fault !== 'flapping')).toEqual([]);
      expect((await fetch(`${proxy.url}/healthz`)).status, fault).toBe(200);
    }
    mode = 'healthy';
    const recovered = await traffic((n) => n < ROUNDS);
    expect(recovered.every((result) => result.status === 200)).toBe(true);
    expect(recovered.some((result) => result.cache === 'miss')).toBe(true);
    const { bytes } = proxy.app.context.responses.size;
    expect(bytes).toBeLessThanOrEqual(proxy.app.context.responses.maxBytes);
    expect(JSON.stringify(proxy.logs)).not.toContain(TOKEN);
  }, 60_000);

  it('keeps its cache within its byte bound under many distinct large answers', async () => {
    mode = 'healthy';
    await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        fetch(`${proxy.url}/api/v3/search/?q=${'w'.repeat(900)}${i}`).then((response) => response.text()),
      ),
    );
    const { bytes, entries } = proxy.app.context.responses.size;
    expect(entries).toBeGreaterThan(10);
    expect(bytes).toBeLessThanOrEqual(proxy.app.context.responses.maxBytes);
  });

  it('closes connections that trickle their headers while it keeps serving others', async () => {
    mode = 'healthy';
    const port = Number(new URL(proxy.url).port);
    let trickling = 5;
    const slow = Array.from({ length: trickling }, () => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      const timer = setInterval(() => socket.writable && socket.write('x'), 400);
      return new Promise<string>((resolve) => {
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => {
          clearInterval(timer);
          trickling--;
          resolve(answer);
        });
      });
    });
    // Searches go on until the proxy has closed the last of them: served while they are held.
    const [results, answers] = await Promise.all([traffic((n) => n === 0 || trickling > 0, 4), Promise.all(slow)]);
    expect(results.length).toBeGreaterThan(4);
    expect(results.every((result) => result.status === 200)).toBe(true);
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 [^\r\n]*\r\n.*"code":"bad_request"/s);
  }, 20_000);
});

describe('previews of distinct big external pages at once, under cache pressure', () => {
  it('answers every one, and keeps the page cache within its share', async () => {
    const paragraphs = Array.from(
      { length: 12_000 },
      (_, i) => `<p>Paragraph ${i} with <a href="#s">a link</a> and <code>code</code>.</p>`,
    ).join('');
    const external = await startFakeServer(
      (req, res) =>
        void res.writeHead(200, { 'content-type': 'text/html' }).end(
          `<html><body><main><section id="s"><h1>${req.url}</h1><p>The section asked for.</p></section><section
              id="rest">${paragraphs}</section></main></body></html>`,
        ),
    );
    const host = new URL(external.url).host.replace('127.0.0.1', 'localhost');
    const pages = await startTestProxy({
      upstream: upstream.url,
      token: TOKEN,
      rateLimit: 0,
      externalRateLimit: 0,
      externalDomains: [host],
      cacheBytes: 16 * 1024 * 1024,
    });
    try {
      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            pages.get(`/api/v3/embed/?url=${encodeURIComponent(`http://${host}/r${round}p${i}.html#s`)}&form=preview`),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      }
      expect(pages.app.context.pages.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    } finally {
      await pages.close();
      await external.close();
    }
  }, 30_000);
});
