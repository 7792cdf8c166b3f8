import type { SharedRedis } from '../replicas/redis.ts';
import { FetchError } from '../upstream/fetch.ts';
import type { ObservedFetcher } from '../upstream/observed-fetcher.ts';

/** An upstream answer this recent means the proxy can serve without asking again. */
const RECENT_MS = 60_000;
/** A probe's result stands this long, so that a flood of `/readyz` makes few upstream calls. */
const PROBE_REUSE_MS = 5_000;

export type ReadinessAnswer = { ready: true } | { ready: false; reason: string };

/**
 * Whether the proxy can serve (`/readyz`): the upstream answered recently or answers a probe now
 * (any HTTP status: it is reachable), and Redis is in use when one is configured.
 */
export class Readiness {
  private probe?: { at: number; reached: Promise<boolean> };

  constructor(
    private readonly fetcher: ObservedFetcher,
    private readonly upstream: string,
    private readonly redis: SharedRedis | undefined,
    private readonly now: () => number,
  ) {}

  async check(): Promise<ReadinessAnswer> {
    if (!(await this.upstreamReached())) return { ready: false, reason: `the upstream ${this.upstream} cannot be reached` };
    const redisDown = this.redis?.downReason;
    if (redisDown !== undefined) return { ready: false, reason: `redis is unavailable: ${redisDown}` };
    return { ready: true };
  }

  private upstreamReached(): Promise<boolean> {
    const now = this.now();
    if (this.fetcher.upstreamReachedAt > now - RECENT_MS) return Promise.resolve(true);
    if (this.probe && this.probe.at > now - PROBE_REUSE_MS) return this.probe.reached;
    const reached = this.fetcher.fetch({ url: `${this.upstream}/`, method: 'HEAD', allowRedirect: () => false }).then(
      () => true,
      // A redirect or an oversized answer is an answer: the upstream is there.
      (error: unknown) => error instanceof FetchError && ['redirect_refused', 'too_many_redirects', 'too_large'].includes(error.failure),
    );
    this.probe = { at: now, reached };
    return reached;
  }
}
