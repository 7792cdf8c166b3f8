import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { safePath } from '../../host/pages.ts';
import { rawGet, rawRequest } from '../fixtures/raw-http.ts';

/*
 * A docs folder laid out as Debian packages it: `_static/jquery.js` and a fonts folder are links to
 * shared folders outside the docs; a whole guide is a linked folder. The docs folder itself sits
 * under a dot-folder (a cache), which must not count as a hidden file.
 */
let scratch: string;
let docs: string;
let host: RunningHost;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'doclens-symlinks-'));
  const shared = join(scratch, 'usr-share-javascript');
  mkdirSync(join(shared, 'fonts'), { recursive: true });
  mkdirSync(join(shared, 'guide'), { recursive: true });
  writeFileSync(join(shared, 'jquery.js'), 'window.jQuery = {};');
  writeFileSync(join(shared, 'fonts', 'lato.css'), '@font-face { font-family: Lato; }');
  writeFileSync(
    join(shared, 'guide', 'intro.html'),
    '<!DOCTYPE html><html><head><title>Intro</title></head><body><main><h1>Intro</h1></main></body></html>',
  );
  writeFileSync(join(scratch, 'secret.txt'), 'outside the docs');

  docs = join(scratch, '.cache', 'html');
  mkdirSync(join(docs, '_static'), { recursive: true });
  writeFileSync(
    join(docs, 'index.html'),
    '<!DOCTYPE html><html><head><title>Home</title></head><body><main><h1>Home</h1></main></body></html>',
  );
  writeFileSync(join(docs, '_static', '.env'), 'hidden');
  symlinkSync(join(shared, 'jquery.js'), join(docs, '_static', 'jquery.js'));
  symlinkSync(join(shared, 'fonts'), join(docs, '_static', 'fonts'));
  symlinkSync(join(shared, 'guide'), join(docs, 'guide'));
  symlinkSync(join(shared, 'missing.js'), join(docs, '_static', 'broken.js'));

  const manifest = singleFolderManifest({ docs, project: 'linked', version: 'latest', language: 'en' });
  host = await startHost({ manifest, token: 'test-token-0123456789', port: 0 });
});

afterAll(async () => {
  await host?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const get = (path: string) => fetch(`${host.apiUrl}${path}`);

describe('the docs host and symbolic links', () => {
  it('serves a file reached through a link, with its type', async () => {
    const response = await get('/en/latest/_static/jquery.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(await response.text()).toBe('window.jQuery = {};');
  });

  it('serves files and pages inside a linked folder', async () => {
    const css = await get('/en/latest/_static/fonts/lato.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const page = await get('/en/latest/guide/intro.html');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<meta name="readthedocs-project-slug" content="linked" />');
  });

  it('answers 404 for a broken link', async () => {
    expect((await get('/en/latest/_static/broken.js')).status).toBe(404);
  });

  it('still refuses hidden files inside the docs folder', async () => {
    const response = await get('/en/latest/_static/.env');
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('hidden');
  });

  it('refuses to climb out of the docs folder, through a linked folder too', async () => {
    const port = Number(new URL(host.apiUrl).port);
    for (const target of [
      '/en/latest/../../secret.txt',
      '/en/latest/%2e%2e/%2e%2e/secret.txt',
      '/en/latest/_static/fonts/..%2f..%2f..%2f..%2fsecret.txt',
      '/en/latest/guide/%2e%2e/%2e%2e/%2e%2e/secret.txt',
    ]) {
      const response = await rawRequest(port, rawGet(target));
      expect(response.status, target).toBe(404);
      expect(response.body, target).not.toContain('outside the docs');
    }
    expect(await safePath(docs, '../../secret.txt')).toBeUndefined();
    expect(await safePath(docs, '_static/fonts/../../../../secret.txt')).toBeUndefined();
    expect(await safePath(docs, '_static/jquery.js')).toBe(join(docs, '_static', 'jquery.js'));
  });
});
