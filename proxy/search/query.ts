/** A `project:` or `subprojects:` term of a search query: a project slug and an optional version. */
export interface ProjectTerm {
  slug: string;
  version?: string | undefined;
}

/** A search query of the hosting service's Search API v3, split into its filters and its words. */
export interface SearchQuery {
  /** The words to search for. */
  text: string;
  projects: ProjectTerm[];
  /** Projects searched together with their subprojects. */
  subprojects: ProjectTerm[];
  /** `user:` terms (the hosting service's `user:@me`). */
  users: string[];
}

const FILTER = /^(project|subprojects|user):(.*)$/;

function projectTerm(value: string): ProjectTerm | undefined {
  const [slug, version, ...extra] = value.split('/');
  if (!slug || extra.length > 0) return undefined;
  return version ? { slug, version } : { slug };
}

/**
 * Splits a query into filter terms and words. A filter without a value (`project:`) or with too
 * many parts counts as words, as it cannot name anything.
 */
export function parseSearchQuery(q: string): SearchQuery {
  const query: SearchQuery = { text: '', projects: [], subprojects: [], users: [] };
  const words: string[] = [];
  for (const token of q.split(/\s+/).filter(Boolean)) {
    const [, kind, value = ''] = token.match(FILTER) ?? [];
    const term = kind === 'project' || kind === 'subprojects' ? projectTerm(value) : undefined;
    if (kind === 'project' && term) query.projects.push(term);
    else if (kind === 'subprojects' && term) query.subprojects.push(term);
    else if (kind === 'user' && value) query.users.push(value);
    else words.push(token);
  }
  query.text = words.join(' ');
  return query;
}

const formatTerm = (kind: string, term: ProjectTerm) => `${kind}:${term.slug}${term.version ? `/${term.version}` : ''}`;

/** The query string for a parsed query: filters first, then the words. */
export function formatSearchQuery(query: SearchQuery): string {
  return [
    ...query.projects.map((term) => formatTerm('project', term)),
    ...query.subprojects.map((term) => formatTerm('subprojects', term)),
    ...query.users.map((user) => `user:${user}`),
    query.text,
  ]
    .filter(Boolean)
    .join(' ');
}
