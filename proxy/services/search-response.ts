import type { SearchResponse, SearchResult } from '../../contract/index.ts';
import { parseSearchQuery } from '../../extraction/search-query.ts';
import { readersWords } from '../../search/index.ts';
import type { SearchAnswer, SearchFrame } from '../upstream/api.ts';
import { resultRehighlighted } from './highlights.ts';

export const MAX_PAGE = 1000;

/** The page of a search a reader asked for, and where the proxy is mounted as the request reached it. */
export interface SearchPage {
  words: string;
  page: number;
  pageSize: number;
  /** The links of the answer point there. */
  base: string;
}

/** An absolute link to another page of the same search, as the upstream's `next` and `previous` are. */
function pageLink(base: string, q: string, page: number, pageSize: number): string {
  return `${base}/api/v3/search/?${new URLSearchParams({ q, page: String(page), page_size: String(pageSize) })}`;
}

/**
 * The answer for the scope but its results (an empty list where they go): `kept` of the upstream's
 * results are in scope, `dropped` are not.
 */
export function searchResponseShell(
  frame: SearchFrame,
  kept: number,
  dropped: number,
  inScope: Pick<ReadonlySet<string>, 'has'>,
  asked: SearchPage,
): SearchResponse {
  const { words, page, pageSize, base } = asked;
  return {
    // Once results are dropped the upstream's total is no longer true: count only what is known to be kept.
    count: dropped === 0 ? frame.count : kept,
    next: frame.hasNext && page < MAX_PAGE ? pageLink(base, words, page + 1, pageSize) : null,
    previous: page > 1 ? pageLink(base, words, page - 1, pageSize) : null,
    projects: frame.projects.filter((project) => inScope.has(project.slug)),
    query: words,
    results: [],
    indexing: frame.indexing,
  };
}

/** A result as doclens answers it: its highlights marked as doclens marks its own answers (only the reader's words). */
export function resultFor(asked: Pick<SearchPage, 'words'>): (result: SearchResult) => SearchResult {
  const wordsOf = readersWords(parseSearchQuery(asked.words).text);
  return (result) => resultRehighlighted(result, wordsOf);
}

/** The upstream's answer rebuilt for the projects in scope (a v2 upstream always includes subprojects). */
export function searchResponse(answer: SearchAnswer, inScope: Pick<ReadonlySet<string>, 'has'>, asked: SearchPage): SearchResponse {
  const results = answer.results.filter((result) => inScope.has(result.project.slug)).map(resultFor(asked));
  // The results take the place of the shell's empty list, as they would in the order of its fields.
  return { ...searchResponseShell(answer, results.length, answer.results.length - results.length, inScope, asked), results };
}
