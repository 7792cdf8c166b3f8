import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildHelp, runBuild } from '../cli/build.ts';
import { UsageError } from '../cli/args.ts';
import type { StaticPageList, StaticPreviewFile, StaticPreviews, StaticSiteFile } from '../contract/index.ts';
import { buildStatic, NotABuiltSiteError } from './build.ts';
import { siteNameOf } from './site.ts';

const demo = new URL('../demo/docs/build/', import.meta.url).pathname;
let dir: string;

/** A site as the hosting service serves it: /en/<version>/ folders of aurora, and its Spanish translation at /es/latest/. */
function layoutSite(): string {
  const site = join(dir, 'aurora');
  cpSync(join(demo, 'aurora'), site, { recursive: true });
  cpSync(join(demo, 'aurora-es/es'), join(site, 'es'), { recursive: true });
  return site;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doclens-build-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('doclens build', () => {
  it('writes the versions and translations in the switcher order, with each version’s pages', async () => {
    const site = layoutSite();
    const summary = await buildStatic({ docs: site });
    expect(summary.out).toBe(join(site, '_doclens'));
    const data = readJson<StaticSiteFile>(join(site, '_doclens/site.json'));
    expect(data.root).toBe('../');
    const [main, spanish] = data.projects;
    expect(main!.versions.map((version) => [version.slug, version.path, version.status])).toEqual([
      // Without a manifest nothing tells which release `latest` stands beside: no version is marked old.
      ['latest', 'en/latest/', null],
      ['2.0', 'en/2.0/', null],
      ['1.0', 'en/1.0/', null],
    ]);
    expect(main!.default_version).toBe('latest');
    expect(spanish).toMatchObject({
      translation_of: main!.slug,
      language: { code: 'es' },
      versions: [{ slug: 'latest', path: 'es/latest/' }],
    });
    const pages = readJson<StaticPageList>(join(site, '_doclens', main!.versions[2]!.data, 'pages.json')).pages;
    expect(pages).toContain('quickstart.html');
    expect(pages).toContain('api/scheduler.html');
    expect(summary.pages).toBe(readdirSync(site, { recursive: true }).filter((name) => String(name).endsWith('.html')).length);
  });

  it('writes the preview of every target the site links to, links under the origin the widget replaces', async () => {
    const site = layoutSite();
    await buildStatic({ docs: site });
    const data = readJson<StaticSiteFile>(join(site, '_doclens/site.json'));
    const file = readJson<StaticPreviewFile>(join(site, '_doclens/data/en/latest/previews/glossary.html.json'));
    // quickstart.html links to glossary.html#term-trigger: the term's definition is its preview.
    expect(file.previews['term-trigger']!.title).toMatch(/trigger/i);
    expect(file.previews['term-trigger']!.content).toMatch(/<d[ld]|<p/);
    expect(file.previews['']!.title).toBe('Glossary');
    const scheduler = readJson<StaticPreviewFile>(join(site, '_doclens/data/en/latest/previews/api/scheduler.html.json'));
    const links = [...JSON.stringify(scheduler.previews).matchAll(/href=\\"([^"\\]+)/g)].map(([, href]) => href!);
    expect(links.filter((href) => href.startsWith(data.origin))).not.toHaveLength(0);
    expect(links.every((href) => !href.startsWith('http') || href.startsWith(data.origin) || !href.includes('aurora'))).toBe(true);
  });

  it('writes a page with many targets in parts, each found from the first fragment it holds', async () => {
    const site = join(dir, 'site');
    const entries = Array.from(
      { length: 400 },
      (_, i) => `<dt id="entry-${String(i).padStart(3, '0')}">entry ${i}</dt><dd><p>${'words '.repeat(60)}${i}</p></dd>`,
    );
    const links = entries.map((_, i) => `<a href="api.html#entry-${String(i).padStart(3, '0')}">e</a>`).join('');
    cpSync(join(demo, 'skyline/en/latest'), site, { recursive: true });
    writeFileSync(
      join(site, 'api.html'),
      `<html><head><title>API</title></head><body><main><h1>API</h1><dl>${entries.join('')}</dl></main></body></html>`,
    );
    writeFileSync(
      join(site, 'links.html'),
      `<html><head><title>Links</title></head><body><main><h1>Links</h1><p>${links}</p></main></body></html>`,
    );
    await buildStatic({ docs: site });
    const main = readJson<StaticPreviewFile>(join(site, '_doclens/data/previews/api.html.json'));
    expect(Object.keys(main.previews)).toEqual(['']);
    expect(main.parts!.length).toBeGreaterThan(1);
    const last = main.parts!.length - 1;
    const part = readJson<StaticPreviews>(join(site, `_doclens/data/previews/api.html.${last}.json`));
    expect(Object.keys(part)[0]).toBe(main.parts![last]);
    expect(part['entry-399']!.content).toContain('399');
  });

  it('reads each page once where its own links name its targets, again where another page’s link names one', async () => {
    const site = join(dir, 'site');
    mkdirSync(site);
    const page = (title: string, body: string) =>
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    const section = (id: string, text: string) => `<section id="${id}"><h2>${id}</h2><p>${text}</p></section>`;
    // Each page's table of contents links to a section of its own; the guide links to one of the API's too.
    writeFileSync(
      join(site, 'api.html'),
      page('API', `<p><a href="#run">run</a></p>${section('run', 'Runs a job.')}${section('stop', 'Stops it.')}`),
    );
    const guide = (links: string) => page('Guide', `<p><a href="#start">start</a>${links}</p>${section('start', 'Start here.')}`);
    writeFileSync(join(site, 'guide.html'), guide(''));
    const phases = async () => {
      const totals = new Map<string, number>();
      await buildStatic({ docs: site }, ({ phase, total }) => totals.set(phase, total));
      return totals;
    };
    expect(await phases()).toEqual(new Map([['pages', 2]]));
    const previews = (file: string) => readJson<StaticPreviewFile>(join(site, '_doclens/data/previews', file)).previews;
    expect(Object.keys(previews('api.html.json'))).toEqual(['', 'run']);

    writeFileSync(join(site, 'guide.html'), guide(' <a href="api.html#stop">stop</a>'));
    // The API's page, read before or beside the guide, is read again for the target the guide names.
    expect(await phases()).toEqual(
      new Map([
        ['pages', 2],
        ['previews', 1],
      ]),
    );
    expect(Object.keys(previews('api.html.json')).sort()).toEqual(['', 'run', 'stop']);
    expect(previews('api.html.json').stop!.content).toContain('Stops it.');
    expect(Object.keys(previews('guide.html.json'))).toEqual(['', 'start']);
  });

  it('previews and tags the pages the site links to in folders the listing skips, searches them not, and stays in the site', async () => {
    const site = join(dir, 'site');
    mkdirSync(join(site, '_modules/pkg'), { recursive: true });
    mkdirSync(join(site, '_doclens'));
    const page = (title: string, body: string) =>
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    const code = (id: string, name: string, back: string) =>
      `<div class="highlight"><pre><div class="viewcode-block" id="${id}"><a class="viewcode-back" href="${back}">[docs]</a>` +
      `<span class="k">def</span> <span class="nf">${name}</span>():\n    return 42\n</div></pre></div>`;
    writeFileSync(
      join(site, 'api.html'),
      page(
        'API',
        '<dl><dt id="pkg.run">run()<a href="_modules/pkg/core.html#run">[source]</a></dt><dd><p>Runs.</p></dd></dl>' +
          '<p><a href="_modules/outside.html#leak">out</a> <a href="_doclens/old.html#own">own</a> ' +
          '<a href="_modules/pkg/%2E%2E%2F%2E%2E%2F..%2Fsecret.html#up">up</a> <a href="_modules/missing.html#gone">gone</a></p>',
      ),
    );
    writeFileSync(
      join(site, '_modules/pkg/core.html'),
      page('pkg.core', `${code('run', 'run', '../../api.html#pkg.run')}<a href="helpers.html#helper">helper</a>`),
    );
    // Linked only from the source page above: one of the site's pages all the same.
    writeFileSync(join(site, '_modules/pkg/helpers.html'), page('pkg.helpers', code('helper', 'helper', '../../api.html')));
    // Never linked: left alone.
    writeFileSync(join(site, '_modules/pkg/unlinked.html'), page('pkg.unlinked', code('x', 'x', '../../api.html')));
    const secret = page('Secret', '<p id="leak">secret</p><p id="up">secret</p>');
    writeFileSync(join(dir, 'secret.html'), secret);
    symlinkSync(join(dir, 'secret.html'), join(site, '_modules/outside.html'));
    writeFileSync(join(site, '_doclens/old.html'), page('Old', '<p id="own">old</p>'));

    const summary = await buildStatic({ docs: site, inject: true });
    expect(readJson<StaticPageList>(join(site, '_doclens/data/pages.json')).pages).toEqual([
      'api.html',
      '_modules/pkg/core.html',
      '_modules/pkg/helpers.html',
    ]);
    const previews = (file: string) => readJson<StaticPreviewFile>(join(site, '_doclens/data/previews', `${file}.json`)).previews;
    expect(previews('_modules/pkg/core.html').run).toMatchObject({ title: expect.stringContaining('run') });
    expect(previews('_modules/pkg/core.html').run!.content).toContain('return 42');
    expect(previews('_modules/pkg/helpers.html').helper!.content).toContain('helper');
    // The source page's [docs] link names a target of the API's page, read again for it.
    expect(Object.keys(previews('api.html'))).toContain('pkg.run');
    expect(existsSync(join(site, '_doclens/data/previews/_modules/pkg/unlinked.html.json'))).toBe(false);
    expect(summary.injected).toBe(3);
    for (const file of ['_modules/pkg/core.html', '_modules/pkg/helpers.html'])
      expect(readFileSync(join(site, file), 'utf8')).toMatch(/<script type="module" src="..\/..\/_doclens\/doclens.js" data-static/);
    expect(readFileSync(join(site, '_modules/pkg/unlinked.html'), 'utf8')).not.toContain('data-static');
    expect(readFileSync(join(dir, 'secret.html'), 'utf8')).toBe(secret);
    // The search indexes the pages the host indexes: the listing's.
    const search = readdirSync(join(site, '_doclens/data/search')).map((part) =>
      gunzipSync(readFileSync(join(site, '_doclens/data/search', part))).toString(),
    );
    expect(search.join('')).toContain('api.html');
    expect(search.join('')).not.toContain('_modules');
  });

  it('writes no previews for a page that forwards the reader at once to another page, listed with where it lands', async () => {
    const site = join(dir, 'site');
    mkdirSync(join(site, 'generated'), { recursive: true });
    const page = (title: string, head: string, body: string) =>
      `<html><head><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    const refresh = (content: string) => `<meta http-equiv="Refresh" content="${content}"/>`;
    const stub = (content: string) => page('Moved', refresh(content), '<p>The page has been moved to <a href="#">this page</a>.</p>');
    writeFileSync(
      join(site, 'index.html'),
      page(
        'Home',
        '',
        '<p><a href="generated/x.html#top">x</a> <a href="generated/later.html#top">later</a> <a href="target.html#run">run</a></p>',
      ),
    );
    writeFileSync(join(site, 'target.html'), page('Target', '', '<p id="run">Runs.</p><p id="stop">Stops.</p>'));
    writeFileSync(join(site, 'generated/x.html'), stub('0;URL=../target.html'));
    // A chain of two, with a fragment, after a comma and in quotes.
    writeFileSync(join(site, 'generated/chain.html'), stub("0, url = 'x.html'"));
    writeFileSync(join(site, 'generated/fragment.html'), stub('0; url=&quot;../target.html#stop&quot;'));
    // Left with their own previews: a delay, a missing page, a loop, another site, itself.
    writeFileSync(join(site, 'generated/later.html'), stub('5; url=../target.html'));
    writeFileSync(join(site, 'generated/missing.html'), stub('0; url=../gone.html'));
    writeFileSync(join(site, 'generated/loop-a.html'), stub('0; url=loop-b.html'));
    writeFileSync(join(site, 'generated/loop-b.html'), stub('0; url=loop-a.html'));
    writeFileSync(join(site, 'generated/away.html'), stub('0; url=https://example.org/'));
    writeFileSync(join(site, 'generated/self.html'), stub('0'));

    const summary = await buildStatic({ docs: site });
    const list = readJson<StaticPageList>(join(site, '_doclens/data/pages.json'));
    // Still pages of the version: the switcher marks them as there.
    expect(list.pages).toContain('generated/x.html');
    expect(list.forwards).toEqual({
      'generated/x.html': 'target.html',
      'generated/chain.html': 'target.html',
      'generated/fragment.html': 'target.html#stop',
    });
    const previews = (file: string) => join(site, '_doclens/data/previews', `${file}.json`);
    for (const file of ['x', 'chain', 'fragment']) expect(existsSync(previews(`generated/${file}.html`))).toBe(false);
    for (const file of ['later', 'missing', 'loop-a', 'loop-b', 'away', 'self'])
      expect(readJson<StaticPreviewFile>(previews(`generated/${file}.html`)).previews['']!.content).toContain('moved');
    // The fragment forwarded to is previewed as one a link points to.
    expect(Object.keys(readJson<StaticPreviewFile>(previews('target.html')).previews).sort()).toEqual(['', 'run', 'stop']);
    expect(summary.pages).toBe(11);
  });

  it('writes the tag into every page once, however often it runs, relative to each page', async () => {
    const site = layoutSite();
    const first = await buildStatic({ docs: site, inject: true });
    const again = await buildStatic({ docs: site, inject: true });
    expect(first.injected).toBe(first.pages);
    expect(again.injected).toBe(0);
    const nested = readFileSync(join(site, 'en/latest/api/scheduler.html'), 'utf8');
    expect(nested.match(/<script[^>]*data-static/g)).toEqual(['<script type="module" src="../../../_doclens/doclens.js" data-static']);
    expect(nested.indexOf('data-static')).toBeLessThan(nested.indexOf('</head>'));
    expect(existsSync(join(site, '_doclens/doclens.js'))).toBe(true);
  });

  it('reads a site of one folder whose folders have names like language codes as one folder (Django’s ref/)', async () => {
    const site = join(dir, 'site');
    cpSync(join(demo, 'skyline/en/latest'), site, { recursive: true });
    cpSync(join(demo, 'skyline/en/latest'), join(site, 'ref/models'), { recursive: true });
    writeFileSync(join(site, 'about.html'), '<html><head><title>About</title></head><body><main><h1>About</h1></main></body></html>');
    await buildStatic({ docs: site });
    const data = readJson<StaticSiteFile>(join(site, '_doclens/site.json'));
    expect(data.projects.map((project) => project.versions.map((version) => version.path))).toEqual([['']]);
    expect(readJson<StaticPageList>(join(site, '_doclens/data/pages.json')).pages).toContain('ref/models/index.html');
  });

  it('names a site no manifest names as its pages’ titles do, after its folder only when they say nothing', async () => {
    // Debian's folders of built documentation are all named html.
    const sphinx = join(dir, 'sphinx/html');
    cpSync(join(demo, 'aurora/en/latest'), sphinx, { recursive: true });
    await buildStatic({ docs: sphinx });
    expect(readJson<StaticSiteFile>(join(sphinx, '_doclens/site.json')).projects.map((project) => project.name)).toEqual(['Aurora']);
    const untitled = join(dir, 'untitled');
    mkdirSync(untitled);
    for (const title of ['One', 'Two'])
      writeFileSync(
        join(untitled, `${title}.html`),
        `<html><head><title>${title}</title></head><body><main><h1>${title}</h1></main></body></html>`,
      );
    await buildStatic({ docs: untitled });
    expect(readJson<StaticSiteFile>(join(untitled, '_doclens/site.json')).projects.map((project) => project.name)).toEqual(['untitled']);
  });

  it('reads a site’s name from the ending its pages’ titles share, less its version and the word documentation', () => {
    const named = (suffix: string) => siteNameOf(['Install', 'Tutorial', 'API'].map((title) => `${title}${suffix}`));
    expect(named(' — pandas 1.5.3 documentation')).toBe('pandas');
    expect(named(' — Flask Documentation (2.2.x)')).toBe('Flask');
    expect(named(' — Hypothesis 6.x documentation')).toBe('Hypothesis');
    expect(named(' - Node.js API')).toBe('Node.js API');
    expect(named(' | Documentation')).toBe('Documentation');
    expect(named('')).toBeUndefined();
  });

  it('refuses a folder that is not a built site, and writes nothing', async () => {
    writeFileSync(join(dir, 'conf.py'), '');
    await expect(buildStatic({ docs: dir })).rejects.toThrow(/not a built documentation site.*conf\.py/);
    await expect(buildStatic({ docs: join(dir, 'missing') })).rejects.toBeInstanceOf(NotABuiltSiteError);
    expect(readdirSync(dir)).toEqual(['conf.py']);
  });

  it('leaves the earlier files in place when a build fails half way', async () => {
    const site = layoutSite();
    await buildStatic({ docs: site });
    const before = readFileSync(join(site, '_doclens/site.json'), 'utf8');
    const failing = buildStatic({ docs: site }, ({ phase, done }) => {
      if (phase === 'pages' && done === 3) throw new Error('disk full');
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(readFileSync(join(site, '_doclens/site.json'), 'utf8')).toBe(before);
    expect(readdirSync(site).filter((name) => name.startsWith('.doclens'))).toEqual([]);
  });
});

describe('doclens build (command)', () => {
  const io = (tty: boolean) => {
    const written = { stdout: '', stderr: '' };
    return {
      written,
      io: {
        stdout: { write: (text: string) => (written.stdout += text) },
        stderr: { isTTY: tty, write: (text: string) => (written.stderr += text) },
        env: {},
      },
    };
  };

  it('prints one summary line, and progress on a terminal only', async () => {
    const site = layoutSite();
    const plain = io(false);
    await runBuild(['--docs', site, '--inject'], plain.io);
    expect(plain.written.stderr).toBe('');
    const summary =
      /^doclens build: \d+ pages, \d+ sections, \d+ previews, [\d.]+ [KM]B in .*_doclens, [\d.]+ s, the tag written into \d+ pages;/;
    expect(plain.written.stdout).toMatch(summary);
    expect(plain.written.stdout).toMatch(/; the search code a reader fetches: \d+ KB gzip\n$/);
    const terminal = io(true);
    await runBuild(['--docs', site, '--out', join(dir, 'out')], terminal.io);
    expect(terminal.written.stderr).toMatch(/\d+\/\d+ pages indexed and previewed/);
    expect(existsSync(join(dir, 'out/site.json'))).toBe(true);
  });

  it('shows its help, and says what is missing', async () => {
    const help = io(false);
    await runBuild(['--help'], help.io);
    expect(help.written.stdout).toBe(buildHelp);
    await expect(runBuild([], io(false).io)).rejects.toBeInstanceOf(UsageError);
  });
});
