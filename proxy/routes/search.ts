import { Router } from 'express';
import { formatSearchQuery, parseSearchQuery, type ProjectTerm, type SearchQuery } from '../search/query.ts';
import { cacheKey, integerParam, onlyParams, queryOf, requiredParam } from '../http/params.ts';
import { ProxyError } from '../http/errors.ts';
import { cacheScopeOf, credentialOf, sendCachedJson, type ProxyContext } from '../context.ts';
import type { ScopedProject } from '../upstream/metadata.ts';

export const SEARCH_PARAMS = ['q', 'page', 'page_size'] as const;
export const MAX_QUERY_LENGTH = 1000;
export const MAX_PAGE_SIZE = 50;
export const MAX_PAGE = 1000;

const notAllowed = (slug: string) => new ProxyError(403, 'project_not_allowed', `Project "${slug}" cannot be searched through this proxy.`);

/**
 * The query the upstream is sent: project terms checked against the scope, `user:` terms dropped,
 * `subprojects:` kept only when subprojects are in scope, and the configured projects added when
 * the query names none.
 */
export function scopedQuery(query: SearchQuery, scope: ReadonlyMap<string, ScopedProject>, configured: readonly string[], withSubprojects: boolean): SearchQuery {
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
  return { text: query.text, projects, subprojects, users: [] };
}

function pageLink(q: string, page: number, pageSize: number): string {
  return `/api/v3/search/?${new URLSearchParams({ q, page: String(page), page_size: String(pageSize) })}`;
}

export function searchRouter(context: ProxyContext): Router {
  const router = Router();
  const { config } = context;

  router.get('/api/v3/search/', async (req, res) => {
    const params = queryOf(req.url);
    onlyParams(params, SEARCH_PARAMS);
    const q = requiredParam(params, 'q', MAX_QUERY_LENGTH);
    const page = integerParam(params, 'page', 1, 1, MAX_PAGE);
    const pageSize = integerParam(params, 'page_size', MAX_PAGE_SIZE, 1, MAX_PAGE_SIZE);
    const credential = credentialOf(context, req);
    const scopeKey = cacheScopeOf(credential);
    params.set('q', q.normalize('NFC').replace(/\s+/g, ' ').trim());
    const key = cacheKey('/api/v3/search/', params, SEARCH_PARAMS, scopeKey);
    await sendCachedJson(context, req, res, key, config.searchTtl, async () => {
      const scope = await context.metadata.scope(credential, scopeKey);
      const query = scopedQuery(parseSearchQuery(params.get('q')!), scope, config.projects, config.subprojects);
      const answer = await context.api.search({ query, page, pageSize }, credential);
      // A v2 upstream always includes subprojects; keep only what is in scope.
      const results = answer.results.filter((result) => scope.has(result.project.slug));
      return {
        count: answer.count,
        next: answer.hasNext ? pageLink(q, page + 1, pageSize) : null,
        previous: page > 1 ? pageLink(q, page - 1, pageSize) : null,
        projects: answer.projects,
        query: formatSearchQuery(query),
        results,
      };
    });
  });

  return router;
}
