import { mkdirSync, rmSync } from 'node:fs';
import type { DataSource } from '../../widget/shared/api.ts';
import { buildStatic } from '../../static/build.ts';
import { StaticSource } from '../../widget/shared/static-source.ts';
import { fileForPath } from '../../host/registry.ts';
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
