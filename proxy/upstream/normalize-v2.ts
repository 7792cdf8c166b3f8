/** Upstream API v2 JSON (`hosting-api.md` 2.12) in the v3 shapes the proxy answers with (see `normalize.ts`). */
import type { SearchResult } from '../../contract/index.ts';
import { ProxyError } from '../http/errors.ts';
import type { EmbedResult, ProjectSummary, SearchAnswer, VersionSummary } from './api.ts';
import { asArray, asObject, asString, resultsOf, stringOrNull, type Json } from './json.ts';
import { projectSummary, searchAnswerOf, searchResult, versionSummary } from './normalize.ts';

/** The project named `slug` in a v2 project list (the `slug` filter is an exact match, but only the slug is trusted). */
export function projectInList(data: Json, slug: string): Json | undefined {
  return asArray(data.results)
    .map(asObject)
    .find((item) => item.slug === slug);
}

/** A v2 project (flat fields, the documentation at `canonical_url`) in the v3 shape. */
export function projectSummaryV2(data: Json): ProjectSummary {
  return projectSummary({ ...data, urls: { documentation: asString(data.canonical_url) }, subproject_of: null, translation_of: null });
}

/**
 * A v2 `active_versions` answer: versions carry no documentation URL, so each one's is built the
 * v3 way, `<project root>/<language>/<version>/`, from the project's `canonical_url`.
 */
export function versionsV2(data: Json, project: Json): VersionSummary[] {
  const docsRoot = asString(project.canonical_url).replace(/\/[^/]+\/[^/]*\/?$/, '/');
  const language = asString(project.language, 'en');
  return asArray(data.versions).map((item) => {
    const version = asObject(item);
    const documentation = docsRoot ? `${docsRoot}${language}/${asString(version.slug)}/` : '';
    return versionSummary({ ...version, urls: { documentation } });
  });
}

/** A v2 search result: `project` and `version` are slugs, the alias a field of its own. */
export function searchResultV2(item: unknown): SearchResult {
  const result = asObject(item);
  return searchResult({
    ...result,
    project: { slug: asString(result.project), alias: stringOrNull(result.project_alias) },
    version: { slug: asString(result.version) },
  });
}

export const searchAnswerV2 = (data: Json, query: string): SearchAnswer => searchAnswerOf(data, resultsOf(data).map(searchResultV2), query);

/** A v2 embed answer: the section as a list of HTML parts; none (or only blanks) means no such section. */
export function embedResultV2(data: Json, requestedUrl: string): EmbedResult {
  const content = asArray(data.content)
    .map((part) => asString(part))
    .join('\n');
  if (!content.trim()) throw new ProxyError(404, 'not_found', 'No such section upstream.');
  const hash = requestedUrl.indexOf('#');
  return { url: requestedUrl, fragment: hash === -1 ? null : requestedUrl.slice(hash + 1), content, external: false };
}
