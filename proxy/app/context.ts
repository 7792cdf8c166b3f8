import { availableParallelism } from 'node:os';
import type { ProxyConfig } from '../config.ts';
import { staleCovers, type ProxyContext } from '../context.ts';
import { ResponseCache } from '../http/cache.ts';
import { ExtractionPool } from '../extraction/pool.ts';
import { Cors } from '../http/cors.ts';
import { Metrics } from '../http/metrics.ts';
import { BUCKET_BYTES, RateLimiter } from '../http/rate-limit.ts';
import { DomainList } from '../routes/domains.ts';
import { createUpstreamApi } from '../upstream/create-api.ts';
import { Fetcher } from '../upstream/fetch.ts';
import { Metadata } from '../upstream/metadata.ts';
import { FetchedPages } from '../upstream/pages.ts';

/**
 * Shares of the cache bytes: pages the proxy parses itself, project data, and rate limits per client
 * address; cached responses get the rest.
 */
const PAGES_SHARE = 0.25;
const METADATA_SHARE = 0.125;
const CLIENTS_SHARE = 1 / 32;

/**
 * Extraction threads: one per spare core (two at most), each with a heap for the largest page read
 * (a parsed page takes 12–23 times its HTML) and jobs waiting in a bounded queue.
 */
function extractionLimits(config: ProxyConfig) {
  return {
    threads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    timeLimitMs: config.extractTimeout,
    // As long as a whole upstream call may take.
    maxWaitMs: config.timeout,
    maxQueued: 64,
    heapMb: Math.max(64, Math.ceil((config.maxResponseBytes * 32) / 2 ** 20)),
  };
}

/** Response bodies read at once: two of the largest allowed, or a quarter of the cache bytes when that is more. */
export const bodyBytesInFlight = (config: ProxyConfig) => Math.max(2 * config.maxResponseBytes, Math.floor(config.cacheBytes / 4));

/** Everything the routes share, built once per app: upstream access, caches within `--cache-bytes`, limits. */
export function createContext(config: ProxyConfig, now: () => number): ProxyContext {
  const fetcher = new Fetcher(
    {
      connectTimeout: Math.ceil(config.timeout / 3),
      deadline: config.timeout,
      maxBytes: config.maxResponseBytes,
      maxBytesInFlight: bodyBytesInFlight(config),
      maxRedirects: 3,
    },
    config.allowPrivateNetwork,
  );
  const domains = {
    // By default the documentation is where the API is: the upstream's own origin, not any port of its host.
    docs: new DomainList(config.docsDomains.length ? config.docsDomains : [config.upstream]),
    external: new DomainList(config.externalDomains),
  };
  const api = createUpstreamApi(fetcher, config.upstream, config.apiVersion);
  const pagesBytes = Math.floor(config.cacheBytes * PAGES_SHARE);
  const metadataBytes = Math.floor(config.cacheBytes * METADATA_SHARE);
  const clientsBytes = Math.floor(config.cacheBytes * CLIENTS_SHARE);
  return {
    config,
    api,
    fetcher,
    domains,
    metadata: new Metadata(api, config.projects, config.subprojects, config.projectsTtl, metadataBytes),
    responses: new ResponseCache(config.cacheBytes - pagesBytes - metadataBytes - clientsBytes, staleCovers, now),
    pages: new FetchedPages(
      fetcher,
      (url) => domains.external.matches(url) || domains.docs.matches(url),
      new RateLimiter(config.externalRateLimit),
      pagesBytes,
      config.embedTtl,
    ),
    extraction: new ExtractionPool(extractionLimits(config)),
    clients: new RateLimiter(config.rateLimit, undefined, now, Math.floor(clientsBytes / BUCKET_BYTES)),
    metrics: new Metrics(),
    cors: new Cors(config.corsOrigins, config.credentials === 'session'),
    now,
    notes: new WeakMap(),
  };
}
