import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SearchResponse, SearchResult } from '../../contract/index.ts';
import { isAbort, ProxyRequestError, type DataSource } from '../shared/api.ts';
import { scopedQuery, type SearchScope } from './scope.ts';

export type SearchStatus = 'idle' | 'loading' | 'results' | 'empty' | 'error' | 'offline';

/** Answers kept for going back to earlier queries (Backspace), the oldest dropped first. */
const CACHE_LIMIT = 50;
/** Milliseconds before partial results (the host still indexing) are asked for again. */
const INDEXING_RETRY_MS = 1000;

/** What the controller reads from its host each time it asks. */
export interface SearchParameters {
  source: DataSource;
  /** The reader's words, as typed. */
  words: string;
  scope: SearchScope;
  pageSize: number;
  /** Milliseconds of typing pause before a request. */
  debounce: number;
  /** Fewer characters than this search nothing. */
  minLength: number;
}

/**
 * The search requests of a search field: typing is debounced into one request, a new request aborts the
 * one under way and an answer to an earlier one is never shown, answers are kept per query (so going
 * back to an earlier query answers at once), partial answers (the host still indexing) are asked again
 * shortly and never kept, and further pages extend the results.
 */
export class SearchRequestController implements ReactiveController {
  status: SearchStatus = 'idle';
  results: SearchResult[] = [];
  /** Results in all pages. */
  count = 0;
  /** The answer shown is partial: the host is still indexing. */
  indexing = false;
  nextPage: number | null = null;
  loadingMore = false;

  private timer?: ReturnType<typeof setTimeout>;
  private abortController?: AbortController;
  /** Counts requests: an answer to any but the last is dropped. */
  private requestId = 0;
  private readonly cache = new Map<string, SearchResponse>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly parameters: () => SearchParameters,
    /** The results were replaced (not extended by a further page). */
    private readonly replaced: () => void,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.cancel();
  }

  /** The words changed: the answer kept for them at once, else a request after the typing pause. */
  schedule(): void {
    clearTimeout(this.timer);
    const { words, minLength, debounce } = this.parameters();
    if (words.trim().length < minLength) {
      this.drop();
      this.results = [];
      this.set('idle');
      this.replaced();
      return;
    }
    const cached = this.cache.get(this.cacheKey(1));
    if (cached) {
      this.drop();
      this.apply(cached, 1, false);
      return;
    }
    this.set('loading');
    this.timer = setTimeout(() => void this.run(1, false), debounce);
  }

  /** Asks for the first page again, now. */
  retry(): void {
    void this.run(1, false);
  }

  /** Asks for the next page, whose results are added to those shown. */
  more(): void {
    if (this.nextPage) void this.run(this.nextPage, true);
  }

  /** Stops waiting and the request under way (the dialog closed). */
  cancel(): void {
    clearTimeout(this.timer);
    this.abortController?.abort();
  }

  /** Nothing under way is shown any more. */
  private drop(): void {
    this.requestId++;
    this.abortController?.abort();
  }

  private set(status: SearchStatus): void {
    this.status = status;
    this.host.requestUpdate();
  }

  private cacheKey(page: number): string {
    const { scope, words, pageSize } = this.parameters();
    return `${scopedQuery(scope, words)}|${page}|${pageSize}`;
  }

  private async run(page: number, append: boolean): Promise<void> {
    this.abortController?.abort();
    const abortController = new AbortController();
    this.abortController = abortController;
    const id = ++this.requestId;
    const key = this.cacheKey(page);
    if (append) this.loadingMore = true;
    else this.status = 'loading';
    this.host.requestUpdate();
    const { source, scope, words, pageSize } = this.parameters();
    const params = { q: scopedQuery(scope, words), page: String(page), page_size: String(pageSize) };
    try {
      const response = await source.search(params, abortController.signal);
      if (id !== this.requestId) return;
      // Partial results are asked again shortly (typing cancels that), and never kept.
      if (response.indexing) this.timer = setTimeout(() => void this.run(page, append), INDEXING_RETRY_MS);
      else this.cache.set(key, response);
      if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.apply(response, page, append);
    } catch (error) {
      if (isAbort(error) || id !== this.requestId) return;
      this.set(error instanceof ProxyRequestError && error.kind === 'offline' ? 'offline' : 'error');
    } finally {
      if (id === this.requestId) this.loadingMore = false;
      this.host.requestUpdate();
    }
  }

  private apply(response: SearchResponse, page: number, append: boolean): void {
    this.results = append ? [...this.results, ...response.results] : response.results;
    this.count = response.count;
    this.indexing = response.indexing === true;
    this.nextPage = response.next ? page + 1 : null;
    this.set(this.results.length ? 'results' : 'empty');
    if (!append) this.replaced();
  }
}
