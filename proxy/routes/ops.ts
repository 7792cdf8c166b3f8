import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Router } from 'express';
import { etagOf } from '../http/cache.ts';
import { ProxyError } from '../http/errors.ts';
import type { ProxyContext } from '../context.ts';

/** The widget bundles the proxy serves, and the content types they go out with. */
const BUNDLES = ['doclens.js', 'doclens.iife.js'] as const;

/** `/healthz`, `/metrics` and the widget bundle. */
export function opsRouter(context: ProxyContext, widgetDir: string, gauges: () => Record<string, number>): Router {
  const router = Router();
  const started = context.now();
  const bundles = new Map<string, { body: Buffer; etag: string; mtime: number }>();

  router.get('/healthz', (_req, res) => {
    res.set('cache-control', 'no-store').json({ status: 'ok', uptime_seconds: Math.round((context.now() - started) / 1000) });
  });

  router.get('/metrics', (_req, res) => {
    res.set('cache-control', 'no-store').type('text/plain; version=0.0.4; charset=utf-8').send(context.metrics.render(gauges()));
  });

  for (const name of BUNDLES) {
    router.get(`/${name}`, async (req, res) => {
      const path = join(widgetDir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info) throw new ProxyError(404, 'not_found', `The widget bundle ${name} is not built: run "npm run build".`);
      let bundle = bundles.get(name);
      if (!bundle || bundle.mtime !== info.mtimeMs) {
        const body = await readFile(path);
        bundle = { body, etag: etagOf(body), mtime: info.mtimeMs };
        bundles.set(name, bundle);
      }
      res.set({
        'content-type': 'text/javascript; charset=utf-8',
        // The URL is stable, so browsers revalidate daily (cheaply, by ETag) and CDNs keep serving meanwhile.
        'cache-control': 'public, max-age=86400, stale-while-revalidate=604800, stale-if-error=604800',
        etag: bundle.etag,
        'cross-origin-resource-policy': 'cross-origin',
        'access-control-allow-origin': '*',
      });
      if (req.fresh) return void res.status(304).end();
      res.send(bundle.body);
    });
  }

  return router;
}
