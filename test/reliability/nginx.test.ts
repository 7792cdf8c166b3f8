import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auroraProject, json, startFakeServer, startTestProxy, type FakeServer, type TestProxy } from '../fixtures/proxy.ts';

/**
 * The real nginx (Debian's package) as a caching reverse proxy in front of doclens, configured as the
 * operators' guide says (docs/operators.md, checked below): public answers come from nginx's cache per doclens'
 * headers, private (session) answers
 * never do, and expired entries are revalidated with a 304.
 */
const TOKEN = 'nginx-suite-token-7f3e';
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
let work: string;
let upstream: FakeServer;
let nginx: ChildProcess;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function nginxConfig(prefix: string, listen: number, routes: Record<string, string>): string {
  const locations = Object.entries(routes)
    .map(
      ([path, target]) => `
    location ${path} {
      proxy_pass ${target};
      proxy_cache doclens;
      proxy_cache_revalidate on;
      proxy_cache_use_stale error timeout updating http_502 http_504;
      proxy_cache_background_update on;
      proxy_cache_key $scheme$http_host$request_uri;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Cache-Status $upstream_cache_status always;
    }`,
    )
    .join('\n');
  // Workers run as the user the suite runs as, so they can write the cache in its temporary folder.
  return `daemon off;
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  proxy_cache_path ${prefix}/cache keys_zone=doclens:1m max_size=10m inactive=1d;
  server {
    listen 127.0.0.1:${listen};
    ${locations}
  }
}
`;
}

let publicProxy: TestProxy;
let sessionProxy: TestProxy;
let front: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'doclens-nginx-'));
  mkdirSync(join(work, 'tmp'), { recursive: true });
  upstream = await startFakeServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname === '/api/v3/projects/aurora/') return json(res, 200, auroraProject('https://docs.example.org'));
    if (url.pathname.startsWith('/api/v3/projects/')) return json(res, 200, { count: 0, next: null, previous: null, results: [] });
    json(res, 200, { count: 0, next: null, previous: null, projects: [], query: url.searchParams.get('q'), results: [] });
  });
  publicProxy = await startTestProxy({ upstream: upstream.url, token: TOKEN, searchTtl: 1, staleWhileRevalidate: 60, trustProxy: 1 });
  sessionProxy = await startTestProxy({ upstream: upstream.url, credentials: 'session', token: undefined, trustProxy: 1 });
  const listen = await freePort();
  writeFileSync(join(work, 'nginx.conf'), nginxConfig(work, listen, { '/': `${publicProxy.url}`, '/private/': `${sessionProxy.url}/` }));
  nginx = spawn(NGINX, ['-p', work, '-c', join(work, 'nginx.conf')], { stdio: 'ignore' });
  front = `http://127.0.0.1:${listen}`;
  // nginx is up once it answers.
  await vi.waitFor(() => fetch(`${front}/healthz`), { timeout: 10_000, interval: 100 });
});

afterAll(async () => {
  nginx?.kill('SIGQUIT');
  await Promise.all([publicProxy?.close(), sessionProxy?.close(), upstream?.close()]);
  rmSync(work, { recursive: true, force: true });
});

const served = (proxy: TestProxy, path: string) => proxy.logs.filter((entry) => entry.route === path).length;

/** An nginx configuration's proxy directives, but its file paths, its upstream and the suite's own cache-status header. */
const cachingDirectives = (config: string) =>
  [...config.matchAll(/^\s*((?:proxy_|add_header)\S* [^;]*;)/gm)]
    .map(([, directive]) => directive!)
    .filter((directive) => !/^proxy_(pass|cache_path|temp_path) |^add_header X-Cache-Status /.test(directive));

describe('doclens behind nginx', () => {
  it("is configured as the operators' guide says", () => {
    const guide = readFileSync(new URL('../../docs/operators.md', import.meta.url), 'utf8');
    const documented = /```nginx\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    expect(cachingDirectives(documented).length).toBeGreaterThan(5);
    expect(cachingDirectives(nginxConfig('/tmp', 0, { '/': 'http://127.0.0.1:1' }))).toEqual(cachingDirectives(documented));
  });

  it('lets nginx serve public answers from its cache, and revalidate them with a 304', async () => {
    const path = '/api/v3/search/?q=cached';
    const first = await fetch(`${front}${path}`);
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    const body = await first.text();
    const second = await fetch(`${front}${path}`);
    expect(second.headers.get('x-cache-status')).toBe('HIT');
    expect(await second.text()).toBe(body);
    expect(served(publicProxy, '/api/v3/search/')).toBe(1);
    // Absolute links name the proxy as readers reach it: nginx's host, not doclens' own address.
    const other = await (await fetch(`${front}/api/v3/search/?q=cached&page=2&page_size=1`)).json();
    expect(other.previous).toBe(`${front}/api/v3/search/?q=cached&page=1&page_size=1`);

    // max-age=1, and nginx keeps time in whole seconds: asked until its entry has expired (a hit reaches no proxy).
    const stale = await vi.waitFor(
      async () => {
        const response = await fetch(`${front}${path}`);
        if (response.headers.get('x-cache-status') !== 'HIT') return response;
        await response.body?.cancel();
        throw new Error('nginx still serves its cached entry');
      },
      { timeout: 10_000, interval: 250 },
    );
    expect(['STALE', 'UPDATING', 'REVALIDATED']).toContain(stale.headers.get('x-cache-status'));
    expect(await stale.text()).toBe(body);
    // nginx revalidates in the background (UPDATING): the proxy's 304 is awaited, then counted.
    await vi.waitFor(() => expect(publicProxy.logs.some((entry) => entry.route === '/api/v3/search/' && entry.status === 304)).toBe(true));
    const revalidations = publicProxy.logs.filter((entry) => entry.route === '/api/v3/search/' && entry.status === 304);
    expect(revalidations.length).toBe(1);
    expect((await fetch(`${front}${path}`)).headers.get('x-cache-status')).toBe('HIT');
  });

  it('never serves a private (session) answer from its cache', async () => {
    for (const cookie of ['sessionid=alice', 'sessionid=bob', 'sessionid=alice']) {
      const response = await fetch(`${front}/private/api/v3/search/?q=mine`, { headers: { cookie } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toMatch(/^private/);
      expect(response.headers.get('x-cache-status')).not.toBe('HIT');
    }
    expect(served(sessionProxy, '/api/v3/search/')).toBe(3);
  });
});
