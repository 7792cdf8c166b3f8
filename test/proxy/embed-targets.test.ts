import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { json, startFakeServer, startTestProxy, type TestProxy } from '../fixtures/proxy.ts';

/*
 * Previews of targets the Embed API answers with something else than what they are, through the proxy
 * in front of a docs host serving pages cut from real sites (extraction/structure/fixtures): the proxy
 * reads the page around such a target.
 */
const TOKEN = 'embed-targets-token-7c1e';
let scratch: string;
let host: RunningHost;
let proxy: TestProxy;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'doclens-embed-targets-'));
  mkdirSync(join(scratch, 'library'));
  const fixture = (name: string) => new URL(`../../extraction/structure/fixtures/${name}.html`, import.meta.url);
  copyFileSync(fixture('python-docs-label'), join(scratch, 'library', 'sys.html'));
  copyFileSync(fixture('alabaster-contents'), join(scratch, 'faq.html'));
  const manifest = singleFolderManifest({ docs: scratch, project: 'site', version: 'latest', language: 'en' });
  host = await startHost({ manifest, token: TOKEN, port: 0 });
  proxy = await startTestProxy({ upstream: host.apiUrl, token: TOKEN, projects: ['site'] });
});

afterAll(async () => {
  await proxy?.close();
  await host?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const preview = (path: string) =>
  proxy.get(`/api/v3/embed/?url=${encodeURIComponent(`${host.apiUrl}/en/latest/${path}`)}&doctool=sphinx&form=preview`);

describe('previews through the Embed API', () => {
  it("show what an empty label in the middle of a section labels, not the section's opening (Python's sys.html#auditing)", async () => {
    const { status, body } = await preview('library/sys.html#auditing');
    expect(status).toBe(200);
    expect(body.title).toBe('sys.audit');
    expect(body.content).toContain('Raise an auditing event');
    expect(body.content).not.toContain('This module provides access');
  });

  it("show the section a table of contents entry leads to, not the entry's label alone (aiohttp's FAQ)", async () => {
    const { status, body } = await preview('faq.html#id1');
    expect(status).toBe(200);
    expect(body.title).toBe('Are there plans for an @app.route decorator like in Flask?');
    expect(body.content).toContain('As of aiohttp 2.3');
  });
});

describe('previews of definitions whose text follows their entry (Django writes its methods so)', () => {
  // The Embed API answers such a target with its entry alone: the proxy reads around it in the page's content.
  const entry = (name: string) =>
    `<dl class="py method"><dt class="sig sig-object py" id="QuerySet.${name}">${name}(*args)</dt><dd></dd></dl>`;
  const content =
    '<div class="body" role="main"><section id="methods"><h1>Methods</h1>' +
    `${entry('filter')}<p>Returns a new QuerySet of the objects that match the lookup parameters.</p>` +
    `${entry('exclude')}<p>Returns a new QuerySet of the objects that do not match them.</p></section></div>`;

  it('read the page content from the upstream once for all the targets on it', async () => {
    const upstream = await startFakeServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://upstream').searchParams.get('url') ?? '';
      const fragment = new URL(url).hash.slice(1);
      json(res, 200, { url, fragment: fragment || null, content: fragment ? entry(fragment.split('.')[1]!) : content, external: false });
    });
    const reader = await startTestProxy({ upstream: upstream.url, token: TOKEN });
    try {
      const target = (name: string) => encodeURIComponent(`${upstream.url}/en/latest/ref/querysets.html#QuerySet.${name}`);
      const previewOf = (name: string) => reader.get(`/api/v3/embed/?url=${target(name)}&doctool=sphinx&form=preview`);
      const filter = await previewOf('filter');
      expect(filter.status).toBe(200);
      expect(filter.body.content).toContain('objects that match the lookup parameters');
      const exclude = await previewOf('exclude');
      expect(exclude.status).toBe(200);
      expect(exclude.body.content).toContain('objects that do not match them');
      const pageContents = upstream.requests.filter((request) => !decodeURIComponent(request.url).includes('#'));
      expect(pageContents).toHaveLength(1);
    } finally {
      await reader.close();
      await upstream.close();
    }
  });
});
