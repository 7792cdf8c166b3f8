import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { parseConfig } from '../../proxy/config.ts';
import { createLogger } from '../../proxy/http/log.ts';
import { startProxy, type RunningProxy } from '../../proxy/server.ts';
import { writeMkDocsSite, writeSphinxSite } from '../fixtures/tiny-sites.ts';
import { expectWidgetWorks, launchChromium } from './browser.ts';

/**
 * The README's integration snippets, read from the README, each in a tiny site built by the real tool,
 * served by the local host (which adds no widget of its own) with the proxy beside it: the widget must
 * load from the tag.
 */
const TOKEN = 'integration-token-4a7c';
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/**
 * The README's first fenced block in `language` holding `marker` (the plain tags: the Python package's
 * snippets come before them and are built by test/e2e/python-package.test.ts), pointing at `proxyUrl`
 * instead of the example proxy.
 */
function readmeSnippet(language: string, proxyUrl: string, marker = ''): string {
  const block = [...readme.matchAll(new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``, 'g'))]
    .map(([, text]) => text!)
    .find((text) => text.includes(marker));
  if (block === undefined) throw new Error(`the README has no ${language} block holding ${marker}`);
  expect(block).toContain('https://doclens.example.org');
  return block.replaceAll('https://doclens.example.org', proxyUrl);
}
let work: string;
let browser: Browser;
const running: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'doclens-integration-'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(running.map((server) => server.close()));
  rmSync(work, { recursive: true, force: true });
});

/** Host and proxy for a folder that the site's build writes afterwards (the host reads pages on request). */
async function serve(folder: string, project: string): Promise<{ host: RunningHost; proxy: RunningProxy }> {
  mkdirSync(folder, { recursive: true });
  const host = await startHost({
    manifest: singleFolderManifest({ docs: folder, project, version: 'latest', language: 'en' }),
    token: TOKEN,
    port: 0,
  });
  const proxy = await startProxy(
    parseConfig({
      upstream: host.apiUrl,
      token: TOKEN,
      projects: [project],
      allowPrivateNetwork: true,
      corsOrigins: [host.apiUrl],
      port: 0,
    }),
    { logger: createLogger('silent') },
  );
  running.push(proxy, host);
  return { host, proxy };
}

describe('integration snippets from the README', () => {
  it('Sphinx: html_js_files', async () => {
    const out = join(work, 'sphinx-out');
    const { host, proxy } = await serve(out, 'tiny-sphinx');
    const src = join(work, 'sphinx-src');
    writeSphinxSite(src, readmeSnippet('python', proxy.url, 'html_js_files'));
    execFileSync('sphinx-build', ['-q', '-b', 'html', src, out], { stdio: 'pipe' });
    await expectWidgetWorks(browser, `${host.apiUrl}/en/latest/index.html`);
  });

  it('MkDocs: extra_javascript with the classic bundle', async () => {
    const out = join(work, 'mkdocs-out');
    const { host, proxy } = await serve(out, 'tiny-mkdocs');
    const src = join(work, 'mkdocs-src');
    writeMkDocsSite(src, readmeSnippet('yaml', proxy.url, 'extra_javascript'));
    execFileSync('mkdocs', ['build', '-q', '-f', join(src, 'mkdocs.yml'), '-d', out], { stdio: 'pipe' });
    await expectWidgetWorks(browser, `${host.apiUrl}/en/latest/`);
  });

  it('plain HTML: one module tag', async () => {
    const out = join(work, 'plain');
    const { host, proxy } = await serve(out, 'tiny-html');
    writeFileSync(
      join(out, 'index.html'),
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Tiny</title>
${readmeSnippet('html', proxy.url)}</head>
<body><main><h1>Tiny</h1><p>A page.</p></main></body></html>`,
    );
    await expectWidgetWorks(browser, `${host.apiUrl}/en/latest/`);
  });
});
