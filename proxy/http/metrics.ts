import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Where a cached answer was looked for. */
export type CacheLayer = 'memory' | 'redis';
/** What a look in one layer found. */
export type LayerResult = 'hit' | 'miss' | 'stale';
/** Which limit refused a request. */
export type LimitName = 'client' | 'external';

/** Latencies of a proxy that answers cache hits in well under a millisecond and waits seconds on upstreams. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** `2xx`, `4xx`… : what a histogram per route can afford to label by. */
const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/**
 * The proxy's Prometheus metrics (prom-client), in a registry of its own so that several proxies in one
 * process count apart: Node's process metrics, requests by route and status class, cache lookups by
 * layer, upstream calls, rate-limit refusals and Redis errors. `gauges` is read at each scrape.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'route' | 'status_class'>;
  private readonly cache: Counter<'layer' | 'result'>;
  private readonly upstream: Histogram<'outcome'>;
  private readonly upstreamErrors: Counter<'code'>;
  private readonly refusals: Counter<'limit'>;
  private readonly redisErrors: Counter<'operation'>;
  /** Children by their labels, so that a request hashes no label set: the hot path counts every hit. */
  private readonly requestChildren = new Map<string, { observe(value: number): void }>();
  private readonly lookupChildren = new Map<string, { inc(): void }>();

  constructor(gauges: () => Record<string, { help: string; value: number }>) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'doclens_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being written, by route (the path shape) and status class.',
      labelNames: ['route', 'status_class'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.cache = new Counter({
      name: 'doclens_cache_lookups_total',
      help: 'Cached-answer lookups by layer (memory first, then Redis when configured) and what they found: hit, miss or stale.',
      labelNames: ['layer', 'result'],
      registers,
    });
    this.upstream = new Histogram({
      name: 'doclens_upstream_duration_seconds',
      help: 'Time to a complete answer from the upstream API or an external documentation site, by outcome (ok or error).',
      labelNames: ['outcome'],
      buckets: UPSTREAM_BUCKETS,
      registers,
    });
    this.upstreamErrors = new Counter({
      name: 'doclens_upstream_errors_total',
      help: 'Upstream calls that gave no usable answer, by the error code the proxy answered with.',
      labelNames: ['code'],
      registers,
    });
    this.refusals = new Counter({
      name: 'doclens_rate_limited_total',
      help: 'Requests refused with 429 by the per-client limit or pages refused by the per-external-domain limit.',
      labelNames: ['limit'],
      registers,
    });
    this.redisErrors = new Counter({
      name: 'doclens_redis_errors_total',
      help: 'Redis commands that failed, timed out, answered garbage or were skipped while the circuit breaker was open.',
      labelNames: ['operation'],
      registers,
    });
    for (const [name, { help }] of Object.entries(gauges())) {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(gauges()[name]?.value ?? 0);
        },
      });
    }
  }

  request(route: string, status: number, seconds: number): void {
    const key = `${route} ${status}`;
    let child = this.requestChildren.get(key);
    if (!child) {
      child = this.requests.labels(route, statusClass(status));
      // Route names come from the route table, so this map stays as small as the table times the statuses.
      this.requestChildren.set(key, child);
    }
    child.observe(seconds);
  }

  cacheLookup(layer: CacheLayer, result: LayerResult): void {
    const key = `${layer} ${result}`;
    let child = this.lookupChildren.get(key);
    if (!child) {
      child = this.cache.labels(layer, result);
      this.lookupChildren.set(key, child);
    }
    child.inc();
  }

  upstreamCall(seconds: number, errorCode?: string): void {
    this.upstream.observe({ outcome: errorCode ? 'error' : 'ok' }, seconds);
    if (errorCode) this.upstreamErrors.inc({ code: errorCode });
  }

  refused(limit: LimitName): void {
    this.refusals.inc({ limit });
  }

  redisError(operation: string): void {
    this.redisErrors.inc({ operation });
  }

  /** Starts reporting whether Redis is in use: only proxies configured with one have the gauge. */
  trackRedis(up: () => boolean): void {
    new Gauge({
      name: 'doclens_redis_up',
      help: 'Whether Redis is in use (1), or configured but skipped after failures (0).',
      registers: [this.registry],
      collect() {
        this.set(up() ? 1 : 0);
      },
    });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
