import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticFiles {
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves folders as they are, each under a URL prefix (`{ '/': site, '/pagefind/': bundle }`, the
 * longest prefix wins), on a free loopback port: how a static host serves a built site. `index`
 * answers `/` when no folder is mounted there.
 */
export async function serveFolders(mounts: Record<string, string>, index = '<!doctype html><title>static</title>'): Promise<StaticFiles> {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(new URL(req.url ?? '/', 'http://localhost').pathname);
    let path: string;
    try {
      path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const prefix = prefixes.find((candidate) => path.startsWith(candidate));
    if (!prefix) {
      res.writeHead(path === '/' ? 200 : 404, { 'content-type': 'text/html' }).end(path === '/' ? index : '');
      return;
    }
    const folder = mounts[prefix]!;
    let file = join(folder, path.slice(prefix.length));
    try {
      if (!file.startsWith(folder.endsWith(sep) ? folder : folder + sep) && file !== folder) throw new Error('outside');
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!statSync(file).isFile()) throw new Error('not a file');
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
