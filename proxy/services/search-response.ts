import type { SearchResponse } from '../../contract/index.ts';
import { parseSearchQuery } from '../../extraction/search-query.ts';
import { readersWords } from '../../search/index.ts';
import type { SearchAnswer } from '../upstream/api.ts';
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
 * The upstream's answer rebuilt for the projects in scope (a v2 upstream always includes subprojects), its
 * highlights marked as doclens marks its own answers.
 */
export function searchResponse(answer: SearchAnswer, inScope: Pick<ReadonlySet<string>, 'has'>, asked: SearchPage): SearchResponse {
  const { words, page, pageSize, base } = asked;
  const kept = answer.results.filter((result) => inScope.has(result.project.slug));
  const dropped = answer.results.length - kept.length;
  const wordsOf = readersWords(parseSearchQuery(words).text);
  const results = kept.map((result) => resultRehighlighted(result, wordsOf));
  return {
    // Once results are dropped the upstream's total is no longer true: count only what is known to be kept.
    count: dropped === 0 ? answer.count : results.length,
    next: answer.hasNext && page < MAX_PAGE ? pageLink(base, words, page + 1, pageSize) : null,
    previous: page > 1 ? pageLink(base, words, page - 1, pageSize) : null,
    projects: answer.projects.filter((project) => inScope.has(project.slug)),
    query: words,
    results,
    indexing: answer.indexing,
  };
}
