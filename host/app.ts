import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { apiV2Router } from './api-v2.ts';
import { apiV3Router, type ApiContext } from './api-v3.ts';
import { docsRouter, type HeadInjection } from './docs.ts';
import { embedThreads, type EmbedThreads } from './embed.ts';
import { jsonErrors, notFound } from './http.ts';
import { IndexCache } from './index-cache.ts';
import type { Manifest } from './manifest.ts';
import { PageStore } from './pages.ts';
import { Registry, type Site } from './registry.ts';
import { SearchService } from './search.ts';
import { HEADER_TIMEOUT_MS, headerTimeoutOptions, MAX_CONNECTIONS } from '../runtime/connection-limits.ts';

export interface HostOptions {
  manifest: Manifest;
  /** Token API v3 requires. */
  token: string;
  headHtml?: HeadInjection;
  /** Folder where search indexes are kept across restarts; none when undefined. */
  indexCache?: string;
  /** The threads the Embed API parses pages in (`embedThreads()` when undefined). */
  embeds?: EmbedThreads;
}

export interface Host {
  registry: Registry;
  search: SearchService;
  embeds: EmbedThreads;
  /** One app per site; the first also serves the API. */
  apps: Express[];
}

function baseApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'strong');
  app.set('query parser', 'simple');
  return app;
}

/** The local docs host: the hosting service's read API and its documentation sites, as Express apps. */
export function createHost(options: HostOptions): Host {
  const registry = new Registry(options.manifest);
  const pages = new PageStore();
  const search = new SearchService(registry, pages, options.indexCache === undefined ? undefined : new IndexCache(options.indexCache));
  const embeds = options.embeds ?? embedThreads();
  const context: ApiContext = { registry, pages, embeds, search, token: options.token };
  const apps = registry.sites.map((site, index) => {
    const app = baseApp();
    if (index === 0) {
      app.use('/api/v3', apiV3Router(context));
      app.use('/api/v2', apiV2Router(context));
      app.use('/api', (_req, _res, next) => next(notFound()));
    }
    app.use(docsRouter(registry, site, pages, options.headHtml));
    app.use(jsonErrors);
    return app;
  });
  return { registry, search, embeds, apps };
}

export interface RunningHost extends Host {
  /** Origin of the API (and of the first site). */
  apiUrl: string;
  sites: Site[];
  /**
   * Settles once the default versions are indexed (pages and the API are served before): how long it took, how
   * many versions came from the index cache.
   */
  searchComplete: Promise<{ seconds: number; versions: number; cached: number }>;
  close(): Promise<void>;
}

/** How many connections each site of the host accepts, and how long their headers may take: the proxy's defaults. */
export interface ConnectionLimits {
  headerTimeout?: number;
  maxConnections?: number;
}

function listen(app: Express, port: number, hostname: string, limits: ConnectionLimits): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(headerTimeoutOptions(limits.headerTimeout ?? HEADER_TIMEOUT_MS), app);
    server.maxConnections = limits.maxConnections ?? MAX_CONNECTIONS;
    server.listen(port, hostname);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

/** The host name of the sites' URLs: the address listened on, loopback for every interface (as the proxy names its URL). */
function urlHostOf(address: string): string {
  if (address === '0.0.0.0' || address === '::') return '127.0.0.1';
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * Starts the host: the first site (and the API) on `port`, every other site on the ports after it
 * (or on free ports when `port` is 0), listening on `hostname` (default 127.0.0.1). Resolves once the
 * indexes the cache holds are loaded (see `SearchService.cacheLoaded`).
 */
export async function startHost(options: HostOptions & ConnectionLimits & { port: number; hostname?: string }): Promise<RunningHost> {
  const hostname = options.hostname ?? '127.0.0.1';
  const host = createHost(options);
  const servers: Server[] = [];
  try {
    for (const [index, app] of host.apps.entries()) {
      const server = await listen(app, options.port === 0 ? 0 : options.port + index, hostname, options);
      servers.push(server);
      host.registry.sites[index]!.origin = `http://${urlHostOf(hostname)}:${(server.address() as AddressInfo).port}`;
    }
  } catch (error) {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    throw error;
  }
  // A reader's first preview does not wait for a thread to load its code.
  host.embeds.warm();
  const started = performance.now();
  const searchComplete = host.search.warm().then((counts) => ({ ...counts, seconds: (performance.now() - started) / 1000 }));
  let closing = false;
  searchComplete.catch((error: unknown) => {
    // Closing stops the index threads: indexing cut short then is no failure.
    if (!closing) console.error('doclens host: indexing failed:', error);
  });
  await host.search.cacheLoaded();
  return {
    ...host,
    apiUrl: host.registry.sites[0]!.origin,
    sites: host.registry.sites,
    searchComplete,
    close: async () => {
      closing = true;
      await Promise.all([host.search.close(), host.embeds.close()]);
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
