import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../test/fixtures/proxy.ts';
import type { Credential } from './api.ts';
import { Fetcher } from './fetch.ts';
import { PageExistence } from './page-existence.ts';

const TOKEN: Credential = { kind: 'token', token: 'existence-test-token' };
const STATUS: Record<string, number> = { '/there.html': 200, '/missing.html': 404, '/gone.html': 410, '/broken.html': 500 };
let docs: FakeServer;
let fetcher: Fetcher;
let pages: PageExistence;

beforeAll(async () => {
  docs = await startFakeServer((req, res) => {
    if (req.url === '/moved.html') return void res.writeHead(301, { location: 'http://other.example/there.html' }).end();
    if (req.url === '/renamed.html') return void res.writeHead(301, { location: '/there.html' }).end();
    res.writeHead(STATUS[req.url ?? ''] ?? 404).end();
  });
  fetcher = new Fetcher({ connectTimeout: 1000, deadline: 5000, maxBytes: 1024, maxBytesInFlight: 4096, maxRedirects: 3 }, true);
  pages = new PageExistence(fetcher, (target) => target.origin === docs.url);
});
afterAll(async () => {
  await fetcher.close();
  await docs.close();
});

describe('page existence checks', () => {
  it('tells a page there, a page missing or gone, and cannot tell from other answers', async () => {
    const exists = (path: string) => pages.exists(`${docs.url}${path}`, TOKEN);
    expect(await Promise.all(['/there.html', '/missing.html', '/gone.html', '/broken.html'].map(exists))).toEqual([
      true,
      false,
      false,
      null,
    ]);
    // Redirects are followed on the docs domains only.
    expect(await exists('/renamed.html')).toBe(true);
    expect(await exists('/moved.html')).toBeNull();
  });

  it('asks with HEAD and no credential, and does not ask at all for readers of private documentation', async () => {
    const before = docs.requests.length;
    expect(await pages.exists(`${docs.url}/there.html`, { kind: 'session', cookie: 'sessionid=reader' })).toBeNull();
    expect(docs.requests.length).toBe(before);
    await pages.exists(`${docs.url}/there.html`, TOKEN);
    const [request] = docs.requests.slice(before);
    expect(request?.method).toBe('HEAD');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers.cookie).toBeUndefined();
  });
});
