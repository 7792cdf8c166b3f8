import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadManifest } from '../../host/manifest.ts';
import { demoManifest } from '../fixtures/demo.ts';

const TOKEN = 'test-token-0123456789';
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ manifest: loadManifest(demoManifest), token: TOKEN, port: 0 });
  // Searches here check complete results; answers while indexing are tested in host/search.test.ts.
  await host.searchComplete;
});
afterAll(() => host.close());

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${host.apiUrl}${path}`, {
    ...init,
    headers: { authorization: `Token ${TOKEN}`, ...(init.headers as Record<string, string>) },
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

const docs = (path: string) => `${host.apiUrl}${path}`;

describe('authentication', () => {
  it('refuses requests without credentials (401) and with a wrong token (403)', async () => {
    expect(await api('/api/v3/projects/', { headers: { authorization: '' } })).toMatchObject({ status: 401 });
    const anonymous = await fetch(`${host.apiUrl}/api/v3/projects/`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(await api('/api/v3/projects/', { headers: { authorization: 'Token wrong' } })).toEqual({
      status: 403,
      body: { detail: 'Invalid token.' },
    });
  });

  it('accepts the token as a session cookie', async () => {
    const response = await fetch(`${host.apiUrl}/api/v3/projects/`, { headers: { cookie: `csrftoken=x; sessionid=${TOKEN}` } });
    expect(response.status).toBe(200);
  });
});

describe('projects', () => {
  it('lists projects with limit/offset pagination', async () => {
    const { status, body } = await api('/api/v3/projects/?limit=2');
    expect(status).toBe(200);
    expect(body.count).toBe(4);
    expect(body.results.map((project: any) => project.slug)).toEqual(['aurora', 'aurora-es']);
    expect(body.previous).toBeNull();
    const next = new URL(body.next);
    expect([next.searchParams.get('limit'), next.searchParams.get('offset')]).toEqual(['2', '2']);
    const page2 = await api(next.pathname + next.search);
    expect(page2.body.results.map((project: any) => project.slug)).toEqual(['aurora-plugins', 'skyline']);
    expect(page2.body.next).toBeNull();
    expect(page2.body.previous).toContain('offset=0');
  });

  it('filters projects', async () => {
    expect((await api('/api/v3/projects/?language=es')).body.results.map((p: any) => p.slug)).toEqual(['aurora-es']);
    expect((await api('/api/v3/projects/?programming_language=go')).body.results.map((p: any) => p.slug)).toEqual(['skyline']);
    expect((await api('/api/v3/projects/?slug=aurora')).body.count).toBe(1);
  });

  it('shows a project, with its active versions when expanded', async () => {
    const plain = await api('/api/v3/projects/aurora/');
    expect(plain.body).toMatchObject({
      slug: 'aurora',
      language: { code: 'en', name: 'English' },
      default_version: 'latest',
      subproject_of: null,
      translation_of: null,
      urls: { documentation: docs('/en/latest/') },
    });
    expect(plain.body.active_versions).toBeUndefined();
    const expanded = await api('/api/v3/projects/aurora/?expand=active_versions,active_versions.last_build');
    expect(Object.keys(expanded.body.active_versions)).toEqual(['latest', 'stable', '2.0', '1.0', 'next']);
    expect(expanded.body.active_versions.stable).toMatchObject({ ref: '2.0', type: 'tag', urls: { documentation: docs('/en/stable/') } });
    expect(expanded.body.active_versions.latest.last_build).toMatchObject({ success: true, state: { code: 'finished' } });
  });

  it('shows what a translation and a subproject belong to', async () => {
    expect((await api('/api/v3/projects/aurora-es/')).body).toMatchObject({
      translation_of: { slug: 'aurora' },
      urls: { documentation: docs('/es/latest/') },
    });
    expect((await api('/api/v3/projects/aurora-plugins/')).body).toMatchObject({
      subproject_of: { slug: 'aurora' },
      urls: { documentation: docs('/projects/plugins/en/latest/') },
    });
  });

  it('answers 404 for an unknown project', async () => {
    expect(await api('/api/v3/projects/nope/')).toEqual({ status: 404, body: { detail: 'Not found.' } });
  });
});

describe('versions, translations, subprojects', () => {
  it('lists versions with filters', async () => {
    const all = await api('/api/v3/projects/aurora/versions/');
    expect(all.body.count).toBe(6);
    expect((await api('/api/v3/projects/aurora/versions/?active=false')).body.results.map((v: any) => v.slug)).toEqual(['0.9']);
    expect((await api('/api/v3/projects/aurora/versions/?built=false')).body.results.map((v: any) => v.slug)).toEqual(['0.9']);
    expect((await api('/api/v3/projects/aurora/versions/?type=branch')).body.results.map((v: any) => v.slug)).toEqual(['latest', 'next']);
    expect((await api('/api/v3/projects/aurora/versions/?slug=2.0')).body.count).toBe(1);
    const bad = await api('/api/v3/projects/aurora/versions/?active=perhaps');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('active');
  });

  it('shows one version', async () => {
    expect((await api('/api/v3/projects/aurora/versions/next/')).body).toMatchObject({
      slug: 'next',
      hidden: true,
      active: true,
      built: true,
    });
    expect((await api('/api/v3/projects/aurora/versions/9.9/')).status).toBe(404);
  });

  it('lists translations and subprojects', async () => {
    expect((await api('/api/v3/projects/aurora/translations/')).body.results.map((p: any) => p.slug)).toEqual(['aurora-es']);
    const subprojects = await api('/api/v3/projects/aurora/subprojects/');
    expect(subprojects.body.results).toHaveLength(1);
    expect(subprojects.body.results[0]).toMatchObject({
      alias: 'plugins',
      child: { slug: 'aurora-plugins' },
      _links: { parent: '/api/v3/projects/aurora/' },
    });
    expect((await api('/api/v3/projects/aurora/subprojects/plugins/')).body.alias).toBe('plugins');
    expect((await api('/api/v3/projects/aurora/subprojects/other/')).status).toBe(404);
  });

  it('rejects malformed pagination parameters naming them', async () => {
    for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1000']) {
      const { status, body } = await api(`/api/v3/projects/?${query}`);
      expect(status).toBe(400);
      expect(Object.keys(body)).toEqual([query.split('=')[0]]);
    }
  });
});

describe('embed', () => {
  const embed = (params: Record<string, string>) => api(`/api/v3/embed/?${new URLSearchParams(params)}`);

  it('embeds a section with absolute links', async () => {
    const url = docs('/en/latest/glossary.html#term-lease');
    const { status, body } = await embed({ url, doctool: 'sphinx' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ url, fragment: 'term-lease', external: false });
    expect(body.content).toMatch(/^<dl class="simple glossary">/);
    expect(body.content).toContain(`href="${docs('/en/latest/glossary.html#term-lease')}"`);
  });

  it('embeds the main content of a page, of a subproject and of another version', async () => {
    expect((await embed({ url: docs('/projects/plugins/en/latest/redis-store.html') })).body.content).toContain('RedisStore');
    expect((await embed({ url: docs('/en/1.0/guides/legacy-workers.html#legacy-workers') })).body.content).toContain('LegacyWorker');
    expect((await embed({ url: docs('/es/latest/glossary.html#term-tarea') })).body.content).toContain('tarea');
  });

  it('embeds MkDocs pages on the second site', async () => {
    const skyline = host.sites[1]!.origin;
    const { status, body } = await embed({ url: `${skyline}/en/latest/privacy/#what-is-stored` });
    expect(status).toBe(200);
    expect(body.content).toMatch(/^<h2 id="what-is-stored">/);
  });

  it('answers with the hosting service error bodies', async () => {
    expect(await embed({})).toEqual({ status: 400, body: { error: 'Invalid arguments. Please provide "url".' } });
    expect(await embed({ url: 'https:///page.html#title' })).toEqual({
      status: 400,
      body: { error: 'The URL requested is malformed. url=https:///page.html#title' },
    });
    expect(await embed({ url: 'not a url' })).toMatchObject({ status: 400 });
    expect(await embed({ url: 'https://docs.example.com/en/latest/' })).toEqual({
      status: 400,
      body: { error: 'External domain not allowed. domain=docs.example.com' },
    });
    const missing = docs('/en/latest/index.html#does-not-exist');
    expect(await embed({ url: missing })).toEqual({
      status: 404,
      body: { error: `Can't find content for section: url=${missing} fragment=does-not-exist maincontent=None` },
    });
    expect((await embed({ url: docs('/en/latest/no-such-page.html') })).status).toBe(404);
    expect((await embed({ url: docs('/en/9.9/index.html') })).status).toBe(404);
    expect((await embed({ url: docs('/en/latest/'), maincontent: 'div[' })).status).toBe(400);
  });

  it('runs only simple maincontent selectors: one with a costly pseudo-class is refused instead of stopping the host', async () => {
    for (const maincontent of ['*:has(~ * ~ * ~ * ~ * ~ *)', 'div:not(.x) p', 'h1 ~ *', 'a, b'])
      expect(await embed({ url: docs('/en/latest/'), maincontent }), maincontent).toEqual({
        status: 400,
        body: { error: `"maincontent" is not a valid CSS selector. maincontent=${maincontent}` },
      });
    const simple = await embed({ url: docs('/en/latest/'), maincontent: '[role="main"] section#aurora' });
    expect(simple.status).toBe(200);
    expect(simple.body.content).toMatch(/^<section id="aurora"/);
  });

  it('refuses paths that leave the documentation folder', async () => {
    for (const path of [
      '/en/latest/../../../../etc/passwd',
      '/en/latest/%2e%2e/%2e%2e/manifest.json',
      '/en/latest/..%2f..%2fmanifest.json',
    ]) {
      expect((await embed({ url: docs(path) })).status).toBe(404);
    }
  });
});

describe('search', () => {
  const search = (q: string, extra = '') => api(`/api/v3/search/?q=${encodeURIComponent(q)}${extra}`);

  it('returns page results with section blocks and escaped highlights', async () => {
    const { status, body } = await search('project:aurora lease timeout');
    expect(status).toBe(200);
    expect(body.query).toBe('lease timeout');
    expect(body.projects).toEqual([{ slug: 'aurora', versions: [{ slug: 'latest' }] }]);
    const first = body.results[0];
    expect(first).toMatchObject({
      type: 'page',
      project: { slug: 'aurora', alias: null },
      version: { slug: 'latest' },
      title: 'Configuration',
      domain: host.apiUrl,
      path: '/en/latest/guides/configuration.html',
    });
    expect(first.blocks[0]).toMatchObject({ type: 'domain', role: 'std:confval', id: 'confval-lease_timeout', name: 'lease_timeout' });
    expect(first.blocks[0].highlights.content.join(' ')).toMatch(/<span>lease<\/span>/i);
    expect(body.count).toBe(body.results.length);
  });

  it('searches the version a project term names', async () => {
    const { body } = await search('project:aurora/1.0 legacy worker');
    expect(body.results[0]).toMatchObject({ version: { slug: '1.0' }, path: '/en/1.0/guides/legacy-workers.html' });
    expect(
      (await search('project:aurora legacy worker')).body.results.every((r: any) => r.path !== '/en/latest/guides/legacy-workers.html'),
    ).toBe(true);
  });

  it('includes subprojects only when asked', async () => {
    const alone = await search('project:aurora RedisStore');
    expect(alone.body.results.some((r: any) => r.project.slug === 'aurora-plugins')).toBe(false);
    const withSubprojects = await search('subprojects:aurora RedisStore');
    expect(withSubprojects.body.results[0]).toMatchObject({
      project: { slug: 'aurora-plugins', alias: 'plugins' },
      path: '/projects/plugins/en/latest/redis-store.html',
    });
    expect(withSubprojects.body.projects.map((p: any) => p.slug)).toEqual(['aurora', 'aurora-plugins']);
  });

  it('pages through results', async () => {
    const first = await search('project:aurora job', '&page_size=2');
    expect(first.body.results).toHaveLength(2);
    expect(first.body.count).toBeGreaterThan(2);
    const next = new URL(first.body.next);
    expect(next.searchParams.get('page')).toBe('2');
    const second = await api(next.pathname + next.search);
    expect(second.body.results[0].path).not.toBe(first.body.results[0].path);
    expect(second.body.previous).toContain('page=1');
    // Each page holds the results at its place in the whole list, and every page says how many there are in all.
    const all = await search('project:aurora job', '&page_size=100');
    expect(all.body.count).toBe(first.body.count);
    expect(second.body.count).toBe(first.body.count);
    expect([...first.body.results, ...second.body.results].map((result: any) => result.path)).toEqual(
      all.body.results.slice(0, 4).map((result: any) => result.path),
    );
    expect((await search('project:aurora job', '&page=999')).status).toBe(404);
  });

  it('rejects malformed parameters naming them', async () => {
    expect(await api('/api/v3/search/')).toMatchObject({ status: 400, body: { q: expect.any(Array) } });
    for (const [extra, name] of [
      ['&page=0', 'page'],
      ['&page=x', 'page'],
      ['&page_size=0', 'page_size'],
      ['&page_size=500', 'page_size'],
    ] as const) {
      const { status, body } = await search('job', extra);
      expect(status).toBe(400);
      expect(Object.keys(body)).toEqual([name]);
    }
    expect((await api('/api/v3/search/?q=a&q=b')).status).toBe(400);
  });

  it('answers long and odd queries without failing', async () => {
    expect((await search('x'.repeat(1000))).status).toBe(200);
    expect((await search(`${'scheduler '.repeat(99)}job`)).status).toBe(200);
    expect((await search('y'.repeat(1001))).status).toBe(400);
    for (const q of [
      '🚀 planificador',
      'מתזמן',
      'e\u0301\u0301\u0301',
      '\u200b\u200e\ufeff',
      '"<script>alert(1)</script>"',
      'project:',
      'user:@me job',
    ]) {
      expect((await search(q)).status).toBe(200);
    }
    const raw = await fetch(`${host.apiUrl}/api/v3/search/?q=%ED%A0%80%FF`, { headers: { authorization: `Token ${TOKEN}` } });
    expect(raw.status).toBeLessThan(500);
  });

  it('finds words with a typo and by prefix', async () => {
    // Two swapped letters are one edit, fewer than to "return": the typo ranks as the word it stands for (the
    // configuration's section "Retries", then the guide on retries), not as a word of its own.
    const paths = async (q: string) => (await search(q)).body.results.slice(0, 3).map((result: { path: string }) => result.path);
    const typed = await paths('project:aurora retires');
    expect(typed).toEqual(await paths('project:aurora retries'));
    expect(typed).toContain('/en/latest/tutorial/retries.html');
    expect((await search('project:aurora obser')).body.results[0].path).toBe('/en/latest/guides/observability.html');
  });
});

describe('everything else', () => {
  it('refuses writes with 405 and unknown endpoints with 404, as JSON', async () => {
    expect(await api('/api/v3/projects/', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).toMatchObject({
      status: 405,
    });
    expect(await api('/api/v3/projects/aurora/', { method: 'PATCH' })).toMatchObject({ status: 405 });
    expect(await api('/api/v3/projects/aurora/versions/latest/builds/', { method: 'POST' })).toMatchObject({ status: 405 });
    expect(await api('/api/v3/projects/aurora/environmentvariables/')).toEqual({ status: 404, body: { detail: 'Not found.' } });
    expect(await api('/api/v1/project/')).toMatchObject({ status: 404 });
  });
});
