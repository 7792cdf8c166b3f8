/** `GET /api/v3/search/`: the hosting service's v3 search answer, rebuilt for the projects in scope. */
export interface SearchResponse {
  /** Results of the whole search (once results out of scope were dropped, only those on this page). */
  count: number;
  /** Absolute URLs of the proxy's neighbouring pages of the same search. */
  next: string | null;
  previous: string | null;
  /** The projects searched, each with the versions searched in it. */
  projects: SearchedProject[];
  /** The query as the reader asked it, spacing normalized (not the query sent upstream). */
  query: string;
  results: SearchResult[];
  /** The documentation host is still indexing a version searched: these are the results so far. */
  indexing: boolean;
}

export interface SearchedProject {
  slug: string;
  versions: { slug: string }[];
}

/** A page that matched, with the sections (or API objects) in it that matched. */
export interface SearchResult {
  type: 'page';
  project: { slug: string; alias: string | null };
  version: { slug: string };
  title: string;
  /** Origin of the documentation site (`https://aurora.docs.example.org`). */
  domain: string;
  path: string;
  /** HTML: escaped text with the matches in `<span>`. */
  highlights: { title: string[] };
  blocks: SearchBlock[];
}

/** A section (`title`) or an API object documented by a domain directive (`name`, `role`). */
export interface SearchBlock {
  type: 'section' | 'domain';
  id: string;
  title?: string;
  name?: string;
  role?: string;
  content: string;
  highlights: { title?: string[]; name?: string[]; content: string[] };
}
