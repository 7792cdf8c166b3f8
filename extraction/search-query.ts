/** A `project:` or `subprojects:` term of a search query: a project slug and an optional version. */
export interface ProjectTerm {
  slug: string;
  version?: string | undefined;
}

/** A search query of the hosting service's Search API v3, read as the hosting service reads it. */
export interface SearchQuery {
  /** The tokens that are not filters, in order. */
  words: string[];
  /** The words as the hosting service searches them (`\:` unescaped). */
  text: string;
  projects: ProjectTerm[];
  /** Projects searched together with their subprojects. */
  subprojects: ProjectTerm[];
  /** `user:` terms (the hosting service's `user:@me`). */
  users: string[];
}

/**
 * White space as the hosting service splits the query: Python's `str.split()`, which splits on every
 * character of `str.isspace()` (U+001C–U+001F and U+0085 included, unlike JavaScript's `\s`).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+001C–U+001F are white space to Python, so to the upstream
const UPSTREAM_WHITESPACE = /[\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** The tokens of a query as the hosting service splits it. */
export function queryTokens(q: string): string[] {
  return q.split(UPSTREAM_WHITESPACE).filter(Boolean);
}

const NAME = /^[\w.-]+$/;

/** The slug and version a project filter names, when they are plain names. */
function projectTerm(value: string): ProjectTerm | undefined {
  const [slug = '', version, ...extra] = value.split('/');
  if (!NAME.test(slug) || (version !== undefined && !NAME.test(version)) || extra.length > 0) return undefined;
  return version ? { slug, version } : { slug };
}

/**
 * Splits a query into filter terms and words as the hosting service does: a token is a filter when the
 * part before its first `:` is `project`, `subprojects` or `user`. A project filter that does not name
 * a plain slug (and version) is kept as words.
 */
export function parseSearchQuery(q: string): SearchQuery {
  const query: SearchQuery = { words: [], text: '', projects: [], subprojects: [], users: [] };
  for (const token of queryTokens(q)) {
    const at = token.indexOf(':');
    const name = at === -1 ? '' : token.slice(0, at);
    const value = token.slice(at + 1);
    const term = name === 'project' || name === 'subprojects' ? projectTerm(value) : undefined;
    if (name === 'project' && term) query.projects.push(term);
    else if (name === 'subprojects' && term) query.subprojects.push(term);
    else if (name === 'user') query.users.push(value);
    else query.words.push(token);
  }
  query.text = query.words.join(' ').replaceAll('\\:', ':');
  return query;
}

const formatTerm = (kind: string, term: ProjectTerm) => `${kind}:${term.slug}${term.version ? `/${term.version}` : ''}`;

/**
 * A word the hosting service reads as text whatever it holds: every `:` escaped as `\:` (its parser's
 * own escape), so no word can be read as a filter, known today or added later.
 */
const inertWord = (word: string) => word.replaceAll(':', '\\:');

/**
 * The query string the hosting service is sent, built only from what is allowed: the project terms,
 * then the words made inert. `user:` terms are never sent.
 */
export function formatSearchQuery(query: Pick<SearchQuery, 'projects' | 'subprojects' | 'words'>): string {
  return [
    ...query.projects.map((term) => formatTerm('project', term)),
    ...query.subprojects.map((term) => formatTerm('subprojects', term)),
    ...query.words.map(inertWord),
  ].join(' ');
}
