import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, parseConfig } from '../../proxy/config.ts';
import { largeSphinxPage } from '../../bench/corpus.ts';
import { isForbiddenAddress } from '../../proxy/upstream/addresses.ts';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';
import { rawRequest, resettingClient, silentClient } from '../fixtures/raw-http.ts';
import { upstreamFilters } from './upstream-query.ts';

/** The points of the adversarial review of the proxy (scope, limits, bad input, faults, API fidelity). */
const TOKEN = 'hardening-token-9d41';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

const searchResult = (slug: string, title = 'T') => ({
  type: 'page',
  project: { slug, alias: null },
  version: { slug: 'latest' },
  title,
  path: `/en/latest/${title}.html`,
  blocks: [],
});

/** A v3 upstream: project data for aurora, searches and embeds as `handlers` say. */
async function setUp(handlers: { search?: Handler; embed?: Handler; versions?: Handler } = {}, config: Record<string, unknown> = {}) {
  const upstream: FakeServer = await startFakeServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname === '/api/v3/projects/aurora/') return json(res, 200, auroraProject(upstream.url));
    if (url.pathname === '/api/v3/projects/aurora/versions/' && handlers.versions) return handlers.versions(req, res, url);
    if (url.pathname.startsWith('/api/v3/projects/aurora/')) return json(res, 200, { count: 0, next: null, previous: null, results: [] });
    if (url.pathname === '/api/v3/search/') {
      if (handlers.search) return handlers.search(req, res, url);
      return json(res, 200, {
        count: 1,
        next: null,
        previous: null,
        projects: [{ slug: 'aurora', versions: [{ slug: 'latest' }] }],
        query: url.searchParams.get('q'),
        results: [searchResult('aurora')],
      });
    }
    if (url.pathname === '/api/v3/embed/' && handlers.embed) return handlers.embed(req, res, url);
    json(res, 404, { detail: 'Not found.' });
  });
  const proxy: TestProxy = await startTestProxy({ upstream: upstream.url, token: TOKEN, rateLimit: 0, ...config });
  started.push(proxy, upstream);
  const sentQueries = () =>
    upstream.requests
      .filter((request) => request.url.startsWith('/api/v3/search/'))
      .map((request) => new URL(request.url, 'http://x').searchParams.get('q') ?? '');
  return { upstream, proxy, sentQueries };
}

const search = (q: string, extra = '') => `/api/v3/search/?q=${encodeURIComponent(q)}${extra}`;

describe('search scope, read as the upstream reads the query', () => {
  it('sends only in-scope project terms and words the upstream cannot read as filters, whatever the separators', async () => {
    const { proxy, sentQueries } = await setUp();
    const hostile = [
      'x\u0085user:@me',
      'x\u0085project:other',
      'org:acme x',
      'x\u3000org:acme',
      'x\u00a0subprojects:other',
      'team:core x',
      'Project:other x',
      'x project\\:other',
      'x\u2028user:bob',
    ];
    for (const q of hostile) {
      const response = await proxy.get(search(q));
      // A filter naming another project is refused; everything else is searched as words.
      if (response.status !== 200) expect([response.status, response.body.error.code], q).toEqual([403, 'project_not_allowed']);
    }
    const sent = sentQueries();
    expect(sent.length).toBeGreaterThanOrEqual(5);
    for (const q of sent) {
      for (const filter of upstreamFilters(q))
        expect(`${filter.name}:${filter.value}`, q).toMatch(/^(project|subprojects):aurora(\/[\w.-]+)?$/);
    }
  });

  it('lists only projects in scope, and never counts results it drops', async () => {
    const { proxy } = await setUp({
      search: (_req, res) =>
        json(res, 200, {
          count: 3,
          next: null,
          previous: null,
          projects: [
            { slug: 'aurora', versions: [{ slug: 'latest' }] },
            { slug: 'secret-internal', versions: [{ slug: 'latest' }] },
          ],
          query: 'x',
          results: [searchResult('aurora', 'a'), searchResult('secret-internal', 'b'), searchResult('secret-internal', 'c')],
        }),
    });
    const { status, body } = await proxy.get(search('x'));
    expect(status).toBe(200);
    expect(body.projects.map((project: { slug: string }) => project.slug)).toEqual(['aurora']);
    expect(body.results).toHaveLength(1);
    expect(body.count).toBe(1);
    expect(JSON.stringify(body)).not.toContain('secret-internal');
  });

  it('never sends a query the upstream refuses for its length', async () => {
    const { proxy, sentQueries } = await setUp({
      search: (_req, res, url) =>
        (url.searchParams.get('q') ?? '').length > 1000
          ? json(res, 400, { q: ['too long'] })
          : json(res, 200, { count: 0, next: null, previous: null, projects: [], query: '', results: [] }),
    });
    for (const length of [980, 990, 1000]) {
      const response = await proxy.get(search('a'.repeat(length)));
      if (response.status !== 200)
        expect(response.body.error, String(length)).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('"q"') });
    }
    expect(sentQueries().every((q) => q.length <= 1000)).toBe(true);
  });
});

describe("search answers keep the API's meaning", () => {
  it('links pages with absolute URLs, echoes the query asked, and keys page=01 with page=1', async () => {
    const { proxy, sentQueries } = await setUp({
      search: (_req, res, url) => {
        const page = Number(url.searchParams.get('page') ?? 1);
        json(res, 200, {
          count: 3,
          next: page !== 3 ? `https://upstream.example/api/v3/search/?page=${page + 1}` : null,
          previous: null,
          projects: [],
          query: url.searchParams.get('q'),
          results: [searchResult('aurora')],
        });
      },
    });
    const first = await proxy.get(search('lease  time', '&page_size=1'));
    expect(first.body.query).toBe('lease time');
    expect(first.body.next).toBe(`${proxy.url}/api/v3/search/?q=lease+time&page=2&page_size=1`);
    expect(first.body.previous).toBeNull();
    const last = await proxy.get(search('lease time', '&page=3&page_size=1'));
    expect(last.body.next).toBeNull();
    expect(last.body.previous).toBe(`${proxy.url}/api/v3/search/?q=lease+time&page=2&page_size=1`);
    // The last page the proxy serves links to none after it, whatever the upstream says.
    expect((await proxy.get(search('lease time', '&page=1000&page_size=1'))).body.next).toBeNull();
    const before = sentQueries().length;
    await proxy.get(search('lease time', '&page=03&page_size=1'));
    expect(sentQueries()).toHaveLength(before);
  });
});

describe('paths, limits and memory', () => {
  it('routes, rate-limits and logs a path by one rule, whatever its letter case', async () => {
    const { proxy } = await setUp({}, { rateLimit: 4 });
    for (const path of ['/API/v3/search/?q=a', '/api/V3/search/?q=b', '/api/v3/Search/?q=c', '/API/V3/SEARCH/?q=d', '/Healthz']) {
      const response = await proxy.get(path);
      const line = proxy.logs.at(-1)!;
      if (response.status === 200) expect(line.route, path).not.toBe('unknown');
      // An unknown path uses up the client's rate too: 404, or 429 once the burst (of 1) is used.
      else
        expect(
          [
            [404, 'unknown'],
            [429, 'unknown'],
          ],
          path,
        ).toContainEqual([response.status, line.route]);
    }
  });

  it('counts the raw URLs it remembers for the hot path against the cache bound', async () => {
    const { proxy } = await setUp();
    const words = 'w'.repeat(800);
    await proxy.get(`/api/v3/search/?q=${words}+a`);
    const before = proxy.app.context.responses.size.bytes;
    // The same search spelled differently: one cached answer, one more raw URL to remember.
    await proxy.get(`/api/v3/search/?q=${words}%20a`);
    expect(proxy.app.context.responses.size.bytes - before).toBeGreaterThanOrEqual(800);
  });

  it('counts project data kept per reader (session mode) against the cache bound', async () => {
    const { proxy } = await setUp({}, { credentials: 'session', token: undefined, cacheBytes: 1024 * 1024 });
    // 300 readers, ten at a time (within one client's requests in flight).
    for (let first = 0; first < 300; first += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => proxy.get(search('x'), { cookie: `sessionid=reader${first + i}` })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    }
    const { metadata, responses, pages } = proxy.app.context;
    expect(metadata.bytes).toBeGreaterThan(0);
    expect(metadata.bytes + responses.size.bytes + pages.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(metadata.bytes).toBeLessThanOrEqual(metadata.maxBytes);
  });

  it('counts the rate-limit state of client addresses against the cache bound', async () => {
    const { proxy } = await setUp({}, { rateLimit: 600, trustProxy: 1, cacheBytes: 1024 * 1024 });
    for (let client = 0; client < 400; client++)
      await proxy.get('/api/v3/search/?q=x', { 'x-forwarded-for': `203.0.${client >> 8}.${client & 255}` });
    const { rateLimiter, metadata, responses, pages } = proxy.app.context;
    expect(rateLimiter.bytes).toBeGreaterThan(0);
    expect(rateLimiter.bytes + metadata.bytes + responses.size.bytes + pages.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(rateLimiter.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('keeps a fetched page as its HTML, counted against the cache bound (its tree lives only in an extraction thread)', async () => {
    const { html, fragments } = largeSphinxPage(1024 * 1024);
    const external = await startFakeServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html));
    started.push(external);
    const host = new URL(external.url).host.replace('127.0.0.1', 'localhost');
    const { proxy } = await setUp({}, { externalDomains: [host], cacheBytes: 64 * 1024 * 1024 });
    expect((await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`http://${host}/api.html#${fragments[0]}`)}`)).status).toBe(200);
    expect(proxy.app.context.pages.bytes).toBeGreaterThanOrEqual(Buffer.byteLength(html));
    expect(proxy.app.context.pages.bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
  });

  it('closes connections that send their headers too slowly, and caps connections', async () => {
    const { proxy } = await setUp({}, { headerTimeout: 500, maxConnections: 6 });
    const port = Number(new URL(proxy.url).port);
    const trickle = (socket: Socket) => {
      const timer = setInterval(() => socket.writable && socket.write('X'), 100);
      return new Promise<string>((resolve) => {
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(timer);
          resolve(answer);
        });
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      });
    };
    const slow = Array.from({ length: 5 }, () => trickle(connect(port, '127.0.0.1')));
    const answers = await Promise.all(slow);
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408.*"code":"bad_request"/s);

    const held = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => resolve(socket));
            socket.on('error', () => undefined);
          }),
      ),
    );
    const refused = connect(port, '127.0.0.1');
    refused.on('error', () => undefined);
    await new Promise((resolve) => refused.on('close', resolve));
    for (const socket of held) socket.destroy();
    // Connections are taken again once the proxy has seen the held ones close.
    await vi.waitFor(async () => expect((await proxy.get('/healthz')).status).toBe(200));
  });
});

describe('one client cannot take the proxy down', () => {
  const UPGRADE = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
  const CONNECT = 'CONNECT docs.example.org:443 HTTP/1.1\r\nHost: docs.example.org:443\r\n\r\n';

  it('survives clients that reset the connection while their upgrade or CONNECT is refused', async () => {
    const { proxy } = await setUp();
    const port = Number(new URL(proxy.url).port);
    for (let round = 0; round < 20; round++) await Promise.all([resettingClient(port, UPGRADE), resettingClient(port, CONNECT)]);
    expect((await proxy.get('/healthz')).status).toBe(200);
  });

  it('frees the slots of clients that never read their 408 or their upgrade refusal', async () => {
    const { proxy } = await setUp({}, { headerTimeout: 300, maxConnections: 6 });
    const port = Number(new URL(proxy.url).port);
    const clients = await Promise.all([
      ...Array.from({ length: 3 }, () => silentClient(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Half: ')),
      ...Array.from({ length: 3 }, () => silentClient(port, UPGRADE)),
    ]);
    // The server closes each of them while they stay open; before, they kept their slots as long as they stayed.
    const open = () => new Promise<number>((resolve) => proxy.server.getConnections((_error, count) => resolve(count)));
    while ((await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await proxy.get('/healthz')).status).toBe(200);
    for (const client of clients) client.socket.destroy();
  });
});

describe('hostile pages', () => {
  /** An external documentation host serving `pages` by path, counting the fetches of each. */
  async function externalSite(pages: Record<string, string>) {
    const site = await startFakeServer((req, res) => {
      const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
      if (page === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    started.push(site);
    const host = new URL(site.url).host.replace('127.0.0.1', 'localhost');
    return { site, host, embed: (path: string, extra = '') => `/api/v3/embed/?url=${encodeURIComponent(`http://${host}${path}`)}${extra}` };
  }
  const body = (inner: string) => `<html><body><main><section id="s"><h1>S</h1>${inner}</section></main></body></html>`;

  it('refuses a page nested too deep with page_too_complex, keeps the refusal, never fetching it again for another query', async () => {
    const { site, host, embed } = await externalSite({
      '/deep.html': body(`${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`),
      '/spans.html': body('<span>x'.repeat(100_000)),
    });
    const { proxy } = await setUp({}, { externalDomains: [host] });
    for (const path of ['/deep.html', '/spans.html']) {
      const first = await proxy.get(embed(path, '&form=preview'));
      expect([first.status, first.body.error.code], path).toEqual([502, 'page_too_complex']);
      expect(first.body.error.message, path).toContain(host);
    }
    for (const again of ['/deep.html?v=1#s', '/deep.html?v=2#other', '/deep.html']) {
      const response = await proxy.get(embed(again));
      expect([response.status, response.body.error.code], again).toEqual([502, 'page_too_complex']);
    }
    expect(site.requests.filter((request) => request.url.startsWith('/deep.html'))).toHaveLength(1);
    expect((await proxy.get('/healthz')).status).toBe(200);
  });

  it('stops an extraction past --extract-timeout, answering /healthz meanwhile', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `<tr><td>${i}</td><td><b><i>x</b></i></td></tr>`).join('');
    const { host, embed } = await externalSite({ '/rows.html': body(`<table>${rows}</table>`) });
    const { proxy } = await setUp({}, { externalDomains: [host], extractTimeout: 100 });
    const order: string[] = [];
    const costly = proxy.get(embed('/rows.html#s')).then((response) => {
      order.push('page');
      return response;
    });
    // Asked once the page is being extracted: the main thread answers it at once.
    while (proxy.app.context.threads.pending === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const health = await proxy.get('/healthz');
    order.push('healthz');
    const response = await costly;
    expect(health.status).toBe(200);
    expect(order).toEqual(['healthz', 'page']);
    expect([response.status, response.body.error.code]).toEqual([502, 'page_too_complex']);
  });

  it('refuses deep nesting in a section from the upstream the same way', async () => {
    const deep = `<section id="s"><h1>S</h1>${'<div>'.repeat(100_000)}x</section>`;
    const { proxy, upstream } = await setUp({
      embed: (_req, res, url) => json(res, 200, { url: url.searchParams.get('url'), fragment: 's', content: deep, external: false }),
    });
    for (const form of ['full', 'preview']) {
      const response = await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`${upstream.url}/en/latest/x.html#s`)}&form=${form}`);
      expect([response.status, response.body.error.code], form).toEqual([502, 'page_too_complex']);
    }
    expect((await proxy.get('/healthz')).status).toBe(200);
  });
});

describe('bad input and upstream faults', () => {
  it('answers a page-context URL with invalid percent-encoding without a 5xx', async () => {
    const { proxy, upstream } = await setUp();
    for (const url of [`${upstream.url}/en/%ff/x.html`, `${upstream.url}/en/latest/%ff.html`, `${upstream.url}/%ff/%ff/`]) {
      const response = await proxy.get(`/api/v3/page-context/?url=${encodeURIComponent(url)}`);
      expect(response.status, url).toBeLessThan(500);
      expect(response.body.error?.code ?? 'ok', url).not.toBe('internal_error');
    }
  });

  it('answers a request without Host with JSON, and marks JSON answers nosniff', async () => {
    const { proxy } = await setUp();
    const port = Number(new URL(proxy.url).port);
    const noHost = await rawRequest(port, 'GET /api/v3/search/?q=x HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost.status).toBe(400);
    expect(noHost.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(noHost.body).error.code).toBe('bad_request');
    const health = await rawRequest(port, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect([health.status, health.headers['content-type']]).toEqual([200, expect.stringMatching(/^application\/json/)]);
    for (const path of ['/api/v3/search/?q=x', '/api/v3/search/?q=x', '/api/v3/search/', '/nope', '/healthz']) {
      const response = await proxy.get(path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('passes on only its own messages for upstream errors, never upstream text', async () => {
    const reversed = [...TOKEN].reverse().join('');
    const messages = [
      reversed,
      encodeURIComponent(TOKEN).replace(/-/g, '%2D'),
      '\u001b[31mred\u001b[0m <script>alert(1)</script>',
      'internal host db-7.corp',
    ];
    let next = 0;
    const fail: Handler = (_req, res) => json(res, [404, 400, 500, 503][next % 4]!, { detail: messages[next++ % messages.length] });
    const { proxy, upstream } = await setUp({ embed: fail, search: fail });
    const texts: string[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await proxy.get(
        i % 2 ? search(`q${i}`) : `/api/v3/embed/?url=${encodeURIComponent(`${upstream.url}/en/latest/x${i}.html`)}`,
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      texts.push(response.text);
    }
    for (const text of texts) for (const message of messages) expect(text).not.toContain(message);
    expect(texts.join(' ')).not.toMatch(/\bred\b|script|db-7|%2D/);
  });

  it('refuses an answer of the wrong shape as upstream_invalid_response, and keeps the good copy it had', async () => {
    let answer: unknown = { count: 1, next: null, previous: null, projects: [], query: 'x', results: [searchResult('aurora')] };
    const { proxy } = await setUp(
      { search: (_req, res) => json(res, 200, answer) },
      { searchTtl: 0, staleWhileRevalidate: 0, staleIfError: 3600 },
    );
    const good = await proxy.get(search('x'));
    expect(good.status).toBe(200);
    for (const wrong of [
      { results: 'x' },
      { count: -1, results: [] },
      { count: 1e308, results: [] },
      { count: 1.5, results: [] },
      { count: 1, results: [], next: 7 },
    ]) {
      answer = { next: null, previous: null, projects: [], query: 'x', ...wrong };
      const fresh = await proxy.get(search(`other ${JSON.stringify(wrong)}`));
      expect([fresh.status, fresh.body.error?.code], JSON.stringify(wrong)).toEqual([502, 'upstream_invalid_response']);
      const stale = await proxy.get(search('x'));
      expect(stale.text, JSON.stringify(wrong)).toBe(good.text);
    }
  });

  it('holds --timeout as the deadline of the whole upstream call, a trickling body included', async () => {
    const { proxy } = await setUp(
      {
        search: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          const body = JSON.stringify({ count: 0, next: null, previous: null, projects: [], query: 'x', results: [] });
          let sent = 0;
          const timer = setInterval(() => {
            if (res.destroyed || sent >= body.length) {
              clearInterval(timer);
              res.end();
              return;
            }
            res.write(body.slice(sent, sent + 10));
            sent += 10;
          }, 120);
        },
      },
      { timeout: 800 },
    );
    const response = await proxy.get(search('x'));
    expect([response.status, response.body.error?.code]).toEqual([504, 'upstream_timeout']);
  });

  it('refuses at start a token with a trailing CR or another control character', () => {
    for (const token of [`${TOKEN}\r`, `${TOKEN}\n`, `${TOKEN}\u0000`, ` ${TOKEN}`, `a\tb`]) {
      expect(() => parseConfig({ upstream: 'https://docs-host.example', projects: ['aurora'], token }), JSON.stringify(token)).toThrow(
        ConfigError,
      );
      expect(() => parseConfig({ upstream: 'https://docs-host.example', projects: ['aurora'], token }), JSON.stringify(token)).toThrow(
        /DOCLENS_UPSTREAM_TOKEN/,
      );
    }
  });

  it("embeds by default from the upstream's own origin only, not another port or scheme of its host", async () => {
    const { proxy, upstream } = await setUp({
      embed: (_req, res, url) => json(res, 200, { url: url.searchParams.get('url'), fragment: null, content: '<p>x</p>', external: false }),
    });
    const { port } = new URL(upstream.url);
    expect((await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`${upstream.url}/en/latest/x.html`)}`)).status).toBe(200);
    for (const other of [
      `http://127.0.0.1:${Number(port) + 1}/en/latest/x.html`,
      `https://127.0.0.1:${port}/en/latest/x.html`,
      'http://127.0.0.1/en/latest/x.html',
    ]) {
      const response = await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(other)}`);
      expect([response.status, response.body.error.code], other).toEqual([403, 'domain_not_allowed']);
    }
  });

  it('forbids IPv6 addresses that reach private IPv4 through translation', () => {
    for (const address of [
      '::ffff:0:7f00:1',
      '0:0:0:0:ffff:0:a00:1',
      '64:ff9b::7f00:1',
      '64:ff9b:0:0:0:0:a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '64:ff9b:1::808:808',
      '64:ff9b:1:ffff::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001::1',
      '0:0:0:0:0:ffff:127.0.0.1',
      '::ffff:0:127.0.0.1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['2606:4700::6810:84e5', '64:ff9b::808:808', '::ffff:8.8.8.8', '2a00:1450:4001:82b::200e'])
      expect(isForbiddenAddress(address), address).toBe(false);
  });
});

describe('API v2 upstream', () => {
  it('sends no token to the public v2 endpoints, and a missing section is section_not_found', async () => {
    const upstream = await startFakeServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://upstream');
      if (url.pathname === '/api/v2/project/')
        return json(res, 200, {
          count: 1,
          next: null,
          previous: null,
          results: [
            {
              id: 1,
              slug: 'aurora',
              name: 'Aurora',
              language: 'en',
              default_version: 'latest',
              canonical_url: `${upstream.url}/en/latest/`,
            },
          ],
        });
      if (url.pathname === '/api/v2/search/') return json(res, 200, { count: 0, next: null, previous: null, results: [] });
      if (url.pathname === '/api/v2/embed/')
        return json(res, 200, { content: [], headers: [], url: url.searchParams.get('url'), meta: {} });
      json(res, 404, { detail: 'Not found.' });
    });
    started.push(upstream);
    const proxy = await startTestProxy({ upstream: upstream.url, apiVersion: 'v2', token: TOKEN, rateLimit: 0 });
    started.push(proxy);
    expect((await proxy.get(search('x'))).status).toBe(200);
    const missing = await proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`${upstream.url}/en/latest/x.html#nope`)}`);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'section_not_found']);
    expect(upstream.requests.length).toBeGreaterThan(0);
    expect(upstream.requests.filter((request) => request.headers.authorization !== undefined)).toEqual([]);
  });
});

describe('shutdown', () => {
  it('answers requests in flight, and a half-sent request does not hold the exit', async () => {
    let answerSearch: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const atUpstream = new Promise<void>((resolve) => (reached = resolve));
    const { proxy } = await setUp(
      {
        search: (_req, res, url) => {
          answerSearch = () =>
            json(res, 200, { count: 0, next: null, previous: null, projects: [], query: url.searchParams.get('q'), results: [] });
          reached();
        },
      },
      { timeout: 30_000 },
    );
    const port = Number(new URL(proxy.url).port);
    const half = connect(port, '127.0.0.1');
    half.on('error', () => undefined);
    half.write('GET /api/v3/search/?q=x HTTP/1.1\r\nHost: x\r\n');
    const halfClosed = new Promise((resolve) => half.on('close', resolve));
    const inFlight = proxy.get(search('x'));
    // The search is in flight (the upstream has it) when the proxy starts closing, and answered after.
    await atUpstream;
    const closed = proxy.close();
    answerSearch();
    await closed;
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    await halfClosed;
  });
});
