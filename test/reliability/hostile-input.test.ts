import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../contract/index.ts';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';
import { rawGet, rawRequest, type RawResponse } from '../fixtures/raw-http.ts';
import { PYTHON_SEPARATORS, upstreamFilters } from '../proxy/upstream-query.ts';

/**
 * Generated hostile input against every parameter and path of the proxy: every answer is JSON with a
 * 2xx or 4xx status, none hangs, the token never shows, nothing outside the scope or the read
 * endpoints reaches the upstream, and no request goes anywhere else.
 */
const TOKEN = 'hostile-corpus-token-c0ffee';
let upstream: FakeServer;
let canary: FakeServer;
let external: FakeServer;
let proxy: TestProxy;
let port: number;
let tried = 0;

beforeAll(async () => {
  canary = await startFakeServer((_req, res) => json(res, 200, {}));
  external = await startFakeServer(
    (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body><div role="main"><section id="a"><h1>A</h1><p>x</p></section></div></body></html>'),
  );
  upstream = await startFakeServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname === '/api/v3/projects/aurora/') return json(res, 200, auroraProject('https://docs.example.org'));
    if (/^\/api\/v3\/projects\/aurora\/(translations|subprojects|versions)\/$/.test(url.pathname)) {
      return json(res, 200, {
        count: 1,
        next: null,
        previous: null,
        results: url.pathname.endsWith('versions/')
          ? [
              {
                slug: 'latest',
                verbose_name: 'latest',
                type: 'branch',
                active: true,
                hidden: false,
                built: true,
                urls: { documentation: 'https://docs.example.org/en/latest/' },
              },
            ]
          : [],
      });
    }
    if (url.pathname === '/api/v3/search/')
      return json(res, 200, { count: 0, next: null, previous: null, projects: [], query: url.searchParams.get('q'), results: [] });
    if (url.pathname === '/api/v3/embed/')
      return json(res, 200, { url: url.searchParams.get('url'), fragment: null, content: '<p>x</p>', external: false });
    json(res, 404, { detail: 'Not found.' });
  });
  proxy = await startTestProxy({
    upstream: upstream.url,
    token: TOKEN,
    projects: ['aurora'],
    docsDomains: ['docs.example.org'],
    externalDomains: [new URL(external.url).host.replace('127.0.0.1', 'localhost')],
    rateLimit: 0,
    timeout: 2000,
  });
  port = Number(new URL(proxy.url).port);
});

afterAll(async () => {
  await proxy.close();
  await Promise.all([upstream.close(), canary.close(), external.close()]);
  console.log(`hostile input: ${tried} requests tried`);
});

function expectSafe(response: RawResponse, label: string): void {
  tried++;
  expect(response.status, label).toBeGreaterThanOrEqual(200);
  expect(response.status, `${label}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.headers['content-type'], label).toMatch(/^application\/json/);
    const body = JSON.parse(response.body) as ErrorBody;
    expect(typeof body.error.code, label).toBe('string');
    expect(body.error.message, label).not.toMatch(/\bat \w+ \(|node:internal|Error:/);
  }
  expect(response.raw, label).not.toContain(TOKEN);
}

const PATHS = [
  '/api/v3/search/',
  '/api/v3/embed/',
  '/api/v3/page-context/',
  '/api/v3/projects/aurora/versions/',
  '/api/v3/projects/aurora/translations/',
  '/api/v3/projects/aurora/subprojects/',
  '/healthz',
  '/metrics',
];
const NAMES = [
  'q',
  'page',
  'page_size',
  'url',
  'doctool',
  'doctoolversion',
  'maincontent',
  'form',
  'project',
  'version',
  'active',
  'type',
  'built',
  'hidden',
  'subprojects',
  'expand',
  'fields',
];

const oddStrings = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%0d%0aSet-Cookie:%20x=1',
    '..%2f..%2fetc%2fpasswd',
    '\u202e\u0000\ufeff',
    '𝕏'.repeat(300),
    'a'.repeat(5000),
    '-1',
    '1e9',
    '0x10',
    '999999999999',
    'true',
    'null',
    '[]',
    '{}',
  ),
);

const HOSTILE_URLS = [
  'file:///etc/passwd',
  'javascript:alert(1)',
  'data:text/html,<script>1</script>',
  'gopher://127.0.0.1:25/',
  'ftp://docs.example.org/',
  'http://user:pass@docs.example.org/en/latest/',
  'http://127.0.0.1/',
  'http://2130706433/',
  'http://0177.0.0.1/',
  'http://0x7f.0.0.1/',
  'http://127.1/',
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://192.168.1.1/',
  'http://[fe80::1]/',
  'http://localhost/',
  'http://localtest.me/',
  'http://0/',
  'https://docs.example.org@127.0.0.1/',
  'https://127.0.0.1#@docs.example.org/',
  'https://docs.example.org.evil.example/',
  'https://docs.example.org/en/latest/%2e%2e/%2e%2e/admin',
  'https://docs.example.org/en/latest/page.html#%00',
  'HTTPS://DOCS.EXAMPLE.ORG/en/latest/',
  'https://docs.example.org:99999/',
  'https:///docs.example.org',
  '//docs.example.org/',
  'https://docs.example.org/\r\nX-Injected: 1',
  'http://[::ffff:0:7f00:1]/',
  'http://[0:0:0:0:ffff:0:a00:1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b:1::a00:1]/',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'https://docs.example.org/en/%ff/x.html',
  'https://docs.example.org/%ff/%fe/',
  'https://docs.example.org/en/latest/%ff.html#%ff',
];

const encode = (value: string) => encodeURIComponent(value);

describe('hostile input to the proxy', () => {
  it('answers generated queries on every endpoint with JSON 2xx/4xx, promptly', async () => {
    const query = fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.oneof(oddStrings, fc.constantFrom(...HOSTILE_URLS))), { maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), query, fc.boolean(), async (path, params, rawValues) => {
        const search = params.map(([name, value]) => `${name}=${rawValues ? value.replace(/[\s#&]/g, encode) : encode(value)}`).join('&');
        const target = `${path}${search ? `?${search}` : ''}`;
        if (/[\r\n]/.test(target)) return;
        expectSafe(await rawRequest(port, rawGet(target)), target);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses every hostile embed and page-context URL without fetching anything', async () => {
    for (const url of HOSTILE_URLS) {
      for (const path of ['/api/v3/embed/', '/api/v3/page-context/']) {
        const response = await rawRequest(port, rawGet(`${path}?url=${encode(url)}`));
        expectSafe(response, `${path} ${url}`);
        const onDocs =
          URL.canParse(url) &&
          new URL(url).hostname === 'docs.example.org' &&
          !new URL(url).username &&
          /^https?:$/.test(new URL(url).protocol);
        if (!onDocs) expect(response.status, url).toBeGreaterThanOrEqual(400);
      }
    }
    expect(canary.requests).toEqual([]);
  });

  it('survives traversal in every path segment, odd methods, header injection, oversized headers and bodies', async () => {
    const segments = ['..', '%2e%2e', '..%2f', '%2f', '.%00.', '~root', ';x', '%252e%252e'];
    for (const segment of segments) {
      for (const template of [
        '/api/v3/SEG/',
        '/api/SEG/search/',
        '/api/v3/projects/SEG/versions/',
        '/api/v3/projects/aurora/SEG/',
        '/SEG/SEG/etc/passwd',
        '/doclens.js/SEG',
      ]) {
        expectSafe(await rawRequest(port, rawGet(template.replaceAll('SEG', segment))), template);
      }
    }
    // Other letter cases of known paths are not the proxy's paths: refused, and logged as unknown.
    for (const path of [
      '/API/v3/search/?q=x',
      '/api/V3/embed/?url=x',
      '/api/v3/PROJECTS/aurora/versions/',
      '/api/v3/projects/aurora/Versions/',
      '/HEALTHZ',
      '/Doclens.js',
    ]) {
      const response = await rawRequest(port, rawGet(path));
      expectSafe(response, path);
      expect(response.status, path).toBe(404);
      expect(proxy.logs.at(-1)?.route, path).toBe('unknown');
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'CONNECT', 'PROPFIND', 'FOO']) {
      const response = await rawRequest(
        port,
        `${method} /api/v3/projects/aurora/versions/latest/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expectSafe(response, method);
      expect(response.status, method).toBeGreaterThanOrEqual(400);
    }
    expectSafe(await rawRequest(port, rawGet('/api/v3/search/?q=x', { 'X-Long': 'a'.repeat(64 * 1024) })), 'huge header');
    expectSafe(
      await rawRequest(port, rawGet('/api/v3/search/?q=x', Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`X-${i}`, 'v'])))),
      'many headers',
    );
    expectSafe(await rawRequest(port, 'GET /api/v3/search/?q=a\r\nX-Injected: 1 HTTP/1.1\r\nHost: x\r\n\r\n'), 'CRLF in the target');
    expectSafe(await rawRequest(port, 'GARBAGE\r\n\r\n'), 'not HTTP');
    const body = Buffer.alloc(8 * 1024 * 1024, 97);
    expectSafe(
      await rawRequest(
        port,
        Buffer.concat([
          Buffer.from(`POST /api/v3/search/ HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
          body,
        ]),
      ),
      'huge body',
    );
    expectSafe(await rawRequest(port, rawGet(`/api/v3/search/?q=x&${'p=1&'.repeat(5000)}`)), 'many parameters');
    expect((await rawRequest(port, rawGet('/healthz'))).status).toBe(200);
  });

  it('never lets a search reach a project outside the scope, in any spelling or separator of the upstream', async () => {
    const name = fc.oneof(
      fc.constantFrom('project', 'subprojects', 'user', 'org', 'organization', 'team', 'PROJECT', 'Project', 'lang', 'version'),
      fc.stringMatching(/^[a-z_]{1,10}$/),
    );
    const term = fc.oneof(
      fc.constantFrom(
        'project:',
        'subprojects:',
        'user:',
        'project :',
        'project:aurora/../skyline',
        'project:aurora,skyline',
        'project:%61urora',
        'project\\:skyline',
        '\\:',
      ),
      fc.constantFrom(
        'project:skyline',
        'subprojects:skyline',
        'project:aurora',
        'project:aurora/latest',
        'user:@me',
        'org:acme',
        'project:aurora/latest/extra',
        'project:skyline/latest',
        'subprojects:aurora',
      ),
      fc.tuple(name, fc.constantFrom('skyline', '@me', 'acme', 'aurora', '')).map(([filter, value]) => `${filter}:${value}`),
      fc.string({ maxLength: 12 }),
    );
    const separator = fc.oneof(fc.constant(' '), fc.constantFrom(...PYTHON_SEPARATORS), fc.constantFrom('\ufeff', '\u200b', '\u180e'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(separator, term), { maxLength: 6 }), fc.boolean(), async (parts, doubleEncode) => {
        const q = parts.map(([before, text]) => before + text).join('');
        const encoded = doubleEncode ? encode(encode(q)) : encode(q);
        expectSafe(await rawRequest(port, rawGet(`/api/v3/search/?q=${encoded}`)), JSON.stringify(q));
      }),
      { numRuns: 300 },
    );
    const searches = upstream.requests.filter((request) => request.url.startsWith('/api/v3/search/'));
    expect(searches.length).toBeGreaterThan(0);
    for (const request of searches) {
      const sent = new URL(request.url, 'http://x').searchParams.get('q') ?? '';
      expect(sent.length, request.url).toBeLessThanOrEqual(1000);
      // Read as the upstream reads it, the query holds only in-scope project terms: every other token is a word.
      for (const filter of upstreamFilters(sent))
        expect(`${filter.name}:${filter.value}`, request.url).toMatch(/^(project|subprojects):aurora(\/[\w.-]+)?$/);
    }
  });

  it('runs and forwards only simple maincontent selectors, rebuilt from what is allowed', async () => {
    const externalPage = `${external.url.replace('127.0.0.1', 'localhost')}/page.html`;
    const costly = ['*:has(~ * ~ * ~ * ~ * ~ *)', ':nth-child(2n+1) *', 'a ~ b', 'x, y', '[a="b" i]', 'svg|a', `${'div '.repeat(30)}p`];
    for (const maincontent of costly) {
      for (const url of [externalPage, 'https://docs.example.org/en/latest/page.html']) {
        const response = await rawRequest(port, rawGet(`/api/v3/embed/?url=${encode(url)}&maincontent=${encode(maincontent)}`));
        expectSafe(response, maincontent);
        expect([response.status, JSON.parse(response.body).error.code], maincontent).toEqual([400, 'invalid_parameter']);
      }
    }
    const simple = await rawRequest(
      port,
      rawGet(
        `/api/v3/embed/?url=${encode('https://docs.example.org/en/latest/page.html')}&maincontent=${encode('div[role=main]>section')}`,
      ),
    );
    expect(simple.status).toBe(200);
    expect(
      (await rawRequest(port, rawGet(`/api/v3/embed/?url=${encode(externalPage)}&maincontent=${encode('[role=main] #a')}`))).status,
    ).toBe(200);
    const sent = upstream.requests.map((request) => new URL(request.url, 'http://x').searchParams.get('maincontent')).filter(Boolean);
    expect(sent).toContain('div[role="main"] > section');
    for (const selector of sent) expect(selector).toMatch(/^[\w\s.#>[\]="-]+$/);
  });

  it('only ever sent reads of the allowed endpoints upstream, always with the token, and nothing elsewhere', () => {
    expect(upstream.requests.length).toBeGreaterThan(0);
    for (const request of upstream.requests) {
      expect(request.method).toBe('GET');
      expect(request.url).toMatch(/^\/api\/v3\/(search\/|embed\/|projects\/aurora\/(|versions\/|translations\/|subprojects\/))(\?|$)/);
      expect(request.headers.authorization).toBe(`Token ${TOKEN}`);
    }
    expect(external.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
    expect(canary.requests).toEqual([]);
    expect(JSON.stringify(proxy.logs)).not.toContain(TOKEN);
  });
});
