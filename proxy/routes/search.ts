import { formatSearchQuery, parseSearchQuery, queryTokens, type ProjectTerm, type SearchQuery } from '../../extraction/search-query.ts';
import { integerParam, requiredParam } from '../http/params.ts';
import { invalidParameter, ProxyError } from '../http/errors.ts';
import { publicOrigin, type ProxyContext } from '../context.ts';
import type { ScopedProject } from '../upstream/metadata.ts';
import type { SearchResponse } from '../../contract/index.ts';
import type { JsonEndpoint } from './cached-json.ts';

export const SEARCH_PARAMS = ['q', 'page', 'page_size'] as const;
export const MAX_QUERY_LENGTH = 1000;
export const MAX_PAGE_SIZE = 50;
export const MAX_PAGE = 1000;
/** The longest `q` the hosting service accepts; the query sent, project terms included, stays within it. */
export const UPSTREAM_MAX_QUERY_LENGTH = 1000;

const notAllowed = (slug: string) => new ProxyError(403, 'project_not_allowed', `Project "${slug}" cannot be searched through this proxy.`);

/**
 * The query the upstream is sent: project terms checked against the scope, `user:` terms dropped,
 * `subprojects:` kept only when subprojects are in scope, and the configured projects added when
 * the query names none.
 */
export function scopedQuery(
  query: SearchQuery,
  scope: ReadonlyMap<string, ScopedProject>,
  configured: readonly string[],
  withSubprojects: boolean,
): SearchQuery {
  const check = (term: ProjectTerm) => {
    if (!scope.has(term.slug)) throw notAllowed(term.slug);
    return term;
  };
  const projects = query.projects.map(check);
  const subprojects: ProjectTerm[] = [];
  for (const term of query.subprojects.map(check)) {
    // A project searched "with its subprojects" when they are out of scope is searched alone.
    if (withSubprojects) subprojects.push(term);
    else projects.push(term);
  }
  if (projects.length === 0 && subprojects.length === 0) {
    const defaults = configured.filter((slug) => scope.has(slug)).map((slug) => ({ slug }));
    if (defaults.length === 0) throw new ProxyError(502, 'upstream_error', 'None of the configured projects exists upstream.');
    (withSubprojects ? subprojects : projects).push(...defaults);
  }
  const scoped = { words: query.words, text: query.text, projects, subprojects, users: [] };
  if (formatSearchQuery(scoped).length > UPSTREAM_MAX_QUERY_LENGTH) {
    throw invalidParameter(
      'q',
      `is too long: with the projects it is limited to, the search would exceed ${UPSTREAM_MAX_QUERY_LENGTH} characters`,
    );
  }
  return scoped;
}

/** An absolute link to another page of the same search, as the upstream's `next` and `previous` are. */
function pageLink(base: string, q: string, page: number, pageSize: number): string {
  return `${base}/api/v3/search/?${new URLSearchParams({ q, page: String(page), page_size: String(pageSize) })}`;
}

interface SearchInput {
  words: string;
  page: number;
  pageSize: number;
  /** Where the proxy is mounted, as this request reached it: the links of the answer point there. */
  base: string;
}

/** Search, rebuilt for the projects in scope. */
export function searchEndpoint(context: ProxyContext): JsonEndpoint<SearchInput, SearchResponse> {
  const { config } = context;
  return {
    params: SEARCH_PARAMS,
    freshness: 'searchTtl',
    read({ req, query }) {
      const q = requiredParam(query, 'q', MAX_QUERY_LENGTH);
      const page = integerParam(query, 'page', 1, 1, MAX_PAGE);
      const pageSize = integerParam(query, 'page_size', MAX_PAGE_SIZE, 1, MAX_PAGE_SIZE);
      // Spellings of one search share one cache entry: spacing as the upstream splits it, numbers as numbers.
      const words = queryTokens(q.normalize('NFC')).join(' ');
      query.set('q', words);
      if (query.has('page')) query.set('page', String(page));
      if (query.has('page_size')) query.set('page_size', String(pageSize));
      const origin = publicOrigin(req, config.trustProxy);
      if (!origin) throw new ProxyError(400, 'bad_request', 'A search needs a valid Host header: its answer links to the next page.');
      return { words, page, pageSize, base: `${origin}${req.baseUrl}` };
    },
    varies: ({ base }) => base,
    async load({ words, page, pageSize, base }, { credential, scope: scopeKey }) {
      const scope = await context.metadata.scope(credential, scopeKey);
      const query = scopedQuery(parseSearchQuery(words), scope, config.projects, config.subprojects);
      const answer = await context.api.search({ query, page, pageSize }, credential);
      // A v2 upstream always includes subprojects; keep only what is in scope.
      const results = answer.results.filter((result) => scope.has(result.project.slug));
      const dropped = answer.results.length - results.length;
      return {
        // Once results are dropped the upstream's total is no longer true: count only what is known to be kept.
        count: dropped === 0 ? answer.count : results.length,
        next: answer.hasNext && page < MAX_PAGE ? pageLink(base, words, page + 1, pageSize) : null,
        previous: page > 1 ? pageLink(base, words, page - 1, pageSize) : null,
        projects: answer.projects.filter((project) => scope.has(project.slug)),
        query: words,
        results,
        indexing: answer.indexing,
      } satisfies SearchResponse;
    },
    // Partial results (the upstream still indexing) are not kept: the next search may find more.
    keep: (answer) => !answer.indexing,
  };
}
