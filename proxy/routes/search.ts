import { formatSearchQuery, parseSearchQuery, queryTokens, type ProjectTerm, type SearchQuery } from '../../extraction/search-query.ts';
import { integerParam, requiredParam } from '../http/params.ts';
import { invalidParameter, ProxyError } from '../http/errors.ts';
import { publicOrigin, type ProxyContext } from '../context.ts';
import type { ScopedProject } from '../upstream/metadata.ts';
import type { SearchResponse } from '../../contract/index.ts';
import { MAX_PAGE, searchResponse, type SearchPage } from '../services/search-response.ts';
import { JobRefused } from '../../runtime/thread-pool.ts';
import { ownBytes, sizeOf } from '../threads/jobs.ts';
import type { UpstreamSearch } from '../upstream/api.ts';
import { joined } from '../upstream/fetch.ts';
import { readSearch } from '../upstream/read-search.ts';
import { SerializedAnswer, type JsonEndpoint } from './cached-json.ts';

export const SEARCH_PARAMS = ['q', 'page', 'page_size'] as const;
export const MAX_QUERY_LENGTH = 1000;
export const MAX_PAGE_SIZE = 50;
/**
 * Upstream answers from this size on are read, rebuilt, serialized and compressed in a worker thread.
 * Below it the work takes the main thread a few milliseconds at most (1–3 ms at 256 KB, 7 ms at 1 MB
 * on a busy machine), less than a trip through the threads' queue would add to the answer.
 */
const SEARCH_IN_THREAD_BYTES = 256 * 1024;
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

/** Why a thread did not do a large answer's work: a busy pool is `overloaded`, an answer too costly for its limits `upstream_too_large`. */
function threadRefusal(error: unknown): never {
  if (!(error instanceof JobRefused)) throw error;
  if (error.reason === 'busy')
    throw new ProxyError(503, 'overloaded', 'The proxy is reading too many large answers at once; try again shortly.', {
      'retry-after': '1',
    });
  throw new ProxyError(502, 'upstream_too_large', 'The hosting service sent a search answer too large for the proxy to read.');
}

/** A large answer's work in a worker thread, its body moved there in the chunks it came in. */
async function inThread(context: ProxyContext, found: UpstreamSearch, inScope: string[], asked: SearchPage): Promise<SerializedAnswer> {
  const chunks = found.chunks.map(ownBytes);
  const transfer = chunks.map((chunk) => chunk.buffer as ArrayBuffer);
  const output = await context.answerThreads
    .run('search', { chunks, reading: found.reading, inScope, asked }, transfer)
    .catch(threadRefusal);
  if ('refused' in output) throw new ProxyError(output.refused.status, output.refused.code, output.refused.message);
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encoded = { ...(output.br && { br: buffer(output.br) }), ...(output.gzip && { gzip: buffer(output.gzip) }) };
  // Partial results (the upstream still indexing) are not kept, as `keep` says of answers made here.
  return new SerializedAnswer(buffer(output.body), encoded, output.etag, !output.indexing);
}

/** Search, rebuilt for the projects in scope. */
export function searchEndpoint(context: ProxyContext): JsonEndpoint<SearchPage, SearchResponse> {
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
    async load(asked, { credential, scope: scopeKey }) {
      const scope = await context.metadata.scope(credential, scopeKey);
      const query = scopedQuery(parseSearchQuery(asked.words), scope, config.projects, config.subprojects);
      const found = await context.api.search({ query, page: asked.page, pageSize: asked.pageSize }, credential);
      try {
        if (sizeOf(found.chunks) >= SEARCH_IN_THREAD_BYTES) return await inThread(context, found, [...scope.keys()], asked);
        return searchResponse(readSearch(joined(found.chunks), found.reading), scope, asked);
      } finally {
        // The body's bytes count in flight until the answer made of them exists.
        found.release();
      }
    },
    // Partial results (the upstream still indexing) are not kept: the next search may find more.
    keep: (answer) => !answer.indexing,
  };
}
