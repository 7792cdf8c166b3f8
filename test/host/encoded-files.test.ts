import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { expectSentInEachEncoding, writeEncodedScript } from '../fixtures/encoded-files.ts';
import { rawGet, rawRequest } from '../fixtures/raw-http.ts';

/** A docs folder that carries the widget's built files in its `_static/` (with their compressed copies). */
let docs: string;
let host: RunningHost;
const text = `// doclens.js\n${'export const part = "the loader of the widget";\n'.repeat(80)}`;
const paragraphs = '<p>A paragraph of the home page.</p>'.repeat(60);
const page = `<!DOCTYPE html><html><head><title>Home</title></head><body><main><h1>Home</h1>${paragraphs}</main></body></html>`;

beforeAll(async () => {
  docs = mkdtempSync(join(tmpdir(), 'doclens-encoded-'));
  mkdirSync(join(docs, '_static'));
  writeFileSync(join(docs, 'index.html'), page);
  writeEncodedScript(join(docs, '_static', 'doclens.js'), text);
  writeFileSync(join(docs, '_static', 'theme.js'), 'window.theme = {};\n');
  host = await startHost({
    manifest: singleFolderManifest({ docs, project: 'tiny', version: 'latest', language: 'en' }),
    token: 'encoded-files-token',
    port: 0,
  });
});
afterAll(async () => {
  await host.close();
  rmSync(docs, { recursive: true, force: true });
});

describe('doclens host: the files of a docs folder', () => {
  it('sends the copies built beside a file in brotli or gzip, as asked, each with its ETag, cached as before', async () => {
    const port = Number(new URL(host.apiUrl).port);
    await expectSentInEachEncoding(port, '/en/latest/_static/doclens.js', text);
    const answer = await rawRequest(port, rawGet('/en/latest/_static/doclens.js', { 'Accept-Encoding': 'br' }));
    expect(answer.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('sends an HTML page in brotli or gzip, as asked, each encoding with its ETag', async () => {
    const port = Number(new URL(host.apiUrl).port);
    const sent = await rawRequest(port, rawGet('/en/latest/index.html', { 'Accept-Encoding': 'identity' }));
    // The page as served: the hosting service's tags in its head.
    expect(sent.body).toContain('<meta name="readthedocs-project-slug" content="tiny" />');
    expect(sent.body.length).toBeGreaterThan(page.length);
    await expectSentInEachEncoding(port, '/en/latest/index.html', sent.body, {
      type: /^text\/html; charset=utf-8$/,
      etag: () => /^"[^"]+"$/,
    });
  });

  it('sends a file with no copies as it is', async () => {
    const port = Number(new URL(host.apiUrl).port);
    const plain = await rawRequest(port, rawGet('/en/latest/_static/theme.js', { 'Accept-Encoding': 'br, gzip' }));
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBeUndefined();
    expect(plain.body).toBe('window.theme = {};\n');
  });
});
