import { stat } from 'node:fs/promises';
import { extname, relative, resolve } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { chosenEncoding, COMPRESS_MIN_BYTES, encodedBody } from '../runtime/content-encoding.ts';
import { fileRepresentation } from '../runtime/encoded-files.ts';
import { escapeHtml } from '../search/index.ts';
import { safePath, type PageStore } from './pages.ts';
import type { PageLocation, Registry, Site } from './registry.ts';
import { defaultVersionOf } from './search.ts';

/** Extra markup for the `<head>` of every served page (the demo adds the widget's script tag here). */
export type HeadInjection = (location: PageLocation) => string;

/** The meta tags the hosting service adds to every page it serves, which the widget's loader reads. */
function hostingMetaTags(location: PageLocation, status: number): string {
  const tags = {
    'readthedocs-project-slug': location.project.slug,
    'readthedocs-version-slug': location.version.slug,
    'readthedocs-resolver-filename': `/${location.file}`,
    'readthedocs-http-status': String(status),
  };
  return Object.entries(tags)
    .map(([name, content]) => `<meta name="${name}" content="${escapeHtml(content)}" />`)
    .join('\n');
}

function injectIntoHead(html: string, markup: string): string {
  const head = /<head[^>]*>/i.exec(html);
  if (!head) return markup + html;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}\n${markup}${html.slice(at)}`;
}

/** A page is compressed as each request comes, since its head differs by site and version: brotli or gzip. */
const PAGE_ENCODINGS = { br: true, gzip: true };

const FALLBACK_404 =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Page not found</h1></body></html>';

/** Serves the built pages of one site under the hosting service's URL shapes. */
export function docsRouter(registry: Registry, site: Site, pages: PageStore, headHtml?: HeadInjection): Router {
  const router = Router();

  /**
   * A page with the hosting service's tags in its head, in the encoding the request prefers, as the proxy sends
   * its answers. Express tags the bytes sent, so each encoding has an ETag of its own.
   */
  const sendPage = async (req: Request, res: Response, location: PageLocation, html: string, status: number) => {
    const markup = hostingMetaTags(location, status) + (headHtml ? `\n${headHtml(location)}` : '');
    const body = Buffer.from(injectIntoHead(html, markup));
    res.status(status).type('html');
    if (body.length < COMPRESS_MIN_BYTES) return res.send(body);
    res.vary('Accept-Encoding');
    const encoding = chosenEncoding(req.headers['accept-encoding'], PAGE_ENCODINGS);
    if (!encoding) return res.send(body);
    return res.set('content-encoding', encoding).send(await encodedBody(body, encoding));
  };

  const sendNotFound = async (req: Request, res: Response, location: PageLocation | undefined) => {
    const page = location && (await pages.read(location.version, '404.html'));
    if (location && page) await sendPage(req, res, { ...location, file: '404.html' }, page, 404);
    else res.status(404).type('html').send(FALLBACK_404);
  };

  /**
   * A file of the docs folder, compressed when a copy was built beside it (the widget's `doclens.js.br`,
   * …), with the ETag of that encoding. Its type is the file's own, not the copy's.
   */
  const sendStatic = async (req: Request, res: Response, location: PageLocation, path: string) => {
    const root = resolve(location.version.root!);
    const file = await fileRepresentation(path, req.headers['accept-encoding']);
    if (!file) return sendNotFound(req, res, location);
    res.set(file.headers).type(extname(location.file) || 'application/octet-stream');
    // Relative to the root, so that only names inside the docs folder are checked for dotfiles.
    return res.sendFile(relative(root, file.path), { root, dotfiles: 'deny', maxAge: '1h', etag: false });
  };

  router.get(['/', '/projects/:alias/', '/projects/:alias'], (req, res, next) => {
    const owner = req.params.alias ? site.main.subprojects.find((project) => project.alias === req.params.alias) : site.main;
    const version = owner && defaultVersionOf(owner);
    if (!version) return next();
    res.redirect(302, registry.docsUrl(version).slice(site.origin.length));
  });

  router.get('/{*path}', async (req, res) => {
    const location = registry.resolvePath(site, req.path);
    if (!location?.version.root || !location.version.active) return sendNotFound(req, res, location);
    const path = await safePath(location.version.root, location.file);
    const info = path && (await stat(path).catch(() => undefined));
    if (!path || !info) return sendNotFound(req, res, location);
    if (info.isDirectory()) return res.redirect(301, registry.docsUrl(location.version, `${location.file}/`).slice(site.origin.length));
    if (!path.endsWith('.html')) return sendStatic(req, res, location, path);
    const html = await pages.read(location.version, location.file);
    if (html === undefined) return sendNotFound(req, res, location);
    return sendPage(req, res, location, html, 200);
  });

  return router;
}
