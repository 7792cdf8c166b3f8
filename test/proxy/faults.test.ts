import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchResults } from '../../bench/corpus.ts';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';

const TOKEN = 'fault-test-token-77e1';

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

/** A v3 upstream whose search endpoint behaves as `search` says; project data is always fine. */
async function fakeUpstream(search: { current: Behaviour }): Promise<FakeServer> {
  const upstream: FakeServer = await startFakeServer((req, res) => {
    const path = req.url!.split('?')[0];
    if (path === '/api/v3/projects/aurora/') return json(res, 200, auroraProject(upstream.url));
    if (path === '/api/v3/projects/aurora/translations/' || path === '/api/v3/projects/aurora/subprojects/') {
      return json(res, 200, { count: 0, next: null, previous: null, results: [] });
    }
    if (path === '/api/v3/search/') return search.current(req, res);
    json(res, 404, { detail: 'Not found.' });
  });
  return upstream;
}

const searchAnswer: Behaviour = (_req, res) =>
  json(res, 200, {
    count: 1,
    next: null,
    previous: null,
    projects: [],
    query: 'x',
    results: [
      {
        type: 'page',
        project: { slug: 'aurora', alias: null },
        version: { slug: 'latest' },
        title: 'T',
        path: '/en/latest/t.html',
        blocks: [],
      },
    ],
  });

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function setUp(behaviour: Behaviour, config: Record<string, unknown> = {}) {
  const search = { current: behaviour };
  const upstream = await fakeUpstream(search);
  const proxy: TestProxy = await startTestProxy({ upstream: upstream.url, token: TOKEN, timeout: 400, ...config });
  started.push(proxy, upstream);
  return { upstream, proxy, search };
}

function expectNoLeak(proxy: TestProxy, ...texts: string[]) {
  for (const text of texts) expect(text).not.toContain(TOKEN);
  expect(JSON.stringify(proxy.logs)).not.toContain(TOKEN);
}

describe('a misbehaving upstream', () => {
  const cases: [string, Behaviour, number, string][] = [
    // Never answered: the proxy's own timeout ends the wait.
    ['slow past the timeout', () => undefined, 504, 'upstream_timeout'],
    ['answering 500', (_req, res) => json(res, 500, { detail: `crash with Token ${TOKEN}` }), 502, 'upstream_error'],
    [
      'answering invalid JSON',
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"count": 1, "resu'),
      502,
      'upstream_invalid_response',
    ],
    [
      'sending a 50 MB body',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 32);
        let sent = 0;
        const write = () => {
          while (sent < 50 && res.write(chunk)) sent++;
          if (sent < 50)
            res.once('drain', () => {
              sent++;
              write();
            });
          else res.end();
        };
        res.on('error', () => undefined);
        write();
      },
      502,
      'upstream_too_large',
    ],
    ['redirecting in a loop', (req, res) => void res.writeHead(302, { location: req.url }).end(), 502, 'upstream_redirect_refused'],
    ['resetting the connection', (req) => req.socket.destroy(), 502, 'upstream_unreachable'],
  ];

  for (const [name, behaviour, status, code] of cases) {
    it(`${name}: ${status} ${code}, quickly, without leaking the token`, async () => {
      const { proxy } = await setUp(behaviour, { maxResponseBytes: 10 * 1024 * 1024 });
      const begin = performance.now();
      const response = await proxy.get('/api/v3/search/?q=x');
      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(performance.now() - begin).toBeLessThan(3000);
      expectNoLeak(proxy, response.text);
      expect((await proxy.get('/healthz')).status).toBe(200);
    });
  }

  it('redirecting to another host: not followed, and the token never goes there', async () => {
    const elsewhere = await startFakeServer((_req, res) => json(res, 200, {}));
    started.push(elsewhere);
    const { proxy } = await setUp((_req, res) => void res.writeHead(302, { location: `${elsewhere.url}/steal` }).end());
    const response = await proxy.get('/api/v3/search/?q=x');
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe('upstream_redirect_refused');
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('sends the token to the upstream API only', async () => {
    const { proxy, upstream } = await setUp(searchAnswer);
    await proxy.get('/api/v3/search/?q=x');
    expect(upstream.requests.length).toBeGreaterThan(0);
    expect(upstream.requests.every((request) => request.headers.authorization === `Token ${TOKEN}`)).toBe(true);
  });
});

describe('caching against the upstream', () => {
  it('makes one upstream request for many identical concurrent requests', async () => {
    // The upstream answers once all twenty requests have reached the proxy.
    let allArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (allArrived = resolve));
    const { proxy, upstream } = await setUp((req, res) => void arrived.then(() => searchAnswer(req, res)));
    let count = 0;
    proxy.server.on('request', () => ++count === 20 && allArrived());
    const answers = await Promise.all(Array.from({ length: 20 }, () => proxy.get('/api/v3/search/?q=same')));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(upstream.requests.filter((request) => request.url.startsWith('/api/v3/search/'))).toHaveLength(1);
  });

  it('normalizes keys: parameter order and spacing make no second request', async () => {
    const { proxy, upstream } = await setUp(searchAnswer);
    await proxy.get('/api/v3/search/?q=a%20b&page_size=5');
    await proxy.get('/api/v3/search/?page_size=5&q=a++b');
    expect(upstream.requests.filter((request) => request.url.startsWith('/api/v3/search/'))).toHaveLength(1);
  });

  it('serves stale data while the upstream fails, and recovers when it returns', async () => {
    const { proxy, search } = await setUp(searchAnswer, { searchTtl: 0, staleWhileRevalidate: 0, staleIfError: 3600 });
    const fresh = await proxy.get('/api/v3/search/?q=x');
    expect(fresh.status).toBe(200);
    search.current = (_req, res) => json(res, 503, { detail: 'down' });
    const stale = await proxy.get('/api/v3/search/?q=x');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-doclens-cache')).toBe('stale-error');
    expect(stale.text).toBe(fresh.text);
    const uncached = await proxy.get('/api/v3/search/?q=other');
    expect(uncached.status).toBe(502);
    search.current = searchAnswer;
    const recovered = await proxy.get('/api/v3/search/?q=x');
    expect(recovered.headers.get('x-doclens-cache')).toBe('miss');
  });
});

describe('network guards and limits', () => {
  it('refuses a loopback upstream unless private networks are allowed', async () => {
    const { proxy } = await setUp(searchAnswer, { allowPrivateNetwork: false });
    const response = await proxy.get('/api/v3/search/?q=x');
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe('forbidden_address');
  });

  it('refuses external domains resolving to loopback unless private networks are allowed', async () => {
    const external = await startFakeServer(
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p id="a">x</p></body></html>'),
    );
    started.push(external);
    const host = new URL(external.url).host.replace('127.0.0.1', 'localhost');
    const { proxy } = await setUp(searchAnswer, { allowPrivateNetwork: false, externalDomains: [host] });
    const response = await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`http://${host}/page.html#a`)}`);
    expect(response.body.error.code).toBe('forbidden_address');
    expect(external.requests).toHaveLength(0);
  });

  it('rate limits each client with 429 and Retry-After', async () => {
    const { proxy } = await setUp(searchAnswer, { rateLimit: 8 });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const response = await proxy.get(`/api/v3/search/?q=n${i}`);
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
    }
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect((await proxy.get('/healthz')).status).toBe(200);
  });

  it('names the external host, not the hosting service, when an external page times out or is refused', async () => {
    const external = await startFakeServer((req, res) => {
      if (req.url?.startsWith('/slow')) return void setTimeout(() => !res.destroyed && res.end(), 3000);
      req.socket.destroy();
    });
    started.push(external);
    const host = new URL(external.url).host.replace('127.0.0.1', 'localhost');
    const { proxy } = await setUp(searchAnswer, { externalDomains: [host] });
    const slow = await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`http://${host}/slow.html#a`)}`);
    const refused = await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`http://${host}/reset.html#a`)}`);
    expect([slow.status, slow.body.error.code]).toEqual([504, 'upstream_timeout']);
    expect([refused.status, refused.body.error.code]).toEqual([502, 'upstream_unreachable']);
    for (const { body } of [slow, refused]) {
      expect(body.error.message).toContain(host);
      expect(body.error.message).not.toMatch(/hosting service/);
    }
  });

  it('rate limits page fetches per external domain', async () => {
    const external = await startFakeServer(
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p id="a">x</p></body></html>'),
    );
    started.push(external);
    const host = new URL(external.url).host.replace('127.0.0.1', 'localhost');
    const { proxy } = await setUp(searchAnswer, { externalDomains: [host], externalRateLimit: 4 });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`http://${host}/p${i}.html#a`)}`)).status);
    expect(statuses.slice(0, 1)).toEqual([200]);
    expect(statuses).toContain(429);
  });
});

describe('memory of answers being read', () => {
  const MB = 1024 * 1024;
  const answer = Buffer.from(
    JSON.stringify({ count: 0, next: null, previous: null, projects: [], query: 'x', results: [], pad: 'x'.repeat(MB - 100) }),
  );

  /** Twelve searches whose bodies are held half sent until all twelve are asked for at once; then the bytes in flight and the answers. */
  async function twelveAtOnce(declared: boolean) {
    const halfSent: ServerResponse[] = [];
    const { proxy } = await setUp(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...(declared && { 'content-length': String(answer.length) }) });
        res.write(answer.subarray(0, answer.length / 2));
        halfSent.push(res);
      },
      { maxResponseBytes: 2 * MB, cacheBytes: 4 * MB, timeout: 10_000 },
    );
    const answers = Promise.all(Array.from({ length: 12 }, (_, i) => proxy.get(`/api/v3/search/?q=big${i}`)));
    while (halfSent.length < 12) await new Promise((resolve) => setTimeout(resolve, 10));
    const inFlight = proxy.app.context.fetcher.bytesInFlight;
    for (const res of halfSent) res.end(answer.subarray(answer.length / 2));
    const statuses = (await answers).map((response) => `${response.status} ${response.body.error?.code ?? 'ok'}`);
    expect(proxy.app.context.fetcher.bytesInFlight).toBe(0);
    return { inFlight, statuses };
  }

  it('lets bodies of declared length wait their turn within the bound, and answers them all', async () => {
    const { inFlight, statuses } = await twelveAtOnce(true);
    // Two of the largest answers allowed: 4 MB; the other bodies wait unread.
    expect(inFlight).toBeLessThanOrEqual(4 * MB);
    expect(statuses).toEqual(Array(12).fill('200 ok'));
  });

  it('refuses at once, as overloaded, a body for which four times the bound are waiting already', async () => {
    // 4 MB in flight: four 1 MB bodies read, sixteen wait, the next four are refused while the others are held.
    const held: ServerResponse[] = [];
    const { proxy } = await setUp(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.length) });
        res.write(answer.subarray(0, answer.length / 2));
        held.push(res);
      },
      { maxResponseBytes: 2 * MB, cacheBytes: 4 * MB, timeout: 10_000 },
    );
    let released = false;
    const refusedWhileHeld: string[] = [];
    const answers = Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const response = await proxy.get(`/api/v3/search/?q=many${i}`);
        if (!released) refusedWhileHeld.push(`${response.status} ${response.body.error?.code} ${response.headers.get('retry-after')}`);
        return response.status;
      }),
    );
    await vi.waitFor(() => expect(refusedWhileHeld).toHaveLength(4), { timeout: 10_000, interval: 10 });
    expect(refusedWhileHeld).toEqual(Array(4).fill('503 overloaded 1'));
    released = true;
    for (const res of held) if (!res.writableEnded) res.end(answer.subarray(answer.length / 2));
    expect((await answers).filter((status) => status === 200)).toHaveLength(20);
    expect(proxy.app.context.fetcher.bytesInFlight).toBe(0);
  });

  it('gives up on a body waiting for room at the deadline, as overloaded (503, Retry-After), and frees its turn', async () => {
    // Bodies declared and never finished: four fill the bound until their deadline; two asked before
    // them, whose headers come after theirs, wait for room until their own deadline, which comes first.
    const { proxy } = await setUp(
      (req, res) => {
        const head = () => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.length) });
          res.write(answer.subarray(0, 1024));
        };
        if (req.url?.includes('waiting')) setTimeout(head, 400);
        else head();
      },
      { maxResponseBytes: 2 * MB, cacheBytes: 4 * MB, timeout: 1500 },
    );
    const waiting = Array.from({ length: 2 }, (_, i) => proxy.get(`/api/v3/search/?q=waiting${i}`));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const holding = Array.from({ length: 4 }, (_, i) => proxy.get(`/api/v3/search/?q=holding${i}`));
    const status = (response: Awaited<(typeof waiting)[0]>) => `${response.status} ${response.body.error.code}`;
    const refused = await Promise.all(waiting);
    expect(refused.map(status)).toEqual(Array(2).fill('503 overloaded'));
    expect(refused.map((response) => response.headers.get('retry-after'))).toEqual(['1', '1']);
    expect((await Promise.all(holding)).map(status)).toEqual(Array(4).fill('504 upstream_timeout'));
    expect(proxy.app.context.fetcher.bytesInFlight).toBe(0);
  });

  it('counts bodies of unknown length as they come, refusing those past the bound with overloaded, and serves the rest', async () => {
    const { inFlight, statuses } = await twelveAtOnce(false);
    expect(inFlight).toBeLessThanOrEqual(4 * MB);
    expect(statuses.filter((status) => status === '200 ok')).toHaveLength(4);
    expect(statuses.filter((status) => status === '503 overloaded')).toHaveLength(8);
  });
});

describe('answers near 10 MB', () => {
  it('reads, rebuilds and compresses one in a worker thread, its bytes in flight until then, /healthz answered meanwhile', async () => {
    const MB = 1024 * 1024;
    // 50 results of about 190 KB: 9.5 MB, under the default --max-response-bytes; one result of a project out of scope.
    const results = searchResults(50, () => 'lease retry scheduler '.repeat(8600));
    results[0] = { ...results[0]!, project: { slug: 'elsewhere', alias: null } };
    const answer = Buffer.from(JSON.stringify({ count: 50, next: null, previous: null, projects: [], query: 'x', results }));
    expect(answer.length).toBeGreaterThan(9 * MB);
    const { proxy } = await setUp((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer), {
      timeout: 30_000,
    });
    const { answerThreads: threads, fetcher } = proxy.app.context;
    const pool = threads.run.bind(threads);
    const seen: { kind: string; inFlight: number; healthzWhileWorking: boolean }[] = [];
    threads.run = (async (kind, input, transfer) => {
      const inFlight = fetcher.bytesInFlight;
      let working = true;
      const job = pool(kind, input, transfer).finally(() => (working = false));
      const healthz = await proxy.get('/healthz');
      seen.push({ kind, inFlight, healthzWhileWorking: healthz.status === 200 && working });
      return job;
    }) as typeof threads.run;

    const searched = await proxy.get('/api/v3/search/?q=large', { 'accept-encoding': 'br' });
    expect(searched.status).toBe(200);
    expect(searched.headers.get('content-encoding')).toBe('br');
    // Rebuilt for the scope: the result of another project dropped, and the total with it.
    expect(searched.body.count).toBe(49);
    expect(searched.body.results).toHaveLength(49);
    expect(searched.body.results[0].blocks[0].content).toBe(results[1]!.blocks[0]!.content);
    expect(seen).toEqual([{ kind: 'search', inFlight: answer.length, healthzWhileWorking: true }]);
    expect(fetcher.bytesInFlight).toBe(0);
    // Kept as made in the thread: the next ask is a hit with the same tag.
    const again = await proxy.get('/api/v3/search/?q=large', { 'accept-encoding': 'br' });
    expect(again.headers.get('x-doclens-cache')).toBe('hit');
    expect(again.headers.get('etag')).toBe(searched.headers.get('etag'));
    expect(again.body).toEqual(searched.body);
  });

  it('answers an upstream body that is not JSON, read in a thread, as the invalid answer it is', async () => {
    const { proxy } = await setUp((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{${'x'.repeat(512 * 1024)}`),
    );
    const searched = await proxy.get('/api/v3/search/?q=broken');
    expect(searched.status).toBe(502);
    expect(searched.body.error.code).toBe('upstream_invalid_response');
    expect(proxy.app.context.fetcher.bytesInFlight).toBe(0);
  });
});

describe('session credentials', () => {
  it("passes the reader's cookie through and never shares one reader's answer with another", async () => {
    const { proxy, upstream } = await setUp(searchAnswer, { credentials: 'session', token: undefined });
    const alice = await proxy.get('/api/v3/search/?q=x', { cookie: 'sessionid=alice' });
    const bob = await proxy.get('/api/v3/search/?q=x', { cookie: 'sessionid=bob' });
    expect(alice.status).toBe(200);
    expect(bob.status).toBe(200);
    expect(alice.headers.get('cache-control')).toMatch(/^private/);
    expect(alice.headers.get('vary')).toContain('Cookie');
    const searches = upstream.requests.filter((request) => request.url.startsWith('/api/v3/search/'));
    expect(searches.map((request) => request.headers.cookie)).toEqual(['sessionid=alice', 'sessionid=bob']);
    expect(upstream.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });
});

describe('odd but valid JSON from the upstream', () => {
  it('is normalized to the exact shapes the widget reads', async () => {
    const { proxy } = await setUp((_req, res) =>
      json(res, 200, {
        count: 2,
        next: null,
        results: [{ title: 7, project: { slug: 'aurora' }, blocks: [{ type: 'domain', highlights: null }, 'junk'] }, null],
      }),
    );
    const { status, body } = await proxy.get('/api/v3/search/?q=x');
    expect(status).toBe(200);
    expect(body.results).toEqual([
      {
        type: 'page',
        project: { slug: 'aurora', alias: null },
        version: { slug: '' },
        title: '',
        domain: '',
        path: '',
        highlights: { title: [] },
        blocks: [
          { type: 'domain', id: '', name: '', role: '', content: '', highlights: { name: [], content: [] } },
          { type: 'section', id: '', title: '', content: '', highlights: { title: [], content: [] } },
        ],
      },
    ]);
    expect(body.next).toBeNull();
  });
});
