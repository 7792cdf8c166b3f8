import type { Metrics } from '../http/metrics.ts';
import { FetchError, Fetcher, type FetchedResponse, type FetchRequest } from './fetch.ts';

/**
 * The fetcher with every call timed and counted (the upstream API and external documentation alike),
 * and each answer from the upstream's own origin remembered: what `/readyz` reads as "upstream reached".
 */
export class ObservedFetcher extends Fetcher {
  /** When the upstream last answered anything (any HTTP status); 0 before it first did. */
  upstreamReachedAt = 0;

  constructor(
    private readonly observer: { metrics: Metrics; upstream: string; now: () => number },
    ...fetcherArguments: ConstructorParameters<typeof Fetcher>
  ) {
    super(...fetcherArguments);
  }

  override async fetch(request: FetchRequest): Promise<FetchedResponse> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const response = await super.fetch(request);
      const { observer } = this;
      if (new URL(request.url).origin === observer.upstream) this.upstreamReachedAt = observer.now();
      observer.metrics.upstreamCall(seconds(), response.status >= 500 ? `status_${response.status}` : undefined);
      return response;
    } catch (error) {
      this.observer.metrics.upstreamCall(seconds(), error instanceof FetchError ? error.failure : 'aborted');
      throw error;
    }
  }
}
