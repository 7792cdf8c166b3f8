import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { ProxyConfig } from '../config.ts';
import { freshnessOf, staleCovers, type ProxyContext } from '../context.ts';
import { ResponseCache } from '../http/cache.ts';
import { proxyThreads } from '../threads/pool.ts';
import { THREAD_BASE_BYTES, type ExtractionLimits } from '../../runtime/thread-pool.ts';
import { Cors } from '../http/cors.ts';
import type { Logger } from '../http/log.ts';
import { Metrics } from '../http/metrics.ts';
import { countingRefusals, RateLimiter, type RateLimitStore } from '../http/rate-limit.ts';
import { DomainList } from '../routes/domains.ts';
import { RedisRateLimiter } from '../replicas/redis-rate-limit.ts';
import { RedisResponses } from '../replicas/redis-responses.ts';
import { SharedRedis } from '../replicas/redis.ts';
import { createUpstreamApi } from '../upstream/create-api.ts';
import { Metadata } from '../upstream/metadata.ts';
import { ObservedFetcher } from '../upstream/observed-fetcher.ts';
import { FetchedPages } from '../upstream/pages.ts';
import { Readiness } from './readiness.ts';

/**
 * Shares of the cache bytes: pages the proxy parses itself, project data, and rate limits per client
 * address; cached responses get the rest.
 */
const PAGES_SHARE = 0.25;
const METADATA_SHARE = 0.125;
const CLIENTS_SHARE = 1 / 32;

/**
 * Extraction threads: one per spare core (two at most), their jobs' working memory within room for the
 * largest page read (a parsed page takes 12–23 times its HTML), jobs waiting in a bounded queue.
 */
function extractionLimits(config: ProxyConfig): ExtractionLimits {
  return {
    threads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    timeLimitMs: config.extractTimeout,
    // As long as a whole upstream call may take.
    maxWaitMs: config.timeout,
    maxQueued: 64,
    workingBytes: Math.max(64 * 2 ** 20, 32 * config.maxResponseBytes),
  };
}

/**
 * The thread that reads large search answers: one, in the background from its start, so that the
 * upstream's largest answers wait for the proxy's other work rather than slow it; room for one answer
 * of the largest size at a time (8 times it, see `workingBytes`).
 */
function answerLimits(config: ProxyConfig): ExtractionLimits {
  return {
    threads: 1,
    timeLimitMs: config.timeout,
    maxWaitMs: config.timeout,
    maxQueued: 64,
    workingBytes: 8 * config.maxResponseBytes,
    background: true,
  };
}

/** The memory the worker threads take at most: their jobs' working memory, and each thread's own base. */
export const threadsBytes = (config: ProxyConfig) =>
  [extractionLimits(config), answerLimits(config)].reduce(
    (total, limits) => total + limits.workingBytes + limits.threads * THREAD_BASE_BYTES,
    0,
  );

/** Response bodies read at once: two of the largest allowed, or a quarter of the cache bytes when that is more. */
export const bodyBytesInFlight = (config: ProxyConfig) => Math.max(2 * config.maxResponseBytes, Math.floor(config.cacheBytes / 4));

/**
 * What the process holds beside its bounded parts: Node and the proxy's code at rest (about 130 MB
 * resident), and what V8 and the allocator keep between collections under load (up to about 150 MB in
 * `npm run bench -- memory`'s 20,000 searches, which use no thread).
 */
export const BASE_RSS_BYTES = 280 * 2 ** 20;

/** The bound of the process' resident memory: the base, the cache, the bodies in flight, the threads. */
export const memoryBound = (config: ProxyConfig) => BASE_RSS_BYTES + config.cacheBytes + bodyBytesInFlight(config) + threadsBytes(config);

/**
 * The part of every Redis key that keeps deployments apart on one Redis: replicas share state only
 * when they forward to the same upstream, API version, credentials mode and projects, with the same
 * token (a replica whose token the upstream refuses must not serve what a valid one fetched).
 */
function keyPrefixOf(config: ProxyConfig): string {
  const scope = [config.upstream, config.apiVersion, config.credentials, config.subprojects, ...config.projects];
  // Hashed on its own first, so that the prefix is the same however the scope's words are joined.
  if (config.credentials === 'token')
    scope.push(
      createHash('sha256')
        .update(config.token ?? '')
        .digest('base64url'),
    );
  return `doclens:${createHash('sha256').update(scope.join(' ')).digest('base64url').slice(0, 12)}:`;
}

/**
 * Everything the routes share, built once per app: upstream access, caches within `--cache-bytes`,
 * limits, metrics; with `--redis`, the second cache layer and the limits shared by replicas.
 */
export function createContext(config: ProxyConfig, now: () => number, logger: Logger): ProxyContext {
  let context: ProxyContext | undefined;
  const metrics = new Metrics(() => ({
    doclens_cache_bytes: {
      help: 'Memory held for cached answers, parsed pages, project data and rate limits, within --cache-bytes.',
      value: context ? context.responses.size.bytes + context.pages.bytes + context.metadata.bytes + context.rateLimiter.bytes : 0,
    },
    doclens_cache_entries: { help: 'Cached answers and remembered request URLs in memory.', value: context?.responses.size.entries ?? 0 },
    doclens_cache_max_bytes: { help: 'The memory bound, --cache-bytes.', value: config.cacheBytes },
    doclens_bodies_in_flight_bytes: {
      help: 'Response bodies being read, or held until their answer is made.',
      value: context?.fetcher.bytesInFlight ?? 0,
    },
    doclens_threads_reserved_bytes: {
      help: "The working memory the worker threads' running jobs reserved.",
      value: context ? context.threads.reservedBytes + context.answerThreads.reservedBytes : 0,
    },
    doclens_memory_bound_bytes: { help: "The process' resident memory bound (docs/operators.md, Memory).", value: memoryBound(config) },
  }));
  const fetcher = new ObservedFetcher(
    { metrics, upstream: config.upstream, now },
    {
      connectTimeout: Math.ceil(config.timeout / 3),
      deadline: config.timeout,
      maxBytes: config.maxResponseBytes,
      maxBytesInFlight: bodyBytesInFlight(config),
      maxRedirects: 3,
    },
    config.allowPrivateNetwork,
  );
  const redis = config.redis
    ? new SharedRedis(
        { url: config.redis, password: config.redisPassword, timeout: config.redisTimeout, keyPrefix: keyPrefixOf(config) },
        logger,
        metrics,
        now,
      )
    : undefined;
  if (redis) metrics.trackRedis(() => redis.up);
  const domains = {
    // By default the documentation is where the API is: the upstream's own origin, not any port of its host.
    docs: new DomainList(config.docsDomains.length ? config.docsDomains : [config.upstream]),
    external: new DomainList(config.externalDomains),
  };
  const api = createUpstreamApi(fetcher, config.upstream, config.apiVersion);
  const pagesBytes = Math.floor(config.cacheBytes * PAGES_SHARE);
  const metadataBytes = Math.floor(config.cacheBytes * METADATA_SHARE);
  const clientsBytes = Math.floor(config.cacheBytes * CLIENTS_SHARE);
  /** A limit in memory, or in Redis with memory standing in while Redis is unavailable. */
  const limit = (name: 'client' | 'external', memory: RateLimiter): RateLimitStore =>
    countingRefusals(redis ? new RedisRateLimiter(redis, name, memory.perMinute, memory, now) : memory, () => metrics.refused(name));
  context = {
    config,
    api,
    fetcher,
    domains,
    metadata: new Metadata(
      api,
      config.projects,
      config.subprojects,
      freshnessOf(config, config.projectsTtl),
      metadataBytes,
      staleCovers,
      now,
    ),
    responses: new ResponseCache(config.cacheBytes - pagesBytes - metadataBytes - clientsBytes, staleCovers, now, {
      // A refresh lock lives as long as one upstream call may take: shorter, and others would call too.
      shared: redis
        ? new RedisResponses(redis, { lockMs: config.timeout, bytes: config.redisBytes, ttlMs: config.redisTtl * 1000 }, now)
        : undefined,
      onLookup: (layer, result) => metrics.cacheLookup(layer, result),
    }),
    pages: new FetchedPages(
      fetcher,
      (url) => domains.external.matches(url) || domains.docs.matches(url),
      limit('external', new RateLimiter(config.externalRateLimit)),
      pagesBytes,
      // A page is only read again when its answers are: no copy is served while it is refreshed.
      { ttl: config.embedTtl, staleWhileRevalidate: 0, staleIfError: config.staleIfError },
      staleCovers,
      now,
    ),
    threads: proxyThreads(extractionLimits(config)),
    answerThreads: proxyThreads(answerLimits(config)),
    rateLimiter: limit('client', new RateLimiter(config.rateLimit, undefined, now, clientsBytes)),
    metrics,
    logger,
    redis,
    readiness: new Readiness(fetcher, config.upstream, redis, now),
    cors: new Cors(config.corsOrigins, config.credentials === 'session'),
    now,
    notes: new WeakMap(),
  };
  return context;
}
