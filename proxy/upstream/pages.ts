import type { AnyNode } from 'domhandler';
import { parseHtml, type ParsedHtml } from '../../extraction/html/parse.ts';
import { ConcurrencyLimit } from '../http/concurrency.ts';
import { GarbageBudget } from './forced-gc.ts';
import { ProxyError } from '../http/errors.ts';
import type { RateLimitStore } from '../http/rate-limit.ts';
import { fetchFailure } from './client.ts';
import type { Fetcher } from './fetch.ts';
import { Memo } from './memo.ts';

/**
 * What a parsed page holds in memory, measured on Sphinx, Django and generated pages of 0.3–1 MB
 * (heap after a full GC, the page's string included): 12–23 times its HTML. Each node takes about
 * 200 bytes and each attribute about 200 more, and the text nodes keep slices of the page's HTML, so
 * the whole string stays alive (up to 2 bytes a character). The figures below round up.
 */
const BYTES_PER_NODE = 200;
const BYTES_PER_ATTRIBUTE = 220;
const BYTES_PER_CHARACTER = 2;

/** The memory a parsed page takes, counted from its tree. */
export function parsedPageBytes(page: ParsedHtml): number {
  let nodes = 0;
  let attributes = 0;
  const pending: AnyNode[] = [page.document];
  for (let node = pending.pop(); node; node = pending.pop()) {
    nodes++;
    if ('attribs' in node) attributes += Object.keys(node.attribs).length;
    if ('children' in node) for (const child of node.children) pending.push(child);
  }
  return page.size * BYTES_PER_CHARACTER + nodes * BYTES_PER_NODE + attributes * BYTES_PER_ATTRIBUTE;
}

/**
 * Pages fetched and parsed at once: what is being parsed is not in the cache yet, so this bounds the
 * memory outside it, and a page waiting its turn does not use up its fetch deadline.
 */
const CONCURRENT_LOADS = 2;

/** Parsed pages that may be dead before the garbage is collected (see `GarbageBudget`). */
const GARBAGE_BYTES = 32 * 1024 * 1024;

/** A page with the memory it takes, counted once when it is parsed. */
interface SizedPage {
  page: ParsedHtml;
  bytes: number;
}

/**
 * Pages the proxy reads itself — on allowlisted external domains, and docs-domain pages for heading
 * previews — fetched and parsed once: every fragment asked of a page is found in the same tree.
 */
export class FetchedPages {
  private readonly pages: Memo<SizedPage>;
  private readonly loads = new ConcurrencyLimit(CONCURRENT_LOADS);
  // Every parsed page ends as garbage: dropped at once when too big to keep, or evicted later.
  private readonly garbage = new GarbageBudget(GARBAGE_BYTES);

  constructor(
    private readonly fetcher: Fetcher,
    private readonly isExternalHost: (host: URL) => boolean,
    private readonly limiter: RateLimitStore,
    maxBytes: number,
    ttlSeconds: number,
  ) {
    this.pages = new Memo<SizedPage>({
      maxSize: maxBytes,
      sizeOf: (sized) => sized.bytes,
      ttlSeconds,
      staleWhileRefreshing: false,
    });
  }

  async get(pageUrl: string): Promise<ParsedHtml> {
    return (await this.pages.get(pageUrl, () => this.loads.run(() => this.load(pageUrl)))).page;
  }

  get bytes(): number {
    return this.pages.size;
  }

  private async load(pageUrl: string): Promise<SizedPage> {
    const url = new URL(pageUrl);
    const wait = await this.limiter.take(url.hostname);
    if (wait > 0) {
      throw new ProxyError(429, 'rate_limited', `Too many pages requested from ${url.hostname}; try again in ${wait} s.`, {
        'retry-after': String(wait),
      });
    }
    let response;
    try {
      response = await this.fetcher.fetch({ url: pageUrl, allowRedirect: this.isExternalHost });
    } catch (error) {
      throw fetchFailure(error);
    }
    if (response.status === 404 || response.status === 410)
      throw new ProxyError(404, 'page_not_found', `${url.host} has no page at ${url.pathname}.`);
    if (response.status !== 200) throw new ProxyError(502, 'upstream_error', `${url.host} answered ${response.status}.`);
    if (!/html/i.test(response.contentType))
      throw new ProxyError(502, 'upstream_invalid_response', `${url.host} did not answer with an HTML page.`);
    const page = parseHtml(response.body.toString('utf8'));
    const bytes = parsedPageBytes(page);
    this.garbage.add(bytes);
    return { page, bytes };
  }
}
