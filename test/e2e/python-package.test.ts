import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { parseConfig } from '../../proxy/config.ts';
import { startProxy, type RunningProxy } from '../../proxy/server.ts';
import { createLogger } from '../../proxy/http/log.ts';
import { loaderDataAttributes } from '../fixtures/loader-attributes.ts';
import { SECOND_PAGE_WORDS, writeMkDocsSite, writeSphinxSite } from '../fixtures/tiny-sites.ts';
import { serveFolders } from '../static-files.ts';
import { expectWidgetWorks, launchChromium, searchByKeyboard } from './browser.ts';

/**
 * The Python package for documentation authors (python/ in this repository, the distribution
 * sphinx-doclens): pip-installed as the README says before a release, from the Git repository (a local
 * clone of this checkout's last commit, `git+file://…#subdirectory=python`), into a fresh virtual
 * environment that sees Debian's Sphinx and MkDocs; then a small Sphinx site and a small MkDocs site
 * built with it, the widget searched on their pages through a proxy. Its wheel and sdist, as the
 * release workflow builds them, and Debian's own `sphinx-build` are checked too.
 */
const checkout = fileURLToPath(new URL('../../', import.meta.url));
const pythonPackage = join(checkout, 'python');
const doclensCli = join(checkout, 'bin/doclens.js');
const { version } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { version: string };
const TOKEN = 'python-package-token-7d2e';

/** An intersphinx inventory of another project's docs, read from a file: the build reads no network. */
function writeInventory(path: string): void {
  const header =
    '# Sphinx inventory version 2\n# Project: Requests\n# Version: 2\n# The remainder of this file is compressed using zlib.\n';
  writeFileSync(path, Buffer.concat([Buffer.from(header), deflateSync('requests.get py:function 1 api.html#$ -\n')]));
}

let work: string;
let python: string;
/** A copy of python/ to build from, as the checkout should not gain build folders; LICENSE (a link) as a file. */
let pythonSource: string;
let browser: Browser;
const running: { close(): Promise<void> }[] = [];

/** A fresh virtual environment that sees Debian's packages (Sphinx, MkDocs, setuptools, wheel); its python. */
function venv(name: string): string {
  // Without a pip of its own (ensurepip takes seconds): Debian's, seen through the system's site packages, installs into it.
  execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(work, name)]);
  return join(work, name, 'bin/python');
}

/** `pip install` offline: built with the setuptools and wheel the environment has, as the README says. */
function pipInstall(venvPython: string, what: string, env: NodeJS.ProcessEnv = process.env, extra: string[] = []): void {
  execFileSync(venvPython, ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', ...extra, what], {
    stdio: 'pipe',
    env,
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'doclens-python-'));
  const clone = join(work, 'clone');
  // A whole clone: pip clones it again without blobs (--filter=blob:none), which from a shallow one fetches without end.
  execFileSync('git', ['clone', '--quiet', `file://${checkout}`, clone]);
  pythonSource = join(work, 'python-source');
  cpSync(pythonPackage, pythonSource, { recursive: true, dereference: true });
  python = venv('venv');
  // The README's `sphinx-doclens @ git+https://…` form; pip 23 refuses it with a `file:///` URL (no host), not bare.
  pipInstall(python, `git+file://${clone}#subdirectory=python`);
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(running.map((server) => server.close()));
  rmSync(work, { recursive: true, force: true });
});

function build(tool: 'sphinx' | 'mkdocs', src: string, out: string) {
  const args =
    tool === 'sphinx'
      ? ['-m', 'sphinx', '-q', '-b', 'html', src, out]
      : ['-m', 'mkdocs', 'build', '-q', '-f', join(src, 'mkdocs.yml'), '-d', out];
  // The static mode runs `doclens build`: this checkout's.
  const env = { ...process.env, NO_COLOR: '1', DOCLENS_COMMAND: `${process.execPath} ${doclensCli}` };
  return spawnSync(python, args, { encoding: 'utf8', env });
}

/**
 * Builds a site whose tag names the proxy, then serves it: the proxy (and so its address) comes
 * first, in front of a host that is restarted on the same port once the pages exist, as the host
 * indexes a folder's pages when it starts.
 */
async function buildAndServe(
  project: string,
  site: (proxyUrl: string, out: string) => void,
): Promise<{ host: RunningHost; proxy: RunningProxy; out: string }> {
  const out = join(work, `${project}-out`);
  mkdirSync(out, { recursive: true });
  const manifest = singleFolderManifest({ docs: out, project, version: 'latest', language: 'en' });
  const placeholder = await startHost({ manifest, token: TOKEN, port: 0 });
  const proxy = await startProxy(
    parseConfig({
      upstream: placeholder.apiUrl,
      token: TOKEN,
      projects: [project],
      allowPrivateNetwork: true,
      corsOrigins: [placeholder.apiUrl],
      port: 0,
    }),
    { logger: createLogger('silent') },
  );
  running.push(proxy);
  site(proxy.url, out);
  await placeholder.close();
  const host = await startHost({ manifest, token: TOKEN, port: Number(new URL(placeholder.apiUrl).port) });
  running.push(host);
  await host.searchComplete;
  return { host, proxy, out };
}

function htmlFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.html'));
}

/** The attributes of the loader's tag in a page (its one `<script … data-proxy>`). */
function loaderTags(html: string): Record<string, string>[] {
  return [...html.matchAll(/<script\b([^>]*\bdata-proxy=[^>]*)>/g)].map((tag) =>
    Object.fromEntries([...tag[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((attribute) => [attribute[1]!, attribute[2]!])),
  );
}

describe('the settings', () => {
  it('write exactly the data- attributes the loader reads, each from one setting', () => {
    const written = JSON.parse(
      execFileSync(
        python,
        ['-c', 'import json; from sphinx_doclens.settings import SETTINGS; print(json.dumps([s.attribute for s in SETTINGS]))'],
        {
          encoding: 'utf8',
        },
      ),
    ) as string[];
    expect(new Set(written).size).toBe(written.length);
    expect(new Set(written)).toEqual(loaderDataAttributes());
  });
});

describe('Sphinx: extensions = ["sphinx_doclens"]', () => {
  it('puts the tag on every page, previews the intersphinx hosts, and the widget searches', async () => {
    const { host, proxy, out } = await buildAndServe('tiny-sphinx', (proxyUrl, out) => {
      const src = join(work, 'sphinx-src');
      const inventory = join(work, 'requests.inv');
      writeInventory(inventory);
      writeSphinxSite(
        src,
        `extensions = ["sphinx_doclens", "sphinx.ext.intersphinx"]
doclens_proxy = "${proxyUrl}"
doclens_features = ["search", "preview", "versions"]
doclens_preview_domains = ["docs.example.org"]
doclens_preview_intersphinx = True
doclens_notice = "all"
intersphinx_mapping = {"requests": ("https://requests.readthedocs.io/en/latest/", "${inventory}")}
`,
      );
      const result = build('sphinx', src, out);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    });
    const pages = htmlFiles(out);
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'other.html', 'genindex.html', 'search.html']));
    for (const name of pages) {
      expect(loaderTags(readFileSync(join(out, name), 'utf8')), name).toEqual([
        {
          'data-proxy': proxy.url,
          'data-features': 'search,preview,versions',
          'data-preview-domains': 'docs.example.org requests.readthedocs.io',
          'data-notice': 'all',
          type: 'module',
          src: `${proxy.url}/doclens.js`,
        },
      ]);
    }
    await expectWidgetWorks(browser, `${host.apiUrl}/en/latest/index.html`, {
      search: { text: SECOND_PAGE_WORDS, found: /\/other\.html/ },
    });
  });

  it.each([
    ['no proxy', '', /^doclens_proxy is required: the http\(s\) URL of a doclens proxy/m],
    [
      'a proxy that is not an http(s) URL',
      'doclens_proxy = "ftp://doclens.example.org"\n',
      /^doclens_proxy must be the http\(s\) URL .*, not 'ftp:/m,
    ],
    [
      'an unknown feature',
      'doclens_proxy = "https://d.example"\ndoclens_features = ["search", "toc"]\n',
      /^doclens_features must be a list of search, preview, versions/m,
    ],
    [
      'a misspelt setting',
      'doclens_proxy = "https://d.example"\ndoclens_feature = ["search"]\n',
      /^doclens_feature is not a doclens setting \(settings: /m,
    ],
    [
      'intersphinx hosts without intersphinx',
      'doclens_proxy = "https://d.example"\ndoclens_preview_intersphinx = True\n',
      /^doclens_preview_intersphinx needs "sphinx.ext.intersphinx"/m,
    ],
  ])('fails the build on %s, in one line, writing no page', (_case, settings, message) => {
    const src = join(work, `sphinx-wrong-${_case.replace(/\W+/g, '-')}`);
    const out = join(src, '_build');
    writeSphinxSite(src, `extensions = ["sphinx_doclens"]\n${settings}`);
    const result = build('sphinx', src, out);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.match(/doclens_/g)?.length).toBeGreaterThan(0);
    expect(existsSync(out) ? htmlFiles(out) : []).toEqual([]);
  });
});

/** mkdocs.yml's plugins with doclens and its options (YAML lines). */
const doclensPlugin = (options: string) => `plugins:\n  - doclens:\n${options.replace(/^/gm, '      ')}\n`;

describe('MkDocs: plugins: [doclens]', () => {
  it('puts the tag on every page (the theme’s 404 too), and the widget searches', async () => {
    const { host, proxy, out } = await buildAndServe('tiny-mkdocs', (proxyUrl, out) => {
      const src = join(work, 'mkdocs-src');
      writeMkDocsSite(src, doclensPlugin(`proxy: ${proxyUrl}\nfeatures: [search, versions]\npreview_touch: false\nhighlight: false`));
      const result = build('mkdocs', src, out);
      expect(result.status, result.stderr).toBe(0);
    });
    const pages = htmlFiles(out);
    expect(pages.sort()).toEqual(['404.html', 'index.html', 'other/index.html']);
    for (const name of pages) {
      expect(loaderTags(readFileSync(join(out, name), 'utf8')), name).toEqual([
        {
          type: 'module',
          src: `${proxy.url}/doclens.js`,
          'data-proxy': proxy.url,
          'data-features': 'search,versions',
          'data-preview-touch': 'off',
          'data-highlight': 'off',
        },
      ]);
    }
    await expectWidgetWorks(browser, `${host.apiUrl}/en/latest/`, {
      elements: ['doclens-search', 'doclens-versions'],
      search: { text: SECOND_PAGE_WORDS, found: /\/other\// },
    });
  });

  it.each([
    [
      'no proxy',
      'features: [search]',
      // Told once the plugin's settings are read together: the static mode needs no proxy.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: MkDocs may colour its ERROR prefix with a terminal escape
      /ERROR\s+-\s+(\x1b\[0m)?proxy is required: the http\(s\) URL/m,
    ],
    [
      'a proxy that is not an http(s) URL',
      'proxy: doclens.example.org',
      /option 'proxy': proxy must be the http\(s\) URL .*, not 'doclens\.example\.org'$/m,
    ],
    [
      'an unknown feature',
      'proxy: https://d.example\nfeatures: [search, toc]',
      /option 'features': features must be a list of search, preview, versions/m,
    ],
  ])('fails the build on %s, in one line, writing no page', (_case, plugin, message) => {
    const src = join(work, `mkdocs-wrong-${_case.replace(/\W+/g, '-')}`);
    const out = join(src, 'site');
    writeMkDocsSite(src, doclensPlugin(plugin));
    const result = build('mkdocs', src, out);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(existsSync(out) ? htmlFiles(out) : []).toEqual([]);
  });
});

describe('the static mode: doclens_static = True, static: true', () => {
  it.each([
    ['sphinx', 'index.html', 'other.html'],
    ['mkdocs', 'index.html', 'other/'],
  ] as const)('%s runs doclens build when the site is built: served as plain files, the widget searches', async (tool, start, found) => {
    const src = join(work, `${tool}-static`);
    const out = join(src, 'out');
    if (tool === 'sphinx') writeSphinxSite(src, 'extensions = ["sphinx_doclens"]\ndoclens_static = True\n');
    else writeMkDocsSite(src, doclensPlugin('static: true'));
    const result = build(tool, src, out);
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(join(out, '_doclens/site.json'))).toBe(true);
    // One tag a page, naming no proxy: the loader beside the build's files, wherever the page is.
    for (const name of htmlFiles(out).filter((file) => !file.startsWith('_doclens'))) {
      const tags = [...readFileSync(join(out, name), 'utf8').matchAll(/<script\b[^>]*doclens\.js[^>]*>/g)].map(([tag]) => tag);
      expect(tags, name).toEqual([expect.stringMatching(/data-static=""/)]);
      expect(tags[0], name).not.toMatch(/data-proxy/);
    }
    const files = await serveFolders({ '/': out });
    running.push(files);
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    // doclens' own requests (the MkDocs theme loads highlight.js from a CDN, unreachable here).
    page.on('request', (request) => {
      const doclens = request.resourceType() === 'fetch' || request.url().includes('doclens');
      if (doclens && !request.url().startsWith(`${files.url}/`)) elsewhere.push(request.url());
    });
    await page.goto(`${files.url}/${start}`);
    expect((await searchByKeyboard(page, SECOND_PAGE_WORDS)).some((href) => href.includes(`/${found}`))).toBe(true);
    expect(elsewhere).toEqual([]);
    await page.close();
  });
});

/** The names in a zip (a wheel) or a gzipped tar (an sdist). */
function archiveNames(path: string): string[] {
  const listing = path.endsWith('.whl')
    ? execFileSync('/usr/bin/python3', ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', path], {
        encoding: 'utf8',
      })
    : execFileSync('tar', ['-tzf', path], { encoding: 'utf8' });
  return listing.split('\n').filter(Boolean);
}

describe('the wheel and the sdist, as the release workflow builds them', () => {
  let built: string;
  beforeAll(() => {
    built = join(work, 'python-dist');
    execFileSync(python, ['-m', 'pip', 'wheel', '--quiet', '--no-deps', '--no-build-isolation', '--no-index', '-w', built, pythonSource], {
      stdio: 'pipe',
    });
    execFileSync(python, ['-c', 'import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])', built], {
      cwd: pythonSource,
      stdio: 'pipe',
    });
  }, 120_000);

  it('are sphinx-doclens at the npm package’s version, with the license, the README, the typing marker and no tests', () => {
    const wheel = join(built, `sphinx_doclens-${version}-py3-none-any.whl`);
    const sdist = join(built, `sphinx-doclens-${version}.tar.gz`);
    const inWheel = archiveNames(wheel);
    expect(inWheel).toEqual(
      expect.arrayContaining([
        `sphinx_doclens-${version}.dist-info/LICENSE`,
        `sphinx_doclens-${version}.dist-info/METADATA`,
        'sphinx_doclens/py.typed',
        'sphinx_doclens/sphinx.py',
        'sphinx_doclens/mkdocs.py',
      ]),
    );
    const inSdist = archiveNames(sdist).map((name) => name.replace(/^[^/]+\//, ''));
    expect(inSdist).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'pyproject.toml', 'sphinx_doclens/py.typed']));
    for (const names of [inWheel, inSdist]) expect(names.filter((name) => /(^|\/)tests?(\/|_)|_test\.py$/.test(name))).toEqual([]);
    const metadata = execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())',
        wheel,
        `sphinx_doclens-${version}.dist-info/METADATA`,
      ],
      { encoding: 'utf8' },
    );
    expect(metadata).toMatch(/^Name: sphinx-doclens$/m);
    expect(metadata).toMatch(/^License: MIT$/m);
    expect(metadata).toMatch(/^Project-URL: Repository, https:\/\/github\.com\//m);
    expect(metadata).toContain('# doclens for Sphinx and MkDocs');
  });

  it.each(['whl', 'tar.gz'])('install from the .%s into a clean venv: the extension, the MkDocs plugin and the version', (kind) => {
    const clean = venv(`venv-${kind}`);
    pipInstall(clean, join(built, kind === 'whl' ? `sphinx_doclens-${version}-py3-none-any.whl` : `sphinx-doclens-${version}.tar.gz`));
    const found = execFileSync(
      clean,
      [
        '-c',
        `import json, importlib.metadata as m, sphinx_doclens
plugins = [e.value for e in m.entry_points(group="mkdocs.plugins") if e.name == "doclens"]
print(json.dumps([sphinx_doclens.__version__, m.version("sphinx-doclens"), callable(sphinx_doclens.setup), plugins]))`,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(found)).toEqual([version, version, true, ['sphinx_doclens.mkdocs:DoclensPlugin']]);
  });
});

describe("Debian's sphinx-build (/usr/bin/python3, outside any venv)", () => {
  it('builds with the extension installed as the README says: pip --user, where that Python looks', () => {
    // A user site of the test's own, instead of the real ~/.local.
    const env = { ...process.env, PYTHONUSERBASE: join(work, 'user-site'), PIP_BREAK_SYSTEM_PACKAGES: '1' };
    pipInstall('/usr/bin/python3', pythonSource, env, ['--user']);
    const src = join(work, 'debian-sphinx-src');
    const out = join(work, 'debian-sphinx-out');
    writeSphinxSite(src, 'extensions = ["sphinx_doclens"]\ndoclens_proxy = "https://doclens.example.org"\n');
    const result = spawnSync('/usr/bin/sphinx-build', ['-q', '-b', 'html', src, out], { encoding: 'utf8', env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(loaderTags(readFileSync(join(out, 'index.html'), 'utf8'))).toEqual([
      { 'data-proxy': 'https://doclens.example.org', type: 'module', src: 'https://doclens.example.org/doclens.js' },
    ]);
  });
});
