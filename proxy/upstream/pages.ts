import { parseHtml, type ParsedHtml } from '../extraction/parse.ts';
import { ProxyError } from '../http/errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { fetchFailure } from './api.ts';
import type { Fetcher } from './fetch.ts';
import { Memo } from './memo.ts';

/** Parsed DOM trees take several times the bytes of their HTML. */
const PARSED_SIZE_FACTOR = 4;

/**
 * Pages the proxy reads itself — on allowlisted external domains, and docs-domain pages for heading
 * previews — fetched and parsed once: every fragment asked of a page is found in the same tree.
 */
export class FetchedPages {
  private readonly pages: Memo<ParsedHtml>;

  constructor(
    private readonly fetcher: Fetcher,
    private readonly isExternalHost: (host: URL) => boolean,
    private readonly limiter: RateLimiter,
    maxBytes: number,
    ttlSeconds: number,
  ) {
    this.pages = new Memo<ParsedHtml>({
      maxSize: maxBytes,
      sizeOf: (page) => Math.max(1, page.size * PARSED_SIZE_FACTOR),
      ttlSeconds,
      staleWhileRefreshing: false,
    });
  }

  async get(pageUrl: string): Promise<ParsedHtml> {
    return this.pages.get(pageUrl, () => this.load(pageUrl));
  }

  get bytes(): number {
    return this.pages.size;
  }

  private async load(pageUrl: string): Promise<ParsedHtml> {
    const url = new URL(pageUrl);
    const wait = this.limiter.take(url.hostname);
    if (wait > 0) {
      throw new ProxyError(429, 'rate_limited', `Too many pages requested from ${url.hostname}; try again in ${wait} s.`, { 'retry-after': String(wait) });
    }
    let response;
    try {
      response = await this.fetcher.fetch({ url: pageUrl, allowRedirect: this.isExternalHost });
    } catch (error) {
      throw fetchFailure(error);
    }
    if (response.status === 404 || response.status === 410) throw new ProxyError(404, 'page_not_found', `${url.host} has no page at ${url.pathname}.`);
    if (response.status !== 200) throw new ProxyError(502, 'upstream_error', `${url.host} answered ${response.status}.`);
    if (!/html/i.test(response.contentType)) throw new ProxyError(502, 'upstream_invalid_response', `${url.host} did not answer with an HTML page.`);
    return parseHtml(response.body.toString('utf8'));
  }
}
