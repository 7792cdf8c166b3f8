import { mkdirSync, rmSync } from 'node:fs';
import type { DataSource } from '../../widget/shared/api.ts';
import { buildStatic } from '../../static/build.ts';
import { StaticSource } from '../../widget/shared/static-source.ts';
import { fileForPath } from '../../host/registry.ts';
import { SearchIndex } from '../../search/index.ts';
import { serveFolders } from '../static-files.ts';
import { relevanceOf, type Relevance } from './metrics.ts';
import type { Query } from './sites.ts';

export interface StaticRelevance extends Relevance {
  /** Queries whose first 10 pages are the docs host's, in its order. */
  sameTop10: number;
}

/** How many queries `found` ranks the same first 10 pages for as `hosted`, in its order. */
export const sameTop10 = (found: Relevance, hosted: Relevance) =>
  found.outcomes.filter((outcome, at) => outcome.top.join('\n') === hosted.outcomes[at]?.top.join('\n')).length;

/** The site's pages each query finds in static mode, best first: files of the site. */
async function rankings(source: DataSource, queries: Query[]): Promise<string[][]> {
  const ranked: string[][] = [];
  for (const query of queries) {
    const { results } = await source.search({ q: query.q, page: '1', page_size: '10' });
    ranked.push(results.map((result) => fileForPath(decodeURIComponent(result.path).replace(/^\//, ''))));
  }
  return ranked;
}

/**
 * Static mode on a suite site: `doclens build` writes its files to `out` (the site's own folder is
 * a package's, left alone), both are served by a plain static file server, and each query is searched
 * as the widget searches in a reader's browser. `hosted`: the docs host's relevance, to compare.
 */
export async function staticRelevance(docs: string, out: string, queries: Query[], hosted: Relevance): Promise<StaticRelevance> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // Served at /_doclens/ beside the site at /.
  await buildStatic({ docs, out: `${out}/_doclens`, root: '../' });
  const server = await serveFolders({ '/': docs, '/_doclens/': `${out}/_doclens` });
  try {
    const found = relevanceOf(queries, await rankings(new StaticSource(`${server.url}/_doclens/`), queries));
    return { ...found, sameTop10: sameTop10(found, hosted) };
  } finally {
    await server.close();
  }
}

export interface IndexSearch extends Relevance {
  /** The queries with a word the search reads as another spelling (`SearchIndex.respelled`): typos and word forms. */
  respelled: Set<Query>;
}

/** A saved part's name, as `SearchIndex.partsFor` names it. */
function partName(json: string): string {
  const { part, index } = JSON.parse(json) as { part: string; index?: number };
  return index === undefined ? part : `${part}-${index}`;
}

/** Each query searched on `index`, its first 10 pages, after `load` added what the query needs; and the queries read as other spellings. */
function searchEach(index: SearchIndex, queries: Query[], load: (query: string) => void = () => {}): IndexSearch {
  const respelled = new Set<Query>();
  const ranked = queries.map((query) => {
    load(query.q);
    if (index.respelled(query.q).length) respelled.add(query);
    return index
      .search(query.q)
      .slice(0, 10)
      .map((hit) => hit.path);
  });
  return { ...relevanceOf(queries, ranked), respelled };
}

/**
 * A saved index (the parts of an index cache's file) searched part by part as static mode fetches an index
 * (`VersionSearch`: the head, then the parts `partsFor` names until it names none), in process: static
 * mode's engine and loading without `doclens build`'s previews. Also finds the queries the engine reads
 * a word of as another spelling.
 */
export function searchInParts(lines: string[], queries: Query[]): IndexSearch {
  const parts = new Map(lines.map((json) => [partName(json), json]));
  const index = new SearchIndex();
  index.addPart(parts.get('head')!);
  return searchEach(index, queries, (query) => {
    for (let needed = index.partsFor(query); needed.length; needed = index.partsFor(query))
      for (const name of needed) index.addPart(parts.get(name)!);
  });
}

/** A saved index loaded whole, as the docs host loads its cache (`index-worker.ts`). */
export function wholeIndex(lines: string[]): SearchIndex {
  const index = new SearchIndex();
  for (const part of lines) index.addPart(part);
  index.finish();
  return index;
}

/** Each query searched on an index loaded whole (`wholeIndex`); with its indexed pages. */
export const searchWhole = (index: SearchIndex, queries: Query[]): IndexSearch & { pages: number } => ({
  ...searchEach(index, queries),
  pages: index.size.pages,
});
