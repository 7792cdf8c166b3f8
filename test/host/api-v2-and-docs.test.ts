import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadManifest } from '../../host/manifest.ts';
import { demoManifest } from '../fixtures/demo.ts';

let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ manifest: loadManifest(demoManifest), token: 'test-token-0123456789', port: 0 });
  // Searches here check complete results; answers while indexing are tested in host/search.test.ts.
  await host.searchComplete;
});
afterAll(() => host.close());

async function v2(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${host.apiUrl}/api/v2${path}`);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

describe('API v2 (public)', () => {
  it('finds projects by slug and id', async () => {
    const list = await v2('/project/?slug=aurora');
    expect(list.body.count).toBe(1);
    const project = list.body.results[0];
    expect(project).toMatchObject({ slug: 'aurora', language: 'en', programming_language: 'py', default_version: 'latest' });
    expect((await v2(`/project/${project.id}/`)).body.slug).toBe('aurora');
    expect((await v2('/project/999/')).status).toBe(404);
    expect((await v2('/project/abc/')).status).toBe(404);
  });

  it('lists active versions and versions', async () => {
    const { body } = await v2('/project/1/active_versions/');
    expect(body.versions.map((version: any) => version.slug)).toEqual(['latest', 'stable', '2.0', '1.0', 'next']);
    expect(body.versions[0].project.slug).toBe('aurora');
    const inactive = await v2('/version/?project__slug=aurora&active=false');
    expect(inactive.body.results.map((version: any) => version.slug)).toEqual(['0.9']);
    const one = inactive.body.results[0];
    expect((await v2(`/version/${one.id}/`)).body).toMatchObject({ slug: '0.9', built: false });
  });

  it('embeds sections with the page headings', async () => {
    const { status, body } = await v2('/embed/?project=aurora&version=latest&doc=installation&section=optional-extras');
    expect(status).toBe(200);
    expect(body.content).toHaveLength(1);
    expect(body.content[0]).toMatch(/^<section id="optional-extras">/);
    expect(body.headers[0]).toEqual({ Installation: '#' });
    expect(body.headers).toContainEqual({ 'Optional extras': '#optional-extras' });
    expect(body.meta).toEqual({ project: 'aurora', version: 'latest', doc: 'installation', section: 'optional-extras' });
    expect(body.url).toBe(`${host.apiUrl}/en/latest/installation.html`);
    const byUrl = await v2(`/embed/?url=${encodeURIComponent(`${host.apiUrl}/en/latest/installation.html#optional-extras`)}`);
    expect(byUrl.body.content[0]).toBe(body.content[0]);
    const unknownSection = await v2('/embed/?project=aurora&path=installation.html&section=nope');
    expect(unknownSection.body.content).toEqual([]);
    expect((await v2('/embed/?project=aurora')).status).toBe(400);
  });

  it('searches a project with its subprojects', async () => {
    const { status, body } = await v2('/search/?q=redis&project=aurora&version=latest');
    expect(status).toBe(200);
    const slugs = new Set(body.results.map((result: any) => result.project));
    expect(slugs.has('aurora-plugins')).toBe(true);
    const plugin = body.results.find((result: any) => result.project === 'aurora-plugins');
    expect(plugin).toMatchObject({ version: 'latest', project_alias: 'plugins' });
    expect((await v2('/search/?q=redis')).status).toBe(400);
    expect((await v2('/search/?q=redis&project=nope')).status).toBe(404);
  });

  it('is read-only', async () => {
    const response = await fetch(`${host.apiUrl}/api/v2/project/`, { method: 'DELETE' });
    expect(response.status).toBe(405);
  });
});

describe('documentation sites', () => {
  const page = (path: string, origin = host.apiUrl) => fetch(`${origin}${path}`, { redirect: 'manual' });

  it('redirects the root to the default version', async () => {
    const root = await page('/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/en/latest/');
    expect((await page('/projects/plugins/')).headers.get('location')).toBe('/projects/plugins/en/latest/');
  });

  it('serves pages with the hosting service meta tags', async () => {
    const response = await page('/en/2.0/guides/async.html');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<meta name="readthedocs-project-slug" content="aurora" />');
    expect(html).toContain('<meta name="readthedocs-version-slug" content="2.0" />');
    expect(html).toContain('<meta name="readthedocs-resolver-filename" content="/guides/async.html" />');
    expect(await (await page('/es/latest/')).text()).toContain('content="aurora-es"');
    expect(await (await page('/projects/plugins/en/latest/')).text()).toContain('content="aurora-plugins"');
  });

  it('serves pages only in the versions that have them', async () => {
    expect((await page('/en/1.0/guides/async.html')).status).toBe(404);
    expect((await page('/en/1.0/guides/legacy-workers.html')).status).toBe(200);
    expect((await page('/en/0.9/index.html')).status).toBe(404);
  });

  it('serves MkDocs directory URLs on the second site', async () => {
    const skyline = host.sites[1]!.origin;
    expect((await page('/en/latest/privacy/', skyline)).status).toBe(200);
    const bare = await page('/en/latest/privacy', skyline);
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/en/latest/privacy/');
    const notFound = await page('/en/latest/nothing/', skyline);
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toContain('readthedocs-http-status" content="404"');
  });

  it('serves static files with their types, and nothing outside the docs', async () => {
    const css = await page('/en/latest/_static/css/theme.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const svg = await page('/en/latest/_static/architecture.svg');
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    for (const path of [
      '/en/latest/../../manifest.json',
      '/en/latest/%2e%2e/%2e%2e/%2e%2e/manifest.json',
      '/en/latest/..%2f..%2f..%2fmanifest.json',
      '/en/latest/%00',
    ]) {
      expect((await page(path)).status).toBe(404);
    }
  });
});
