import { mkdirSync, rmSync } from 'node:fs';
import type { DataSource } from '../../widget/shared/api.ts';
import { buildStatic } from '../../static/build.ts';
import { StaticSource } from '../../widget/shared/static-source.ts';
import { IndexCache, indexKey } from '../../host/index-cache.ts';
import { fileForPath } from '../../host/registry.ts';
import { SearchIndex } from '../../search/index.ts';
import { serveFolders } from '../static-files.ts';
import { relevanceOf, type Relevance } from './metrics.ts';
import type { Query } from './sites.ts';

export interface StaticRelevance extends Relevance {
  /** Queries whose first 10 pages are the docs host's, in its order. */
  sameTop10: number;
}

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
    const same = found.outcomes.filter((outcome, index) => outcome.top.join('\n') === hosted.outcomes[index]?.top.join('\n'));
    return { ...found, sameTop10: same.length };
  } finally {
    await server.close();
  }
}

export interface SavedIndexSearch extends StaticRelevance {
  /** The queries with a word the search reads as another spelling (`SearchIndex.respelled`): typos and word forms. */
  respelled: Set<Query>;
}

/** A saved part's name, as `SearchIndex.partsFor` names it. */
function partName(json: string): string {
  const { part, index } = JSON.parse(json) as { part: string; index?: number };
  return index === undefined ? part : `${part}-${index}`;
}

/**
 * The docs host's index as its cache saved it, searched part by part as static mode fetches an index
 * (`VersionSearch`: the head, then the parts `partsFor` names until it names none), in process: static
 * mode's engine and loading without `doclens build`'s previews. Also finds the queries the engine reads
 * a word of as another spelling. `hosted`: the host's relevance, to compare.
 */
export async function savedIndexSearch(
  cacheDir: string,
  root: string,
  files: string[],
  queries: Query[],
  hosted: Relevance,
): Promise<SavedIndexSearch> {
  const lines = await new IndexCache(cacheDir).load(root, await indexKey(root, files));
  if (!lines) throw new Error(`the index cache holds no index of ${root} built by this code`);
  const parts = new Map(lines.map((json) => [partName(json), json]));
  const index = new SearchIndex();
  index.addPart(parts.get('head')!);
  const respelled = new Set<Query>();
  const ranked = queries.map((query) => {
    for (let needed = index.partsFor(query.q); needed.length; needed = index.partsFor(query.q))
      for (const name of needed) index.addPart(parts.get(name)!);
    if (index.respelled(query.q).length) respelled.add(query);
    return index
      .search(query.q)
      .slice(0, 10)
      .map((hit) => hit.path);
  });
  const found = relevanceOf(queries, ranked);
  const same = found.outcomes.filter((outcome, at) => outcome.top.join('\n') === hosted.outcomes[at]?.top.join('\n'));
  return { ...found, sameTop10: same.length, respelled };
}
