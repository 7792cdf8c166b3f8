import { ConcurrencyLimit } from '../http/concurrency.ts';
import type { Credential } from './api.ts';
import type { Fetcher } from './fetch.ts';

/** Existence checks running at once, across all requests. */
const MAX_CONCURRENT_CHECKS = 8;

/** Whether documentation pages exist: HEAD requests on the docs domains, without a credential. */
export class PageExistence {
  // Projects with dozens of versions must not turn one page view into dozens of simultaneous requests.
  private readonly checks = new ConcurrencyLimit(MAX_CONCURRENT_CHECKS);

  constructor(
    private readonly fetcher: Fetcher,
    /** Hosts a check may be redirected to. */
    private readonly isDocsHost: (target: URL) => boolean,
  ) {}

  /**
   * True (200) or false (404, 410) when the docs domain says so; null when it cannot be told,
   * as for readers of private documentation (session mode: the check carries no cookie).
   */
  async exists(url: string, credential: Credential): Promise<boolean | null> {
    if (credential.kind !== 'token') return null;
    return this.checks.run(async () => {
      try {
        const response = await this.fetcher.fetch({ url, method: 'HEAD', allowRedirect: this.isDocsHost });
        if (response.status === 200) return true;
        return response.status === 404 || response.status === 410 ? false : null;
      } catch {
        return null;
      }
    });
  }
}
