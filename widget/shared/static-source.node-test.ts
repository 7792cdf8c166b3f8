import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStatic } from '../../static/build.ts';
import { serveFolders, type StaticFiles } from '../../test/static-files.ts';
import { ProxyRequestError } from './api.ts';
import { StaticSource } from './static-source.ts';

/** Resolves when `check` holds, asked again on each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

const demo = new URL('../../demo/docs/build/', import.meta.url).pathname;
let dir: string;
let server: StaticFiles;
let source: StaticSource;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doclens-static-'));
  // The demo's aurora as the hosting service lays it out, its Spanish translation beside it.
  cpSync(join(demo, 'aurora'), join(dir, 'docs'), { recursive: true });
  cpSync(join(demo, 'aurora-es/es'), join(dir, 'docs/es'), { recursive: true });
  // Pages moved elsewhere, as Sphinx's redirects leave them: one to the glossary, one to a term in it.
  const moved = (to: string) => `<html><head><meta http-equiv="refresh" content="0;URL=${to}"/></head><body>Moved.</body></html>`;
  mkdirSync(join(dir, 'docs/en/latest/generated'));
  writeFileSync(join(dir, 'docs/en/latest/generated/glossary.html'), moved('../glossary.html'));
  writeFileSync(join(dir, 'docs/en/latest/generated/trigger.html'), moved('../glossary.html#term-trigger'));
  await buildStatic({ docs: join(dir, 'docs') });
  server = await serveFolders({ '/': join(dir, 'docs') });
  source = new StaticSource(`${server.url}/_doclens/`);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('StaticSource', () => {
  it('gives the page context of a page: its versions and translations, each marked where the page is missing', async () => {
    const context = await source.pageContext({ url: `${server.url}/en/1.0/quickstart.html` });
    expect(context.version).toMatchObject({ slug: '1.0' });
    expect(context.path).toBe('quickstart.html');
    expect(context.versions.map((version) => [version.slug, version.current, version.exists])).toEqual([
      ['latest', false, true],
      ['2.0', false, true],
      ['1.0', true, true],
    ]);
    expect(context.versions[0]!.url).toBe(`${server.url}/en/latest/quickstart.html`);
    expect(context.translations.map((translation) => [translation.language.code, translation.url])).toEqual([
      ['en', `${server.url}/en/1.0/quickstart.html`],
      // The translation has no 1.0: its default version, where the page is looked for.
      ['es', `${server.url}/es/latest/quickstart.html`],
    ]);
    const latestOnly = await source.pageContext({ url: `${server.url}/en/latest/guides/async.html` });
    expect(latestOnly.versions.find((version) => version.slug === '1.0')).toMatchObject({
      exists: false,
      root_url: `${server.url}/en/1.0/`,
    });
  });

  it('previews the target a link names, its links pointing into the site', async () => {
    const preview = await source.preview(`${server.url}/en/latest/glossary.html#term-trigger`);
    expect(preview).toMatchObject({ fragment: 'term-trigger', external: false, missing_fragment: false });
    expect(preview.title).toMatch(/trigger/i);
    const api = await source.preview(`${server.url}/en/latest/api/scheduler.html#aurora.Scheduler`);
    expect(api.content).not.toContain('doclens.invalid');
    expect(api.content).toContain(`href="${server.url}/en/latest/`);
  });

  it('previews the page’s opening for a fragment the page lacks, and refuses a page outside the site', async () => {
    const preview = await source.preview(`${server.url}/en/latest/glossary.html#no-such-target`);
    expect(preview).toMatchObject({ title: 'Glossary', missing_fragment: true });
    await expect(source.preview('http://elsewhere.example/page.html')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(source.preview(`${server.url}/en/latest/no-page.html`)).rejects.toBeInstanceOf(ProxyRequestError);
  });

  it('previews a folder’s page linked without its slash, as a static server redirects it (MkDocs’ absolute links)', async () => {
    const withSlash = await source.preview(`${server.url}/en/latest/api/`);
    expect(await source.preview(`${server.url}/en/latest/api`)).toMatchObject({ title: withSlash.title, content: withSlash.content });
  });

  it('previews where a page that forwards the reader at once lands, at the fragment it forwards to', async () => {
    const glossary = await source.preview(`${server.url}/en/latest/glossary.html`);
    const moved = await source.preview(`${server.url}/en/latest/generated/glossary.html#anything`);
    expect(moved).toMatchObject({ title: glossary.title, content: glossary.content, fragment: null, missing_fragment: false });
    const term = await source.preview(`${server.url}/en/latest/generated/trigger.html`);
    expect(term).toMatchObject({ fragment: 'term-trigger', missing_fragment: false });
    expect(term.title).toMatch(/trigger/i);
    // Still a page of its version, for the switcher.
    const context = await source.pageContext({ url: `${server.url}/en/latest/generated/glossary.html` });
    expect(context.versions.find((version) => version.slug === 'latest')).toMatchObject({ exists: true });
  });

  it('tells, once the site’s files are read, that links off its pages cannot preview', async () => {
    const fresh = new StaticSource(`${server.url}/_doclens/`);
    // Nothing read yet: the link may preview, and the files are asked for.
    expect(fresh.mayPreview(`${server.url}/usr/share/doc/python3-doc/html/library/typing.html`)).toBe(true);
    await until(() => !fresh.mayPreview(`${server.url}/usr/share/doc/python3-doc/html/library/typing.html`));
    await until(() => !fresh.mayPreview(`${server.url}/en/latest/no-page.html`));
    expect(fresh.mayPreview('http://elsewhere.example/page.html')).toBe(false);
    for (const page of ['glossary.html#term-trigger', 'api', 'api/', ''])
      expect(fresh.mayPreview(`${server.url}/en/latest/${page}`), page).toBe(true);
  });

  it('reads each file once for the page’s life', async () => {
    const asked = server.requests.length;
    await source.preview(`${server.url}/en/latest/glossary.html#term-trigger`);
    await source.pageContext({ url: `${server.url}/en/1.0/quickstart.html` });
    expect(server.requests.length).toBe(asked);
  });
});
