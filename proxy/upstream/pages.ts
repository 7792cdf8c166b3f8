import { Cache, timed, type Freshness, type Timed } from '../http/cache.ts';
import { ConcurrencyLimit } from '../http/concurrency.ts';
import { ProxyError } from '../http/errors.ts';
import type { RateLimitStore } from '../http/rate-limit.ts';
import { fetchFailure } from './client.ts';
import { joined, type FetchedResponse, type Fetcher } from './fetch.ts';

/**
 * Pages fetched at once: what is being read is not in the cache yet, so this bounds the memory
 * outside it, and a page waiting its turn does not use up its fetch deadline.
 */
const CONCURRENT_LOADS = 2;

/** Seconds a page that proved too costly to extract is refused without trying again. */
const REFUSED_TTL_SECONDS = 30;

/** A page's HTML as fetched (parsed in a worker thread for each extraction), and whether it was found too costly. */
interface FetchedPage {
  html: Buffer;
  /** Until when (ms) extractions of the page are refused with `refusal`, after one proved too costly. */
  refusedUntil: number;
  refusal?: ProxyError;
}

/**
 * Pages the proxy reads itself, on allowlisted external domains, fetched once and kept as HTML:
 * every fragment asked of a page is extracted from the same copy. Pages' content from the upstream's
 * Embed API that the proxy reads around targets is kept so too (`extractContent`).
 */
export class FetchedPages {
  private readonly pages: Cache<Timed<FetchedPage>>;
  private readonly loads = new ConcurrencyLimit(CONCURRENT_LOADS);

  constructor(
    private readonly fetcher: Pick<Fetcher, 'fetch'>,
    private readonly isExternalHost: (host: URL) => boolean,
    private readonly limiter: RateLimitStore,
    maxBytes: number,
    /** A page is fetched again after its `ttl`; a stale copy stands in while the fetch fails. */
    private readonly freshness: Freshness,
    staleCovers: (error: unknown) => boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.pages = new Cache({
      maxBytes,
      sizeOf: (page) => page.value.html.length,
      // A page's old copy also stands in while the domain's own rate limit refuses to fetch it again.
      staleCovers: (error) => staleCovers(error) || (error instanceof ProxyError && error.code === 'rate_limited'),
      now,
    });
  }

  /**
   * Runs `extract` on the page's HTML. A page `extract` finds too costly (a ProxyError with code
   * `page_too_complex`) is refused at once for a short while, whatever is asked of it.
   */
  extract<T>(pageUrl: string, extract: (html: Buffer) => Promise<T>): Promise<T> {
    return this.extractFrom(pageUrl, () => this.load(pageUrl), extract);
  }

  /**
   * Runs `extract` on a page's content as the upstream's Embed API answers it (`load`: a page without a fragment), kept
   * under `key` beside the pages fetched, with the reader's cache scope in it (the content may be private). A preview read
   * around its target (a definition whose text follows its entry) needs the page's whole content: for each of the
   * methods on Django's `querysets.html`, 480 KB that the upstream would write and send again.
   */
  extractContent<T>(key: string, load: () => Promise<string>, extract: (html: Buffer) => Promise<T>): Promise<T> {
    return this.extractFrom(`content ${key}`, async () => ({ html: Buffer.from(await load()), refusedUntil: 0 }), extract);
  }

  private async extractFrom<T>(key: string, load: () => Promise<FetchedPage>, extract: (html: Buffer) => Promise<T>): Promise<T> {
    const { entry } = await this.pages.get(key, () => this.loads.run(async () => timed(await load(), this.freshness, this.now())));
    const page = entry.value;
    if (page.refusal && page.refusedUntil > this.now()) throw page.refusal;
    try {
      return await extract(page.html);
    } catch (error) {
      if (error instanceof ProxyError && error.code === 'page_too_complex') {
        page.refusal = error;
        page.refusedUntil = this.now() + REFUSED_TTL_SECONDS * 1000;
      }
      throw error;
    }
  }

  get bytes(): number {
    return this.pages.size.bytes;
  }

  private async load(pageUrl: string): Promise<FetchedPage> {
    const url = new URL(pageUrl);
    const wait = await this.limiter.take(url.hostname);
    if (wait > 0) {
      throw new ProxyError(429, 'rate_limited', `Too many pages requested from ${url.hostname}; try again in ${wait} s.`, {
        'retry-after': String(wait),
      });
    }
    let response: FetchedResponse;
    try {
      response = await this.fetcher.fetch({ url: pageUrl, allowRedirect: this.isExternalHost });
    } catch (error) {
      throw fetchFailure(error, url.host);
    }
    if (response.status === 404 || response.status === 410)
      throw new ProxyError(404, 'page_not_found', `${url.host} has no page at ${url.pathname}.`);
    if (response.status !== 200) throw new ProxyError(502, 'upstream_error', `${url.host} answered ${response.status}.`);
    if (!/html/i.test(response.contentType))
      throw new ProxyError(502, 'upstream_invalid_response', `${url.host} did not answer with an HTML page.`);
    return { html: joined(response.chunks), refusedUntil: 0 };
  }
}
