import { join } from 'node:path';
import { fileRepresentation } from '../../runtime/encoded-files.ts';
import { ProxyError } from '../http/errors.ts';
import type { Route } from '../http/route-table.ts';
import type { ProxyContext } from '../context.ts';

/**
 * The widget files the proxy serves: the two loaders (`doclens.js`, `doclens.iife.js`) at stable URLs,
 * and the code they load on first use, in chunks named `doclens-<name>-<content hash>.js`.
 */
const WIDGET_FILE = /^\/(?<file>doclens(?:\.iife|-[\w-]+)?\.js)$/;
const HASHED_CHUNK = /^doclens-[\w-]+\.js$/;

/**
 * A chunk's name changes with its content: cached for good. `doclens.js` names the chunks of its own
 * build, so a browser asks whether it changed each time (a 304 by ETag), lest an old copy call for
 * chunks an upgrade removed; `doclens.iife.js` only loads `doclens.js` and keeps a day.
 */
function cacheControlOf(name: string): string {
  if (HASHED_CHUNK.test(name)) return 'public, max-age=31536000, immutable';
  if (name === 'doclens.js') return 'public, no-cache';
  return 'public, max-age=86400, stale-while-revalidate=604800, stale-if-error=604800';
}

/**
 * `/healthz` (alive), `/readyz` (able to serve: ready or not, the reason only on the operations
 * listener) and the widget files (from `widgetDir`).
 */
export function opsRoutes(context: ProxyContext, widgetDir: string): Route[] {
  const started = context.now();

  const healthz: Route = {
    path: '/healthz',
    rateLimited: false,
    handle(_req, res) {
      res.set('cache-control', 'no-store').json({ status: 'ok', uptime_seconds: Math.round((context.now() - started) / 1000) });
    },
  };

  const readyz: Route = {
    path: '/readyz',
    rateLimited: false,
    async handle(_req, res) {
      const answer = await context.readiness.check();
      res
        .status(answer.ready ? 200 : 503)
        .set('cache-control', 'no-store')
        .json({ status: answer.ready ? 'ready' : 'not_ready' });
    },
  };

  // Sent from the disk each time (the system's file cache keeps them), compressed at build: nothing held
  // in the proxy's memory, nothing compressed per request.
  const serveWidgetFile: Route['handle'] = async (req, res, { file: name = '' }) => {
    const file = await fileRepresentation(join(widgetDir, name), req.headers['accept-encoding']);
    if (!file) throw new ProxyError(404, 'not_found', `The widget file ${name} is not built: run "npm run build".`);
    res.set({
      ...file.headers,
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': cacheControlOf(name),
      'cross-origin-resource-policy': 'cross-origin',
      'access-control-allow-origin': '*',
      // Lets a page measure what the widget costs it (Resource Timing's sizes, cross-origin).
      'timing-allow-origin': '*',
    });
    if (req.fresh) return void res.status(304).end();
    await new Promise<void>((resolve, reject) =>
      // A reader who leaves mid-file (a page closed while it loads) ends the answer: nothing failed, no one to tell (Express's
      // own sendFile without a callback takes an aborted request so too).
      res.sendFile(file.path, { etag: false, lastModified: false, cacheControl: false }, (error) =>
        error && !req.socket.destroyed ? reject(error) : resolve(),
      ),
    );
  };

  return [healthz, readyz, { path: WIDGET_FILE, name: '/<widget file>', rateLimited: false, handle: serveWidgetFile }];
}
