import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { expectWidgetWorks, launchChromium } from './browser.ts';

/**
 * The Python package for documentation authors (python/ in this repository): pip-installed from the
 * checkout into a fresh virtual environment that sees Debian's Sphinx and MkDocs, then a small Sphinx
 * site and a small MkDocs site built with it, the widget searched on their pages through a proxy.
 */
const pythonPackage = fileURLToPath(new URL('../../python/', import.meta.url));
const TOKEN = 'python-package-token-7d2e';

/** An intersphinx inventory of another project's docs, read from a file: the build reads no network. */
function writeInventory(path: string): void {
  const header =
    '# Sphinx inventory version 2\n# Project: Requests\n# Version: 2\n# The remainder of this file is compressed using zlib.\n';
  writeFileSync(path, Buffer.concat([Buffer.from(header), deflateSync('requests.get py:function 1 api.html#$ -\n')]));
}

let work: string;
let python: string;
let browser: Browser;
const running: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'doclens-python-'));
  // Without a pip of its own (ensurepip takes seconds): Debian's, seen through the system's site packages, installs into it.
  execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(work, 'venv')]);
  python = join(work, 'venv/bin/python');
  execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', pythonPackage], { stdio: 'pipe' });
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
  return spawnSync(python, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
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
        ['-c', 'import json; from doclens.settings import SETTINGS; print(json.dumps([s.attribute for s in SETTINGS]))'],
        {
          encoding: 'utf8',
        },
      ),
    ) as string[];
    expect(new Set(written).size).toBe(written.length);
    expect(new Set(written)).toEqual(loaderDataAttributes());
  });
});

describe('Sphinx: extensions = ["doclens.sphinx"]', () => {
  it('puts the tag on every page, previews the intersphinx hosts, and the widget searches', async () => {
    const { host, proxy, out } = await buildAndServe('tiny-sphinx', (proxyUrl, out) => {
      const src = join(work, 'sphinx-src');
      const inventory = join(work, 'requests.inv');
      writeInventory(inventory);
      writeSphinxSite(
        src,
        `extensions = ["doclens.sphinx", "sphinx.ext.intersphinx"]
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
    writeSphinxSite(src, `extensions = ["doclens.sphinx"]\n${settings}`);
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
      // biome-ignore lint/suspicious/noControlCharactersInRegex: MkDocs may colour its ERROR prefix with a terminal escape
      /ERROR\s+-\s+(\x1b\[0m)?Config value 'plugins': Plugin 'doclens' option 'proxy': proxy is required: the http\(s\) URL/m,
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
