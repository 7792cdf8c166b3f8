import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { startTestProxy, type TestProxy } from '../fixtures/proxy.ts';

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
