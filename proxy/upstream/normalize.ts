/**
 * Upstream API v3 JSON (`hosting-api.md` section 2) in the proxy's own shapes. Upstream JSON is
 * untrusted: missing or mistyped fields take defaults, and only an answer that cannot be what was
 * asked for (no results list, an impossible count, an embed without content) is refused.
 */
import type { Language, SearchBlock, SearchResult } from '../../contract/index.ts';
import type { EmbedResult, ProjectSummary, SearchAnswer, SearchFrame, SubprojectSummary, VersionSummary } from './api.ts';
import { asArray, asObject, asString, idOf, invalidResponse, resultsOf, stringOrNull, strings, type Json } from './json.ts';

/** The `count` of a search answer: absent (then the results on the page), or a whole number of results. */
function countOf(data: Json, results: number): number {
  if (data.count === undefined) return results;
  if (typeof data.count !== 'number' || !Number.isSafeInteger(data.count) || data.count < results)
    throw invalidResponse('an impossible count');
  return data.count;
}

/** A search answer of either API version but its results, of which the upstream sent `results`. */
export function searchFrameOf(data: Json, results: number, query: string): SearchFrame {
  if (data.next !== undefined && data.next !== null && typeof data.next !== 'string') throw invalidResponse('an invalid next page');
  return {
    count: countOf(data, results),
    hasNext: typeof data.next === 'string',
    projects: asArray(data.projects).map((item) => {
      const project = asObject(item);
      return {
        slug: asString(project.slug),
        versions: asArray(project.versions).map((version) => ({ slug: asString(asObject(version).slug) })),
      };
    }),
    query,
    indexing: data.indexing === true,
  };
}

/** A search answer of either API version, its results already normalized. */
export const searchAnswerOf = (data: Json, results: SearchResult[], query: string): SearchAnswer => ({
  ...searchFrameOf(data, results.length, query),
  results,
});

export function searchAnswer(data: Json): SearchAnswer {
  return searchAnswerOf(
    data,
    resultsOf(data).map((item) => searchResult(asObject(item))),
    asString(data.query),
  );
}

/** A search result in exactly the shape the widget reads, whatever the upstream sent. */
export function searchResult(data: Json): SearchResult {
  const project = asObject(data.project);
  const highlights = asObject(data.highlights);
  return {
    type: 'page',
    project: { slug: asString(project.slug), alias: stringOrNull(project.alias) },
    version: { slug: asString(asObject(data.version).slug) },
    title: asString(data.title),
    domain: asString(data.domain),
    path: asString(data.path),
    highlights: { title: strings(highlights.title) },
    blocks: asArray(data.blocks).map((item) => searchBlock(asObject(item))),
  };
}

function searchBlock(block: Json): SearchBlock {
  const highlights = asObject(block.highlights);
  const domain = block.type === 'domain';
  return {
    type: domain ? 'domain' : 'section',
    id: asString(block.id),
    ...(domain ? { name: asString(block.name), role: asString(block.role) } : { title: asString(block.title) }),
    content: asString(block.content),
    highlights: {
      ...(domain ? { name: strings(highlights.name) } : { title: strings(highlights.title) }),
      content: strings(highlights.content),
    },
  };
}

/** An embed answer; `requestedUrl` stands in for a missing `url`. */
export function embedResult(data: Json, requestedUrl: string): EmbedResult {
  if (typeof data.content !== 'string') throw invalidResponse('no content');
  return {
    url: asString(data.url, requestedUrl),
    fragment: stringOrNull(data.fragment),
    content: data.content,
    external: data.external === true,
  };
}

function languageOf(value: unknown, fallback: string | null): Language | null {
  const language = asObject(value);
  const code = asString(language.code, typeof value === 'string' ? value : (fallback ?? ''));
  return code ? { code, name: asString(language.name, code) } : null;
}

/** A project, its related projects (`subproject_of`, `translation_of`) one level deep. */
export function projectSummary(data: Json, nested = true): ProjectSummary {
  const urls = asObject(data.urls);
  const related = (value: unknown) => (nested && value && typeof value === 'object' ? projectSummary(asObject(value), false) : null);
  return {
    id: idOf(data.id),
    slug: asString(data.slug),
    name: asString(data.name, asString(data.slug)),
    language: languageOf(data.language, 'en') ?? { code: 'en', name: 'en' },
    programming_language: languageOf(data.programming_language, null),
    default_version: asString(data.default_version, 'latest'),
    urls: { documentation: asString(urls.documentation), home: asString(urls.home) },
    tags: strings(data.tags),
    subproject_of: related(data.subproject_of),
    translation_of: related(data.translation_of),
  };
}

export function versionSummary(data: Json): VersionSummary {
  const downloads = Object.fromEntries(
    Object.entries(asObject(data.downloads)).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  return {
    id: idOf(data.id),
    slug: asString(data.slug),
    verbose_name: asString(data.verbose_name, asString(data.slug)),
    type: asString(data.type, 'branch'),
    active: data.active !== false,
    hidden: data.hidden === true,
    built: data.built !== false,
    ref: stringOrNull(data.ref),
    privacy_level: asString(data.privacy_level, 'public'),
    downloads,
    urls: { documentation: asString(asObject(data.urls).documentation) },
  };
}

export function subprojectSummary(data: Json): SubprojectSummary {
  return { alias: asString(data.alias), child: projectSummary(asObject(data.child)) };
}
