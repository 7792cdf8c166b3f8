import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadManifest } from '../../host/manifest.ts';
import { demoManifest } from '../fixtures/demo.ts';
import { startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';

const TOKEN = 'proxy-test-token-5f2c9a';
let host: RunningHost;
let proxy: TestProxy;
let external: FakeServer;

const EXTERNAL_PAGE = `<!DOCTYPE html><html><head><title>Ext</title></head><body><div role="main">
<section id="intro"><h1>Intro<a class="headerlink" href="#intro">¶</a></h1><p>First <a href="other.html">link</a>.</p><img src="img/a.png">
<p>Second.</p><p>Third.</p><p>Fourth.</p></section></div></body></html>`;

beforeAll(async () => {
  host = await startHost({ manifest: loadManifest(demoManifest), token: TOKEN, port: 0 });
  // Searches here check complete answers.
  await host.searchComplete;
  external = await startFakeServer((req, res) => {
    if (req.url?.startsWith('/docs/page.html')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(EXTERNAL_PAGE);
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>nope</h1>');
    }
  });
  proxy = await startTestProxy({
    upstream: host.apiUrl,
    token: TOKEN,
    projects: ['aurora'],
    subprojects: true,
    externalDomains: [new URL(external.url).host.replace('127.0.0.1', 'localhost')],
    corsOrigins: ['https://docs.example.org'],
  });
});
afterAll(async () => {
  await proxy.close();
  await external.close();
  await host.close();
});

const page = (path: string) => `${host.apiUrl}/en/latest/${path}`;
const embed = (url: string, extra = '') => `/api/v3/embed/?url=${encodeURIComponent(url)}${extra}`;
const externalUrl = (path: string) => `${external.url.replace('127.0.0.1', 'localhost')}${path}`;

describe('search', () => {
  it('searches the configured project with its subprojects when the query names none', async () => {
    const { status, body } = await proxy.get('/api/v3/search/?q=scheduler&page_size=5');
    expect(status).toBe(200);
    expect(body.query).toBe('scheduler');
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(5);
    expect(new Set(body.results.map((result: any) => result.project.slug))).not.toContain('skyline');
    expect(body.next).toBe(`${proxy.url}/api/v3/search/?q=scheduler&page=2&page_size=5`);
  });

  it('keeps in-scope project terms, drops user: terms, and refuses projects outside the scope', async () => {
    const scoped = await proxy.get(`/api/v3/search/?q=${encodeURIComponent('project:aurora/2.0 user:@me retry')}`);
    expect(scoped.status).toBe(200);
    expect(scoped.body.query).toBe('project:aurora/2.0 user:@me retry');
    expect(scoped.body.results.every((result: any) => result.version.slug === '2.0')).toBe(true);
    const translation = await proxy.get(`/api/v3/search/?q=${encodeURIComponent('project:aurora-es programador')}`);
    expect(translation.status).toBe(200);
    for (const q of ['project:skyline deploy', 'subprojects:skyline deploy', 'project:aurora project:skyline x']) {
      const refused = await proxy.get(`/api/v3/search/?q=${encodeURIComponent(q)}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('project_not_allowed');
    }
  });

  it('validates q, page and page_size with messages naming the parameter', async () => {
    for (const [query, name] of [
      ['', 'q'],
      ['q=', 'q'],
      [`q=${'a'.repeat(1001)}`, 'q'],
      ['q=x&page=0', 'page'],
      ['q=x&page=abc', 'page'],
      ['q=x&page_size=51', 'page_size'],
      ['q=x&q=y', 'q'],
      ['q=x&project=aurora', 'project'],
      ['q=%E0%A4%A', 'query'],
    ] as const) {
      const { status, body } = await proxy.get(`/api/v3/search/?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe('invalid_parameter');
      expect(body.error.message).toContain(`"${name}"`);
    }
  });
});

describe('embed', () => {
  it('embeds a section through the upstream, with links absolute', async () => {
    const { status, body } = await proxy.get(embed(page('api/scheduler.html#aurora.Scheduler.add_job'), '&doctool=sphinx'));
    expect(status).toBe(200);
    expect(body.fragment).toBe('aurora.Scheduler.add_job');
    expect(body.content).toMatch(/^<dl class="py method">/);
    expect(body.content).not.toMatch(/href="(?!https?:)/);
  });

  it('gives a bounded preview form: title, first blocks, truncation flag', async () => {
    const { status, body } = await proxy.get(embed(page('glossary.html#term-job'), '&doctool=sphinx&form=preview'));
    expect(status).toBe(200);
    expect(body.title.toLowerCase()).toContain('job');
    expect(typeof body.truncated).toBe('boolean');
    const chapter = await proxy.get(embed(page('architecture.html'), '&form=preview'));
    expect(chapter.body.truncated).toBe(true);
    expect(chapter.body.content.length).toBeLessThanOrEqual(4000);
    expect(chapter.body.content).not.toContain('headerlink');
  });

  it('previews what an empty target labels, reading the page content from the upstream', async () => {
    // Without doctool=sphinx the upstream gives the bare `<span id="faq-thundering-herd"></span>`.
    const bare = await proxy.get(embed(page('faq.html#faq-thundering-herd')));
    expect(bare.body.content).toBe('<span id="faq-thundering-herd"></span>');
    const { status, body } = await proxy.get(embed(page('faq.html#faq-thundering-herd'), '&form=preview'));
    expect(status).toBe(200);
    expect(body.title).toBe('What is the thundering herd problem?');
    expect(body.content).toMatch(/<p>/);
  });

  it('extracts from allowlisted external pages itself, fetching each page once', async () => {
    const first = await proxy.get(embed(externalUrl('/docs/page.html#intro')));
    expect(first.status).toBe(200);
    expect(first.body.external).toBe(true);
    expect(first.body.content).toContain(`href="${externalUrl('/docs/other.html')}"`);
    expect(first.body.content).toContain(`src="${externalUrl('/docs/img/a.png')}"`);
    const preview = await proxy.get(embed(externalUrl('/docs/page.html#intro'), '&form=preview'));
    expect(preview.body).toMatchObject({ title: 'Intro', truncated: true });
    const main = await proxy.get(embed(externalUrl('/docs/page.html')));
    expect(main.status).toBe(200);
    expect(external.requests.filter((request) => request.url === '/docs/page.html')).toHaveLength(1);
    const missing = await proxy.get(embed(externalUrl('/docs/page.html#nope')));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('section_not_found');
    const gone = await proxy.get(embed(externalUrl('/docs/gone.html#x')));
    expect(gone.body.error.code).toBe('page_not_found');
    expect(external.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('refuses URLs outside the documentation and external domains, and malformed ones', async () => {
    for (const [url, status, code] of [
      ['https://evil.example/page.html', 403, 'domain_not_allowed'],
      ['http://169.254.169.254/latest/meta-data/', 403, 'domain_not_allowed'],
      ['file:///etc/passwd', 400, 'invalid_parameter'],
      ['javascript:alert(1)', 400, 'invalid_parameter'],
      [`http://user:pass@${new URL(host.apiUrl).host}/en/latest/`, 400, 'invalid_parameter'],
      ['not a url', 400, 'invalid_parameter'],
    ] as const) {
      const response = await proxy.get(embed(url));
      expect(response.status, url).toBe(status);
      expect(response.body.error.code).toBe(code);
    }
    expect((await proxy.get(embed(page('index.html'), '&doctool=mkdocs'))).body.error.message).toContain('"doctool"');
    expect((await proxy.get(embed(page('index.html#no-such-section')))).body.error.code).toBe('section_not_found');
  });
});

describe('projects and page context', () => {
  it('lists versions, translations and subprojects of projects in scope only', async () => {
    const versions = await proxy.get('/api/v3/projects/aurora/versions/?active=true');
    expect(versions.status).toBe(200);
    expect(versions.body.results.map((version: any) => version.slug)).toEqual(expect.arrayContaining(['latest', 'stable', '2.0', '1.0']));
    expect(versions.body.results.every((version: any) => version.active)).toBe(true);
    const translations = await proxy.get('/api/v3/projects/aurora/translations/');
    expect(translations.body.results.map((project: any) => project.slug)).toEqual(['aurora-es']);
    const subprojects = await proxy.get('/api/v3/projects/aurora/subprojects/');
    expect(subprojects.body.results).toMatchObject([{ alias: 'plugins', child: { slug: 'aurora-plugins' } }]);
    expect((await proxy.get('/api/v3/projects/skyline/versions/')).status).toBe(404);
  });

  it("keeps the hosting API's v3 shapes for versions, translations and subprojects, without upstream-only fields", async () => {
    const version = (await proxy.get('/api/v3/projects/aurora/versions/')).body.results.find((entry: any) => entry.slug === '2.0');
    expect(version).toMatchObject({
      slug: '2.0',
      verbose_name: expect.any(String),
      type: 'tag',
      active: true,
      hidden: false,
      built: true,
      ref: null,
      downloads: expect.any(Object),
      urls: { documentation: `${host.apiUrl}/en/2.0/` },
    });
    expect(version).not.toHaveProperty('_links');
    expect(version).not.toHaveProperty('documentation_url');
    const [translation] = (await proxy.get('/api/v3/projects/aurora/translations/')).body.results;
    expect(translation).toMatchObject({
      slug: 'aurora-es',
      name: expect.any(String),
      language: { code: 'es', name: expect.any(String) },
      default_version: expect.any(String),
      urls: { documentation: expect.stringContaining('/es/') },
      translation_of: { slug: 'aurora' },
      subproject_of: null,
    });
    for (const hidden of ['_links', 'users', 'repository', 'active_versions', 'documentation_url'])
      expect(translation, hidden).not.toHaveProperty(hidden);
    const [subproject] = (await proxy.get('/api/v3/projects/aurora/subprojects/')).body.results;
    expect(subproject).toMatchObject({
      alias: 'plugins',
      child: { slug: 'aurora-plugins', urls: { documentation: expect.any(String) }, subproject_of: { slug: 'aurora' } },
    });
    expect(subproject).not.toHaveProperty('_links');
  });

  it('gives the version switcher everything for a page in one answer', async () => {
    const { status, body } = await proxy.get(`/api/v3/page-context/?url=${encodeURIComponent(page('installation.html#requirements'))}`);
    expect(status).toBe(200);
    expect(body.project.slug).toBe('aurora');
    expect(body.version.slug).toBe('latest');
    expect(body.path).toBe('installation.html');
    const slugs = body.versions.map((version: any) => version.slug);
    expect(slugs).toEqual(['latest', 'stable', '2.0', '1.0']);
    expect(slugs).not.toContain('next');
    expect(body.versions.find((version: any) => version.slug === '1.0').url).toBe(`${host.apiUrl}/en/1.0/installation.html`);
    expect(body.translations.map((translation: any) => [translation.language.code, translation.exists])).toEqual([
      ['en', true],
      ['es', true],
    ]);
    const onlyLatest = await proxy.get(`/api/v3/page-context/?url=${encodeURIComponent(page('tutorial/index.html'))}`);
    expect(onlyLatest.status).toBe(200);
    expect(body.version.status).toBe('dev');
    const statusOf = async (version: string) =>
      (await proxy.get(`/api/v3/page-context/?url=${encodeURIComponent(`${host.apiUrl}/en/${version}/installation.html`)}`)).body.version
        .status;
    expect([await statusOf('1.0'), await statusOf('2.0'), await statusOf('stable')]).toEqual(['old', null, null]);
  });
});

describe('HTTP behaviour', () => {
  it('answers 304 to a matching If-None-Match, and marks cache hits', async () => {
    const path = '/api/v3/search/?q=lease';
    const first = await proxy.get(path);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toMatch(/public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+/);
    const second = await proxy.get(path);
    expect(second.headers.get('x-doclens-cache')).toBe('hit');
    expect(second.text).toBe(first.text);
    const revalidated = await fetch(`${proxy.url}${path}`, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it('allows CORS for configured origins only', async () => {
    const allowed = await proxy.get('/api/v3/search/?q=lease', { origin: 'https://docs.example.org' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://docs.example.org');
    expect(allowed.headers.get('vary')).toContain('Origin');
    const other = await proxy.get('/api/v3/search/?q=lease', { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses other paths and methods with JSON 404 and 405, and forwards nothing else', async () => {
    for (const path of [
      '/api/v3/projects/',
      '/api/v3/projects/aurora/',
      '/api/v3/projects/aurora/builds/',
      '/api/v3/projects/aurora/environmentvariables/',
      '/api/v2/search/',
      '/api/v3/projects/aurora/versions/latest/',
      '/',
      '/../../etc/passwd',
    ]) {
      const { status, body } = await proxy.get(path);
      expect(status, path).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await fetch(`${proxy.url}/api/v3/projects/aurora/versions/`, {
        method,
        body: method === 'DELETE' ? undefined : '{}',
      });
      expect(response.status).toBe(405);
      expect((await response.json()).error.code).toBe('method_not_allowed');
    }
  });

  it('serves /healthz and Prometheus /metrics', async () => {
    expect((await proxy.get('/healthz')).body.status).toBe('ok');
    const metrics = await proxy.ops('/metrics');
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/doclens_http_request_duration_seconds_count\{route="\/api\/v3\/search\/",status_class="2xx"\} \d+/);
    expect(metrics.text).toMatch(/doclens_cache_lookups_total\{layer="memory",result="hit"\} \d+/);
    expect(metrics.text).toMatch(/doclens_upstream_duration_seconds_count\{outcome="ok"\} \d+/);
    expect(metrics.text).toContain('process_resident_memory_bytes');
    expect(metrics.text).toMatch(/^doclens_cache_max_bytes \d+$/m);
    // Every metric says what it is.
    const names = new Set([...metrics.text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]));
    const described = new Set([...metrics.text.matchAll(/^# HELP (\S+) \S/gm)].map((match) => match[1]));
    expect(names.size).toBeGreaterThan(10);
    expect([...names].filter((name) => !described.has(name))).toEqual([]);
  });

  it('never shows the token in a response or a log line', async () => {
    const bodies = await Promise.all(
      ['/api/v3/search/?q=x', '/metrics', '/healthz', embed('https://evil.example/'), '/nope'].map((path) => proxy.get(path)),
    );
    for (const { text, headers } of bodies) {
      expect(text).not.toContain(TOKEN);
      expect([...headers.values()].join(' ')).not.toContain(TOKEN);
    }
    expect(proxy.logs.length).toBeGreaterThan(10);
    expect(JSON.stringify(proxy.logs)).not.toContain(TOKEN);
    expect(proxy.logs.every((entry) => entry.msg === 'request' && typeof entry.status === 'number')).toBe(true);
  });
});

describe('API v2 upstream', () => {
  it('searches, embeds and lists versions through the public v2 endpoints, in v3 shapes', async () => {
    const v2 = await startTestProxy({ upstream: host.apiUrl, apiVersion: 'v2', token: 'unused-token', projects: ['aurora'] });
    try {
      const search = await v2.get('/api/v3/search/?q=scheduler');
      expect(search.status).toBe(200);
      expect(search.body.results[0].project).toMatchObject({ slug: 'aurora' });
      expect(search.body.results[0].version).toMatchObject({ slug: expect.any(String) });
      const section = await v2.get(embed(page('api/scheduler.html#aurora.Scheduler.add_job')));
      expect(section.status).toBe(200);
      expect(section.body.content).toContain('add_job');
      const versions = await v2.get('/api/v3/projects/aurora/versions/');
      expect(versions.body.results.map((version: any) => version.slug)).toContain('2.0');
      const context = await v2.get(`/api/v3/page-context/?url=${encodeURIComponent(page('installation.html'))}`);
      expect(context.status).toBe(200);
      expect(context.body.versions.find((version: any) => version.slug === '2.0').url).toBe(`${host.apiUrl}/en/2.0/installation.html`);
    } finally {
      await v2.close();
    }
  });
});
