import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProxyConfig } from './config.ts';
import { storedResponse, type CacheResult, type Freshness, type ResponseCache } from './http/cache.ts';
import type { Cors } from './http/cors.ts';
import { ProxyError } from './http/errors.ts';
import type { Metrics } from './http/metrics.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import { sendStored } from './http/respond.ts';
import type { Credential, UpstreamApi } from './upstream/api.ts';
import type { Fetcher } from './upstream/fetch.ts';
import type { Metadata } from './upstream/metadata.ts';
import type { FetchedPages } from './upstream/pages.ts';

/** What a request handled by the proxy did, for its log line. */
export interface RequestNote {
  /** The response cache key the request was answered under. */
  key?: string;
  cache?: CacheResult;
  upstreamMs?: number;
}

/** Everything the routes share; built once per app by `createApp`. */
export interface ProxyContext {
  config: ProxyConfig;
  api: UpstreamApi;
  metadata: Metadata;
  fetcher: Fetcher;
  responses: ResponseCache;
  pages: FetchedPages;
  /** Requests per client address (kept per client, so within the cache bound). */
  clients: RateLimiter;
  metrics: Metrics;
  cors: Cors;
  now: () => number;
  /** Notes attached to requests for the log line. */
  notes: WeakMap<IncomingMessage, RequestNote>;
}

const SESSION_COOKIE = /(?:^|;\s*)(sessionid|csrftoken)=/;

const HOST = /^([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/** The first value of a header a reverse proxy may have sent several times. */
const firstValue = (header: string | string[] | undefined) => (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();

/**
 * The origin readers reach the proxy at, for absolute links: the `Host` of the request, or what
 * trusted reverse proxies say (`X-Forwarded-Host`, `X-Forwarded-Proto`). Undefined when the host is
 * missing or not a host name. Answers built from it are cached under it, so no client's `Host` ends
 * up in another client's answer.
 */
export function publicOrigin(req: IncomingMessage, trustedHops: number): string | undefined {
  const forwardedHost = trustedHops > 0 ? firstValue(req.headers['x-forwarded-host']) : undefined;
  const forwardedProto = trustedHops > 0 ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const host = forwardedHost || req.headers.host;
  if (!host || !HOST.test(host)) return undefined;
  const scheme = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : 'encrypted' in req.socket ? 'https' : 'http';
  return `${scheme}://${host.toLowerCase()}`;
}

/** The rights a request uses upstream: the proxy's token, or (session mode) the reader's own cookie. */
export function credentialOf(context: ProxyContext, req: IncomingMessage): Credential {
  if (context.config.credentials === 'token') return { kind: 'token', token: context.config.token ?? '' };
  const cookie = req.headers.cookie;
  return cookie && SESSION_COOKIE.test(cookie) ? { kind: 'session', cookie } : { kind: 'anonymous' };
}

/** The part of a cache key that keeps one reader's responses from another: a hash of their cookie. */
export function cacheScopeOf(credential: Credential): string {
  if (credential.kind !== 'session') return credential.kind === 'token' ? 'shared' : 'anonymous';
  return `session:${createHash('sha256').update(credential.cookie).digest('base64url')}`;
}

export function freshnessOf(config: ProxyConfig, ttl: number): Freshness {
  return { ttl, staleWhileRevalidate: config.staleWhileRevalidate, staleIfError: config.staleIfError };
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Seconds a "not found" answer is kept. */
const NOT_FOUND_TTL = 30;

/** Upstream failures a stale copy may stand in for. */
export const staleCovers = (error: unknown) => error instanceof ProxyError && error.status >= 500;

/**
 * Answers from the response cache, loading `load()` on a miss; the stored bytes are what the hot
 * path serves next time.
 */
export async function sendCachedJson<T>(
  context: ProxyContext,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  ttl: number,
  load: () => Promise<T>,
  /** Whether an answer may be kept at all (one that is partial may not: the next may say more). */
  keep: (value: T) => boolean = () => true,
): Promise<void> {
  const shared = context.config.credentials === 'token';
  const note = context.notes.get(req) ?? {};
  note.key = key;
  context.notes.set(req, note);
  const { entry, result } = await context.responses.get(key, async () => {
    const started = performance.now();
    try {
      const value = await load();
      const freshness = keep(value) ? freshnessOf(context.config, ttl) : { ttl: 0, staleWhileRevalidate: 0, staleIfError: 0 };
      return storedResponse(200, Buffer.from(JSON.stringify(value)), JSON_TYPE, freshness, shared, context.now());
    } catch (error) {
      // Answers that something does not exist are kept briefly, so a flood of them stays off the upstream.
      if (error instanceof ProxyError && error.status === 404) {
        return storedResponse(404, Buffer.from(JSON.stringify(error.body)), JSON_TYPE, { ttl: NOT_FOUND_TTL, staleWhileRevalidate: 0, staleIfError: 0 }, shared, context.now());
      }
      throw error;
    } finally {
      note.upstreamMs = Math.round((performance.now() - started) * 10) / 10;
      context.metrics.observeUpstream((performance.now() - started) / 1000);
    }
  });
  note.cache = result;
  context.metrics.count('doclens_cache_requests_total', { result });
  sendStored(req, res, entry, result, context.cors.headers(req.headers.origin), context.now());
}
