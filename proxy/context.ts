import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { ProxyConfig } from './config.ts';
import type { CacheResult, Freshness, ResponseCache } from './http/cache.ts';
import type { ProxyThreads } from './threads/pool.ts';
import type { Cors } from './http/cors.ts';
import { ProxyError } from './http/errors.ts';
import type { Logger } from './http/log.ts';
import type { Metrics } from './http/metrics.ts';
import type { RateLimitStore } from './http/rate-limit.ts';
import type { Readiness } from './app/readiness.ts';
import type { SharedRedis } from './replicas/redis.ts';
import type { EmbedDomains } from './routes/domains.ts';
import type { Credential, UpstreamApi } from './upstream/api.ts';
import type { Metadata } from './upstream/metadata.ts';
import type { FetchedPages } from './upstream/pages.ts';
import type { ObservedFetcher } from './upstream/observed-fetcher.ts';

/** What a request handled by the proxy did, for its log line. */
export interface RequestNote {
  /** The response cache key the request was answered under. */
  key?: string;
  cache?: CacheResult;
  upstreamMs?: number;
  /** The client's rate-limit answer, when the hot path already asked (so that it is asked once). */
  rateWait?: number;
}

/** Everything the routes share; built once per app by `createApp`. */
export interface ProxyContext {
  config: ProxyConfig;
  api: UpstreamApi;
  metadata: Metadata;
  fetcher: ObservedFetcher;
  /** Where pages may be read from: the documentation's domains, and external documentation. */
  domains: EmbedDomains;
  responses: ResponseCache;
  pages: FetchedPages;
  /** Threads that parse pages and extract sections off the main thread. */
  threads: ProxyThreads;
  /** The thread of large search answers, in the background. */
  answerThreads: ProxyThreads;
  /** Requests per client address (kept per client, so within the cache bound; in Redis when shared). */
  rateLimiter: RateLimitStore;
  metrics: Metrics;
  logger: Logger;
  /** The connection replicas share, with `--redis`. */
  redis?: SharedRedis;
  readiness: Readiness;
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

/**
 * The client's address: the socket's, or the one `trustedHops` reverse proxies in front say they were
 * asked from, when that is an IP address (anything else a client wrote there is not an address, and
 * would make rate-limit keys of any length). Kept as a copy: a part of the header would keep the
 * whole header alive in every bucket keyed by it.
 */
export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const socketAddress = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops === 0) return socketAddress;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const address = forwarded[forwarded.length - trustedHops] ?? forwarded[0];
  return address && isIP(address) ? Buffer.from(address, 'latin1').toString('latin1') : socketAddress;
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

/** Upstream failures a stale copy may stand in for. */
export const staleCovers = (error: unknown) => error instanceof ProxyError && error.status >= 500;
