import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestProxy, type TestProxy } from '../fixtures/proxy.ts';
import { expectSentInEachEncoding, writeEncodedScript } from '../fixtures/encoded-files.ts';
import { rawGet, rawRequest } from '../fixtures/raw-http.ts';

describe('the widget files', () => {
  let proxy: TestProxy;
  let widgetDir: string;

  beforeAll(async () => {
    widgetDir = mkdtempSync(join(tmpdir(), 'doclens-widget-'));
    for (const name of ['doclens.js', 'doclens.iife.js', 'doclens-search-AbC_12-x.js', 'doclens.js.map', 'other.js'])
      writeFileSync(join(widgetDir, name), `// ${name}\n`);
    proxy = await startTestProxy({ upstream: 'http://127.0.0.1:9', token: 'test-token', widgetDir });
  });
  afterAll(async () => {
    await proxy.close();
    rmSync(widgetDir, { recursive: true, force: true });
  });

  it('serves the loaders and the hashed chunks, each cached as long as its name stays true to its content', async () => {
    const cacheOf = async (name: string) => {
      const answer = await proxy.get(`/${name}`);
      expect(answer.status, name).toBe(200);
      expect(answer.text).toBe(`// ${name}\n`);
      expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      return answer.headers.get('cache-control');
    };
    // The loader names the chunks of its build: never used without asking, lest it call for chunks an upgrade removed.
    expect(await cacheOf('doclens.js')).toBe('public, no-cache');
    expect(await cacheOf('doclens.iife.js')).toMatch(/^public, max-age=86400\b/);
    expect(await cacheOf('doclens-search-AbC_12-x.js')).toBe('public, max-age=31536000, immutable');
  });

  it('answers a revalidation with 304 by ETag, and changed content with a new ETag', async () => {
    // As a browser revalidates its cached copy (fetch() would add its own Cache-Control: no-cache).
    const revalidate = (etag: string) => rawRequest(Number(new URL(proxy.url).port), rawGet('/doclens.js', { 'If-None-Match': etag }));
    const etag = (await proxy.get('/doclens.js')).headers.get('etag')!;
    expect((await revalidate(etag)).status).toBe(304);
    writeFileSync(join(widgetDir, 'doclens.js'), '// doclens.js, rebuilt with other chunks\n');
    const rebuilt = await revalidate(etag);
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.headers.etag).not.toBe(etag);
  });

  it('sends the copies built beside a file in brotli or gzip, as asked, each with its ETag and the same caching', async () => {
    const text = `// doclens.js\n${'export const part = "the loader of the widget";\n'.repeat(80)}`;
    writeEncodedScript(join(widgetDir, 'doclens.js'), text);
    await expectSentInEachEncoding(Number(new URL(proxy.url).port), '/doclens.js', text);
    const brotli = await rawRequest(Number(new URL(proxy.url).port), rawGet('/doclens.js', { 'Accept-Encoding': 'br' }));
    expect(brotli.headers['cache-control']).toBe('public, no-cache');
    expect(brotli.headers['access-control-allow-origin']).toBe('*');
  });

  it('serves no other file of the folder, and a chunk gone with an upgrade is a JSON 404', async () => {
    for (const path of ['/doclens.js.map', '/doclens.js.br', '/other.js', '/doclens-..%2Fdoclens.js', '/doclens-search-gone.js']) {
      const answer = await proxy.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.code, path).toBe('not_found');
    }
  });

  it('takes a reader who leaves during a download as the end of it, not as an error of the proxy', async () => {
    // Large enough to be sent in many writes: the reader leaves while it is sent.
    writeFileSync(join(widgetDir, 'doclens-large-AbC_12-x.js'), `// ${'x'.repeat(16 * 1024 * 1024)}\n`);
    const socket = connect(Number(new URL(proxy.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('data', () => socket.destroy());
    socket.write(rawGet('/doclens-large-AbC_12-x.js'));
    await new Promise((resolve) => socket.once('close', resolve));
    // The request's line, as nginx logs a client that closed the connection; the sending stopped in the same turn.
    await vi.waitFor(() => expect(proxy.logs.find((entry) => entry.route === '/<widget file>' && entry.status === 499)).toBeDefined());
    expect(proxy.logs.filter((entry) => entry.level === 'error')).toEqual([]);
    expect((await proxy.get('/doclens.iife.js')).status).toBe(200);
  });
});
