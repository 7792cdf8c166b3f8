import type { SearchQuery } from '../search/query.ts';
import { formatSearchQuery } from '../search/query.ts';
import { ProxyError } from '../http/errors.ts';
import { FetchError, type Fetcher } from './fetch.ts';
// The widget's reading of the API is the contract: results are normalized to exactly these shapes.
import type { SearchBlock, SearchResult } from '../../widget/shared/api.ts';

/** Whose rights an upstream request uses. */
export type Credential = { kind: 'token'; token: string } | { kind: 'session'; cookie: string } | { kind: 'anonymous' };

export interface EmbedParams {
  url: string;
  doctool?: string | undefined;
  doctoolversion?: string | undefined;
  maincontent?: string | undefined;
}

export interface EmbedResult {
  url: string;
  fragment: string | null;
  content: string;
  external: boolean;
}

/**
 * A project in the hosting API's v3 shape (`hosting-api.md` 2.1), with the fields that are safe to show
 * any reader: not its repository, users, builds or the upstream's own API links.
 */
export interface ProjectSummary {
  id: number | null;
  slug: string;
  name: string;
  language: { code: string; name: string };
  programming_language: { code: string; name: string } | null;
  default_version: string;
  urls: { documentation: string; home: string };
  tags: string[];
  /** The parent project (as a project object without relations of its own). */
  subproject_of: ProjectSummary | null;
  translation_of: ProjectSummary | null;
}

/** A version in the hosting API's v3 shape (2.2), without its repository, build and dashboard fields. */
export interface VersionSummary {
  id: number | null;
  slug: string;
  verbose_name: string;
  type: string;
  active: boolean;
  hidden: boolean;
  built: boolean;
  ref: string | null;
  privacy_level: string;
  downloads: Record<string, string>;
  urls: { documentation: string };
}

/** A subproject relationship in the v3 shape (2.4). */
export interface SubprojectSummary {
  alias: string;
  child: ProjectSummary;
}

export interface SearchParams {
  query: SearchQuery;
  page: number;
  pageSize: number;
}

/** The parts of a Search API v3 answer the widget reads. */
export interface SearchAnswer {
  count: number;
  hasNext: boolean;
  projects: { slug: string; versions: { slug: string }[] }[];
  query: string;
  results: SearchResult[];
  /** The upstream is still indexing some version searched (the local docs host says so): the results are partial. */
  indexing: boolean;
}

type Json = Record<string, unknown>;

const asString = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const invalidResponse = (what: string) => new ProxyError(502, 'upstream_invalid_response', `The hosting service answered with ${what}.`);

/** The `results` list of an answer; an answer without one is not the answer asked for. */
function resultsOf(data: Json): unknown[] {
  if (!Array.isArray(data.results)) throw invalidResponse('no list of results');
  return data.results;
}

/** The `count` of a search answer: absent (then the results on the page), or a whole number of results. */
function countOf(data: Json, results: unknown[]): number {
  if (data.count === undefined) return results.length;
  if (typeof data.count !== 'number' || !Number.isSafeInteger(data.count) || data.count < results.length) throw invalidResponse('an impossible count');
  return data.count;
}

/**
 * The hosting service's API, as the proxy uses it: reads only, normalized to the v3 shapes the widget
 * reads, with errors turned into `ProxyError`s carrying the proxy's own messages only (upstream text
 * can hold anything: secrets in any spelling, markup, terminal escapes).
 */
export class UpstreamApi {
  constructor(
    private readonly fetcher: Fetcher,
    /** Origin of the upstream API. */
    private readonly origin: string,
    readonly version: 'v3' | 'v2',
  ) {}

  async embed(params: EmbedParams, credential: Credential): Promise<EmbedResult> {
    if (this.version === 'v2') {
      const data = await this.get('/api/v2/embed/', { url: params.url }, credential);
      const content = asArray(data.content).map((part) => asString(part)).join('\n');
      if (!content.trim()) throw new ProxyError(404, 'not_found', 'No such section upstream.');
      const hash = params.url.indexOf('#');
      return { url: params.url, fragment: hash === -1 ? null : params.url.slice(hash + 1), content, external: false };
    }
    const data = await this.get('/api/v3/embed/', { ...params }, credential);
    if (typeof data.content !== 'string') throw invalidResponse('no content');
    return {
      url: asString(data.url, params.url),
      fragment: typeof data.fragment === 'string' ? data.fragment : null,
      content: asString(data.content),
      external: data.external === true,
    };
  }

  async search({ query, page, pageSize }: SearchParams, credential: Credential): Promise<SearchAnswer> {
    if (this.version === 'v2') {
      const project = query.projects[0] ?? query.subprojects[0];
      const data = await this.get(
        '/api/v2/search/',
        { q: query.text, project: project?.slug, version: project?.version, page: String(page), page_size: String(pageSize) },
        credential,
      );
      const results = resultsOf(data).map((item) => {
        const result = asObject(item);
        return searchResult({
          ...result,
          project: { slug: asString(result.project), alias: typeof result.project_alias === 'string' ? result.project_alias : null },
          version: { slug: asString(result.version) },
        });
      });
      return this.searchAnswer(data, results, formatSearchQuery(query));
    }
    const data = await this.get('/api/v3/search/', { q: formatSearchQuery(query), page: String(page), page_size: String(pageSize) }, credential);
    return this.searchAnswer(data, resultsOf(data).map((item) => searchResult(asObject(item))), asString(data.query));
  }

  async project(slug: string, credential: Credential): Promise<ProjectSummary> {
    if (this.version === 'v2') return projectSummaryV2(await this.projectV2(slug));
    return projectSummary(await this.get(`/api/v3/projects/${encodeURIComponent(slug)}/`, {}, credential));
  }

  async versions(slug: string, credential: Credential): Promise<VersionSummary[]> {
    if (this.version === 'v2') {
      const project = await this.projectV2(slug);
      const data = await this.get(`/api/v2/project/${encodeURIComponent(String(project.id))}/active_versions/`, {}, { kind: 'anonymous' });
      const docs = asString(project.canonical_url).replace(/\/[^/]+\/[^/]*\/?$/, '/');
      return asArray(data.versions).map((item) => versionSummaryV2(asObject(item), docs, asString(project.language, 'en')));
    }
    const items = await this.list(`/api/v3/projects/${encodeURIComponent(slug)}/versions/`, credential);
    return items.map(versionSummary);
  }

  async translations(slug: string, credential: Credential): Promise<ProjectSummary[]> {
    if (this.version === 'v2') return [];
    return (await this.list(`/api/v3/projects/${encodeURIComponent(slug)}/translations/`, credential)).map((item) => projectSummary(item));
  }

  async subprojects(slug: string, credential: Credential): Promise<SubprojectSummary[]> {
    if (this.version === 'v2') return [];
    const items = await this.list(`/api/v3/projects/${encodeURIComponent(slug)}/subprojects/`, credential);
    return items.map((item) => ({ alias: asString(item.alias), child: projectSummary(asObject(item.child)) }));
  }

  private async projectV2(slug: string): Promise<Json> {
    const data = await this.get('/api/v2/project/', { slug }, { kind: 'anonymous' });
    const project = asArray(data.results).map(asObject).find((item) => item.slug === slug);
    if (!project) throw new ProxyError(404, 'not_found', `No project "${slug}" upstream.`);
    return project;
  }

  private searchAnswer(data: Json, results: SearchResult[], query: string): SearchAnswer {
    if (data.next !== undefined && data.next !== null && typeof data.next !== 'string') throw invalidResponse('an invalid next page');
    return {
      count: countOf(data, results),
      hasNext: typeof data.next === 'string',
      projects: asArray(data.projects).map((item) => {
        const project = asObject(item);
        return { slug: asString(project.slug), versions: asArray(project.versions).map((version) => ({ slug: asString(asObject(version).slug) })) };
      }),
      query,
      results,
      indexing: data.indexing === true,
    };
  }

  /** Every item of a paginated list (lists the widget needs are short; at most 10 pages are read). */
  private async list(path: string, credential: Credential): Promise<Json[]> {
    const items: Json[] = [];
    let offset = 0;
    for (let pageCount = 0; pageCount < 10; pageCount++) {
      const data = await this.get(path, { limit: '100', offset: String(offset) }, credential);
      const results = resultsOf(data).map(asObject);
      items.push(...results);
      if (typeof data.next !== 'string' || results.length === 0) break;
      offset += results.length;
    }
    return items;
  }

  private async get(path: string, query: Record<string, string | undefined>, credential: Credential): Promise<Json> {
    const url = new URL(path, this.origin);
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    // API v2's endpoints are public: no credential goes to them.
    if (this.version === 'v3' && credential.kind === 'token') headers.authorization = `Token ${credential.token}`;
    if (this.version === 'v3' && credential.kind === 'session') headers.cookie = credential.cookie;
    let response;
    try {
      // API calls never follow a redirect to another host: the credential must stay with the API.
      response = await this.fetcher.fetch({ url: url.href, headers, allowRedirect: (target) => target.origin === this.origin });
    } catch (error) {
      throw fetchFailure(error);
    }
    // Error bodies are never read: only the status says what happened.
    if (response.status < 200 || response.status >= 300) throw this.statusError(response.status, credential);
    let data: unknown;
    try {
      data = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw invalidResponse('a body that is not JSON');
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw invalidResponse('unexpected JSON');
    return data as Json;
  }

  private statusError(status: number, credential: Credential): ProxyError {
    if (status === 404) return new ProxyError(404, 'not_found', 'Not found upstream.');
    if (status === 400) return new ProxyError(400, 'bad_request', 'The hosting service refused the request as invalid.');
    if ((status === 401 || status === 403) && credential.kind === 'session') {
      return new ProxyError(403, 'not_found', 'You do not have access to this documentation.');
    }
    if (status === 401 || status === 403) return new ProxyError(502, 'upstream_error', "The hosting service refused the proxy's credentials.");
    if (status === 429) return new ProxyError(503, 'upstream_error', 'The hosting service is rate limiting the proxy; try again shortly.', { 'retry-after': '30' });
    return new ProxyError(502, 'upstream_error', `The hosting service answered ${status}.`);
  }
}

/** A failed request as a client-facing error: timeouts 504, everything else 502. */
export function fetchFailure(error: unknown): ProxyError {
  if (!(error instanceof FetchError)) return new ProxyError(502, 'upstream_unreachable', 'The hosting service could not be reached.');
  switch (error.failure) {
    case 'timeout':
      return new ProxyError(504, 'upstream_timeout', 'The hosting service did not answer in time.');
    case 'too_large':
      return new ProxyError(502, 'upstream_too_large', 'The hosting service sent a response larger than the proxy accepts.');
    case 'redirect_refused':
    case 'too_many_redirects':
      return new ProxyError(502, 'upstream_redirect_refused', `The hosting service redirected where the proxy does not follow (${error.failure.replace(/_/g, ' ')}).`);
    case 'forbidden_address':
      return new ProxyError(502, 'forbidden_address', 'The upstream address is private and the proxy is not configured to reach private networks.');
    default:
      return new ProxyError(502, 'upstream_unreachable', 'The hosting service could not be reached.');
  }
}

const idOf = (value: unknown) => (typeof value === 'number' ? value : null);

function languageOf(value: unknown, fallback: string | null): { code: string; name: string } | null {
  const language = asObject(value);
  const code = asString(language.code, typeof value === 'string' ? value : (fallback ?? ''));
  return code ? { code, name: asString(language.name, code) } : null;
}

function projectSummary(data: Json, nested = true): ProjectSummary {
  const urls = asObject(data.urls);
  const related = (value: unknown) => (nested && value && typeof value === 'object' ? projectSummary(asObject(value), false) : null);
  return {
    id: idOf(data.id),
    slug: asString(data.slug),
    name: asString(data.name, asString(data.slug)),
    language: languageOf(data.language, 'en')!,
    programming_language: languageOf(data.programming_language, null),
    default_version: asString(data.default_version, 'latest'),
    urls: { documentation: asString(urls.documentation), home: asString(urls.home) },
    tags: strings(data.tags),
    subproject_of: related(data.subproject_of),
    translation_of: related(data.translation_of),
  };
}

/** A v2 project (flat fields, the documentation at `canonical_url`) in the v3 shape. */
function projectSummaryV2(data: Json): ProjectSummary {
  return projectSummary({ ...data, urls: { documentation: asString(data.canonical_url) }, subproject_of: null, translation_of: null });
}

function versionSummary(data: Json): VersionSummary {
  const downloads = Object.fromEntries(Object.entries(asObject(data.downloads)).filter(([, url]) => typeof url === 'string')) as Record<string, string>;
  return {
    id: idOf(data.id),
    slug: asString(data.slug),
    verbose_name: asString(data.verbose_name, asString(data.slug)),
    type: asString(data.type, 'branch'),
    active: data.active !== false,
    hidden: data.hidden === true,
    built: data.built !== false,
    ref: typeof data.ref === 'string' ? data.ref : null,
    privacy_level: asString(data.privacy_level, 'public'),
    downloads,
    urls: { documentation: asString(asObject(data.urls).documentation) },
  };
}

function versionSummaryV2(data: Json, docsRoot: string, language: string): VersionSummary {
  const slug = asString(data.slug);
  return versionSummary({ ...data, urls: { documentation: docsRoot ? `${docsRoot}${language}/${slug}/` : '' } });
}

const strings = (value: unknown): string[] => asArray(value).filter((item): item is string => typeof item === 'string');

/** A search result in exactly the shape the widget reads, whatever the upstream sent. */
function searchResult(data: Json): SearchResult {
  const project = asObject(data.project);
  const highlights = asObject(data.highlights);
  return {
    type: 'page',
    project: { slug: asString(project.slug), alias: typeof project.alias === 'string' ? project.alias : null },
    version: { slug: asString(asObject(data.version).slug) },
    title: asString(data.title),
    domain: asString(data.domain),
    path: asString(data.path),
    highlights: { title: strings(highlights.title) },
    blocks: asArray(data.blocks).map((item): SearchBlock => {
      const block = asObject(item);
      const blockHighlights = asObject(block.highlights);
      const domain = block.type === 'domain';
      return {
        type: domain ? 'domain' : 'section',
        id: asString(block.id),
        ...(domain ? { name: asString(block.name), role: asString(block.role) } : { title: asString(block.title) }),
        content: asString(block.content),
        highlights: { ...(domain ? { name: strings(blockHighlights.name) } : { title: strings(blockHighlights.title) }), content: strings(blockHighlights.content) },
      };
    }),
  };
}
