import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { ProxyConfig } from './config.ts';
import { publicOrigin, staleCovers, type ProxyContext } from './context.ts';
import { ResponseCache } from './http/cache.ts';
import { Cors } from './http/cors.ts';
import { ProxyError } from './http/errors.ts';
import { stdoutLog, type LogSink } from './http/log.ts';
import { Metrics } from './http/metrics.ts';
import { BUCKET_BYTES, RateLimiter } from './http/rate-limit.ts';
import { asProxyError, sendError, sendStored } from './http/respond.ts';
import { DomainList } from './routes/domains.ts';
import { embedRouter, type EmbedDomains } from './routes/embed.ts';
import { opsRouter, WIDGET_FILE } from './routes/ops.ts';
import { pageContextRouter } from './routes/page-context.ts';
import { projectsRouter } from './routes/projects.ts';
import { searchRouter } from './routes/search.ts';
import { createUpstreamApi } from './upstream/api.ts';
import { Fetcher } from './upstream/fetch.ts';
import { Metadata } from './upstream/metadata.ts';
import { FetchedPages } from './upstream/pages.ts';

export interface ProxyOptions {
  /** Where request and error log lines go (default: JSON lines on stdout). */
  log?: LogSink;
  now?: () => number;
}

/** The proxy as an Express app, plus what a standalone server needs. */
export type ProxyApp = Express & {
  /** Serves fresh cache hits without Express, then hands everything else to the app. */
  listener: RequestListener;
  context: ProxyContext;
  /** Stops upstream connections. */
  close(): Promise<void>;
};

/**
 * Every path the proxy answers, exactly as written (letter case included), with the route it is
 * logged and counted as. This one table decides routing, rate limiting and log names: anything else
 * is a 404 before any router sees it, and another method on these a 405.
 */
const ROUTES: { pattern: RegExp; route: string; rateLimited: boolean }[] = [
  { pattern: /^\/api\/v3\/(embed|search|page-context)\/$/, route: '$&', rateLimited: true },
  { pattern: /^\/api\/v3\/projects\/[^/]+\/(versions|translations|subprojects)\/$/, route: '/api/v3/projects/:slug/$1/', rateLimited: true },
  { pattern: /^\/(healthz|metrics)$/, route: '$&', rateLimited: false },
  { pattern: WIDGET_FILE, route: '/<widget file>', rateLimited: false },
];

/**
 * Shares of the cache bytes: pages the proxy parses itself, project data, and rate limits per client
 * address; cached responses get the rest.
 */
const PAGES_SHARE = 0.25;
const METADATA_SHARE = 0.125;
const CLIENTS_SHARE = 1 / 32;

/** The route a path is answered as, or undefined for paths the proxy does not have. */
function routeOf(path: string): { route: string; rateLimited: boolean } | undefined {
  const known = ROUTES.find(({ pattern }) => pattern.test(path));
  return known && { route: path.replace(known.pattern, known.route), rateLimited: known.rateLimited };
}

/** Unknown paths are logged as `unknown`, so probes do not flood the logs with input. */
const routeName = (path: string) => routeOf(path)?.route ?? 'unknown';

function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const socketAddress = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops === 0) return socketAddress;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return forwarded[forwarded.length - trustedHops] ?? forwarded[0] ?? socketAddress;
}

function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Builds the doclens proxy for `config` (validated by `parseConfig`): read-only forwarding of the
 * embed, search and project-listing endpoints to the upstream with server-held credentials, caching,
 * and extraction from allowlisted external documentation. Nothing listens here: mount the app in an
 * Express app, or give `listener` to `http.createServer`.
 */
export function createApp(config: ProxyConfig, options: ProxyOptions = {}): ProxyApp {
  const log = options.log ?? stdoutLog;
  const now = options.now ?? Date.now;
  const fetcher = new Fetcher(
    { connectTimeout: Math.ceil(config.timeout / 3), deadline: config.timeout, maxBytes: config.maxResponseBytes, maxRedirects: 3 },
    config.allowPrivateNetwork,
  );
  const domains: EmbedDomains = {
    // By default the documentation is where the API is: the upstream's own origin, not any port of its host.
    docs: new DomainList(config.docsDomains.length ? config.docsDomains : [config.upstream]),
    external: new DomainList(config.externalDomains),
  };
  const api = createUpstreamApi(fetcher, config.upstream, config.apiVersion);
  const pagesBytes = Math.floor(config.cacheBytes * PAGES_SHARE);
  const metadataBytes = Math.floor(config.cacheBytes * METADATA_SHARE);
  const clientsBytes = Math.floor(config.cacheBytes * CLIENTS_SHARE);
  const context: ProxyContext = {
    config,
    api,
    fetcher,
    metadata: new Metadata(api, config.projects, config.subprojects, config.projectsTtl, metadataBytes),
    responses: new ResponseCache(config.cacheBytes - pagesBytes - metadataBytes - clientsBytes, staleCovers, now),
    pages: new FetchedPages(fetcher, (url) => domains.external.matches(url) || domains.docs.matches(url), new RateLimiter(config.externalRateLimit), pagesBytes, config.embedTtl),
    clients: new RateLimiter(config.rateLimit, undefined, now, Math.floor(clientsBytes / BUCKET_BYTES)),
    metrics: new Metrics(),
    cors: new Cors(config.corsOrigins, config.credentials === 'session'),
    now,
    notes: new WeakMap(),
  };
  const { clients } = context;
  const hotPath = config.credentials === 'token';

  const logRequest = (req: IncomingMessage, status: number, started: number, error?: ProxyError) => {
    const note = context.notes.get(req);
    const route = routeName(pathOf(req.url ?? '/'));
    context.metrics.count('doclens_requests_total', { route, status: String(status) });
    log({
      level: status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: req.method,
      route,
      status,
      cache: note?.cache,
      upstream_ms: note?.upstreamMs,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      client: clientAddress(req, config.trustProxy),
      error: error?.code,
    });
  };

  const app = express() as unknown as ProxyApp;
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);

  const start: RequestHandler = (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      logRequest(req, res.statusCode, started, res.locals.error as ProxyError | undefined);
      const key = context.notes.get(req)?.key;
      const origin = publicOrigin(req, config.trustProxy);
      if (hotPath && key && origin && res.statusCode === 200) context.responses.rememberUrl(origin + req.originalUrl, key);
    });
    res.setHeader('x-content-type-options', 'nosniff');
    const known = routeOf(req.path);
    if (!known) return next(new ProxyError(404, 'not_found', 'No such endpoint on the doclens proxy.'));
    if (req.method === 'OPTIONS') return void res.status(204).set(context.cors.preflight(req.headers.origin)).end();
    // Other methods match no route and end in the 405 handler below, without using up a client's rate.
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (known.rateLimited) {
      const wait = clients.take(clientAddress(req, config.trustProxy));
      if (wait > 0) return next(new ProxyError(429, 'rate_limited', `Too many requests; try again in ${wait} s.`, { 'retry-after': String(wait) }));
    }
    next();
  };

  app.use(start);
  app.use(opsRouter(context, config.widgetDir ?? fileURLToPath(new URL('../dist/', import.meta.url)), () => ({
    doclens_cache_bytes: context.responses.size.bytes + context.pages.bytes + context.metadata.bytes + context.clients.bytes,
    doclens_cache_entries: context.responses.size.entries,
    doclens_cache_max_bytes: config.cacheBytes,
    process_resident_memory_bytes: process.memoryUsage.rss(),
    nodejs_heap_used_bytes: process.memoryUsage().heapUsed,
  })));
  app.use(embedRouter(context, domains));
  app.use(searchRouter(context));
  app.use(projectsRouter(context));
  app.use(pageContextRouter(context, domains));
  app.use((req, _res, next) => {
    next(new ProxyError(405, 'method_not_allowed', `${req.method} is not allowed here: the proxy is read-only.`, { allow: 'GET, HEAD' }));
  });
  const errors: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    const proxyError = asProxyError(error);
    if (proxyError.status >= 500 && !(error instanceof ProxyError)) {
      log({ level: 'error', msg: 'unexpected error', route: routeName(req.path), error: (error as Error)?.name, detail: String((error as Error)?.message ?? error).slice(0, 300) });
    }
    res.locals.error = proxyError;
    sendError(res, proxyError, context.cors.headers(req.headers.origin));
  };
  app.use(errors);

  app.context = context;
  app.listener = (req: IncomingMessage, res: ServerResponse) => {
    // Remembered under the origin asked for too: answers with absolute links differ by it.
    const origin = hotPath && (req.method === 'GET' || req.method === 'HEAD') ? publicOrigin(req, config.trustProxy) : undefined;
    const entry = origin === undefined ? undefined : context.responses.freshForUrl(origin + (req.url ?? ''));
    if (entry && clients.take(clientAddress(req, config.trustProxy)) === 0) {
      const started = performance.now();
      context.notes.set(req, { cache: 'hit' });
      context.metrics.count('doclens_cache_requests_total', { result: 'hit' });
      sendStored(req, res, entry, 'hit', context.cors.headers(req.headers.origin), now());
      logRequest(req, res.statusCode, started);
      return;
    }
    app(req as express.Request, res as express.Response);
  };
  app.close = () => fetcher.close();
  return app;
}
