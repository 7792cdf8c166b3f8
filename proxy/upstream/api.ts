import type { SearchQuery } from '../../extraction/search-query.ts';
// Results are normalized to exactly the shapes of the wire contract, which the widget reads.
import type { Language, SearchedProject, SearchResult } from '../../contract/index.ts';

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
  language: Language;
  programming_language: Language | null;
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
  projects: SearchedProject[];
  query: string;
  results: SearchResult[];
  /** The upstream is still indexing some version searched (the local docs host says so): the results are partial. */
  indexing: boolean;
}

/** A search answer but its results, read apart from them (a large answer's results are read one by one). */
export type SearchFrame = Omit<SearchAnswer, 'results'>;

/** How a search answer's body is read: a v2 answer does not say the query it answers, so it comes beside it. */
export type SearchReading = { version: 'v3' } | { version: 'v2'; query: string };

/**
 * A search answer as the upstream sent it, read by `readSearch` where its size allows (a large one in a
 * worker thread); its bytes stay counted in flight until `release`.
 */
export interface UpstreamSearch {
  /** The body as it came (see `FetchedResponse`). */
  chunks: Buffer[];
  reading: SearchReading;
  release(): void;
}

/**
 * The hosting service's API, as the proxy uses it: reads only, answered in the v3 shapes whichever
 * API version the upstream speaks; failures are `ProxyError`s with the proxy's own messages.
 */
export interface UpstreamApi {
  embed(params: EmbedParams, credential: Credential): Promise<EmbedResult>;
  search(params: SearchParams, credential: Credential): Promise<UpstreamSearch>;
  project(slug: string, credential: Credential): Promise<ProjectSummary>;
  versions(slug: string, credential: Credential): Promise<VersionSummary[]>;
  translations(slug: string, credential: Credential): Promise<ProjectSummary[]>;
  subprojects(slug: string, credential: Credential): Promise<SubprojectSummary[]>;
}
