import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbedPreview, ErrorBody } from '../../contract/index.ts';
import { demoHelp, parseDemoArgs, startDemo, type RunningDemo } from '../../cli/demo.ts';
import { demoBuild } from '../fixtures/demo.ts';

/** Another documentation site, on another host name, whose links should preview too. */
let otherDocs: Server;
let otherHost: string;
const running: RunningDemo[] = [];

beforeAll(async () => {
  otherDocs = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!DOCTYPE html><html><head><title>Other</title></head><body><main><h1>Other</h1>' +
        '<section id="setup"><h2>Setup</h2><p>Install the other tool first.</p></section></main></body></html>',
    );
  });
  await new Promise<void>((resolve) => otherDocs.listen(0, '127.0.0.1', resolve));
  otherHost = `localhost:${(otherDocs.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(running.map((demo) => demo.close()));
  await new Promise((resolve) => otherDocs.close(resolve));
});

async function demo(extra: string[]): Promise<RunningDemo> {
  const started = await startDemo(parseDemoArgs(['--docs', `${demoBuild}skyline/en/latest`, '--project', 'sky', '--port', '0', ...extra]));
  running.push(started);
  return started;
}

async function previewOf(started: RunningDemo, url: string) {
  const response = await fetch(`${started.proxyUrl}/api/v3/embed/?${new URLSearchParams({ url, form: 'preview' })}`);
  return { status: response.status, body: (await response.json()) as Partial<EmbedPreview & ErrorBody> };
}

describe('doclens demo with the loader options', () => {
  it('documents every widget option in its help', () => {
    for (const flag of [
      '--preview-selector',
      '--preview-domain',
      '--no-preview-touch',
      '--doctool',
      '--features',
      '--search-target',
      '--versions-target',
      '--notice',
      '--no-highlight',
    ]) {
      expect(demoHelp).toContain(flag);
    }
  });

  // data-static names the files of doclens build instead of a proxy: the demo always runs its proxy.
  it('has an option for every data- attribute the loader reads, but those the demo sets itself', () => {
    const loader = readFileSync(new URL('../../widget/loader/doclens.ts', import.meta.url), 'utf8');
    const names = new Set(
      [...loader.matchAll(/(?:data|dataset)\.(\w+)/g)].map(
        ([, name]) => `data-${name!.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
      ),
    );
    for (const own of ['data-proxy', 'data-project', 'data-version', 'data-language', 'data-static'])
      expect(names.delete(own), own).toBe(true);
    expect(names.size).toBeGreaterThan(6);
    for (const name of names) expect(demoHelp, name).toContain(name);
  });

  it('writes them into the script tag of every page, escaped', async () => {
    const started = await demo([
      '--preview-selector',
      'article [data-role="body"]',
      '--preview-domain',
      otherHost,
      '--preview-domain',
      'Docs.Example.org',
      '--no-preview-touch',
      '--doctool',
      'none',
      '--features',
      'search, preview',
      '--notice',
      'all',
      '--no-highlight',
    ]);
    const page = await (await fetch(started.pages[0]!.url)).text();
    const tag = /<script type="module" src="[^"]+\/doclens\.js"[^>]*><\/script>/.exec(page)?.[0];
    expect(tag).toBe(
      `<script type="module" src="${started.proxyUrl}/doclens.js" data-proxy="${started.proxyUrl}"` +
        ' data-preview-selector="article [data-role=&quot;body&quot;]"' +
        ` data-preview-domains="${otherHost} docs.example.org" data-preview-touch="off" data-doctool="none"` +
        ' data-features="search,preview"' +
        ' data-notice="all" data-highlight="off"></script>',
    );
  });

  it('listens on the --host address, the host and the proxy both', async () => {
    const started = await demo(['--host', '127.0.0.2']);
    expect(started.pages[0]!.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\//);
    expect(started.proxyUrl).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect((await fetch(`${started.proxyUrl}/healthz`)).status).toBe(200);
    await expect(fetch(`${started.proxyUrl.replace('127.0.0.2', '127.0.0.1')}/healthz`)).rejects.toThrow();
  });

  it('previews links to a --preview-domain through the proxy, and only then', async () => {
    const url = `http://${otherHost}/guide.html#setup`;
    const allowed = await previewOf(await demo(['--preview-domain', otherHost]), url);
    expect(allowed.status).toBe(200);
    expect(allowed.body.title).toBe('Setup');
    expect(allowed.body.content).toContain('Install the other tool first.');
    const refused = await previewOf(await demo([]), url);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('domain_not_allowed');
  });

  it.each([
    [['--preview-selector', 'main, a['], /--preview-selector must be a CSS selector/],
    [['--preview-domain', 'https://docs.example.org/'], /--preview-domain must be a host name/],
    [['--preview-domain', '*.example.org'], /--preview-domain must be a host name/],
    [['--doctool', 'mkdocs'], /--doctool must be one of sphinx, none/],
    [['--features', 'search,toc'], /--features takes search, preview and versions, not "toc"/],
    [['--notice', 'never'], /--notice must be one of old, dev, all, none/],
  ])('refuses %j before starting anything', async (extra, message) => {
    await expect(demo(extra)).rejects.toThrow(message);
  });
});
