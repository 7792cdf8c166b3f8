/**
 * The peers of doclens' search on a real-docs site, measured on the same folder and queries: Sphinx's
 * own client search (the site's `search.html` over its `searchindex.js`, in Chromium) and Pagefind
 * (its CLI indexes the folder as a site's build would; its `pagefind.js` searches in Chromium).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { fileForPath } from '../../host/registry.ts';
import { serveFolders } from '../static-files.ts';
import { relevanceOf, type Relevance } from './metrics.ts';
import type { Query } from './sites.ts';

const PAGEFIND = fileURLToPath(new URL('../../node_modules/.bin/pagefind', import.meta.url));
const PAGEFIND_VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../../node_modules/pagefind/package.json', import.meta.url)), 'utf8')) as {
    version: string;
  }
).version;
/** Results of each search that are ranked: the first page, as for doclens. */
const SHOWN = 10;
/** Longest wait for one Sphinx search or its index (a large `searchindex.js` takes seconds to parse on a busy machine). */
const SPHINX_TIMEOUT_MS = 60_000;

/** Each query's first results, as files of the site (`guide/index.html`), in rank order. */
export type Rankings = string[][];

/** The file of the site a result URL names, relative to the site's root URL. */
function fileOf(href: string, siteUrl: string): string {
  const url = new URL(href, siteUrl);
  const path = decodeURIComponent(url.pathname.slice(new URL(siteUrl).pathname.length));
  return fileForPath(path.replace(/^\//, ''));
}

/** Whether the folder carries Sphinx's client search: `search.html` and the index it loads. */
export function hasSphinxSearch(root: string): boolean {
  return existsSync(join(root, 'search.html')) && existsSync(join(root, 'searchindex.js'));
}

/**
 * Sphinx's own search, as a reader gets it: its `search.html` in Chromium, loaded once (its index is
 * parsed once, as while a reader searches again), each query run by the page's own `Search` until its
 * summary says the search finished; then the links of its result list.
 */
export async function sphinxRankings(browser: Browser, root: string, queries: Query[]): Promise<Rankings> {
  const site = await serveFolders({ '/': root });
  const page = await browser.newPage();
  try {
    const siteUrl = `${site.url}/`;
    await page.goto(`${siteUrl}search.html`);
    // `Search` is a global binding of the page's scripts (not a property of window), so the checks are page code.
    await page.waitForFunction('typeof Search !== "undefined" && Search.hasIndex()', undefined, {
      timeout: SPHINX_TIMEOUT_MS,
      polling: 50,
    });
    const rankings: Rankings = [];
    for (const query of queries) rankings.push(await sphinxSearch(page, siteUrl, query.q));
    return rankings;
  } finally {
    await page.close();
    await site.close();
  }
}

async function sphinxSearch(page: Page, siteUrl: string, text: string): Promise<string[]> {
  // A package that leaves out `sphinx_highlight.js` (Requests' in Debian) leaves its flag undefined, and the search throws.
  await page.evaluate(
    `if (typeof SPHINX_HIGHLIGHT_ENABLED === 'undefined') window.SPHINX_HIGHLIGHT_ENABLED = false;
     document.getElementById('search-results').replaceChildren();
     Search.performSearch(${JSON.stringify(text)});`,
  );
  // Sphinx writes the summary of what it found ("Search finished, found…", "Your search did not match…") once it is done.
  await page.waitForFunction(() => /\S/.test(document.querySelector('#search-results .search-summary')?.textContent ?? ''), undefined, {
    timeout: SPHINX_TIMEOUT_MS,
    polling: 50,
  });
  const links = await page.$$eval('#search-results ul.search > li', (items) =>
    items.map((item) => item.querySelector('a')?.getAttribute('href') ?? '').filter(Boolean),
  );
  return links.slice(0, SHOWN).map((href) => fileOf(href, siteUrl));
}

/**
 * Pagefind's index of the folder, built by its CLI once per folder and Pagefind version (kept in
 * `cacheDir`), and its rankings of the queries in Chromium.
 */
export async function pagefindRankings(browser: Browser, root: string, queries: Query[], cacheDir: string): Promise<Rankings> {
  const bundle = buildPagefind(root, cacheDir);
  const site = await serveFolders({ '/pagefind/': bundle });
  const page = await browser.newPage();
  try {
    await page.goto(`${site.url}/`);
    const urls = await page.evaluate(
      async ({ texts, shown }) => {
        interface Pagefind {
          init(): Promise<void>;
          search(query: string): Promise<{ results: { data(): Promise<{ url: string }> }[] }>;
        }
        const pagefind = (await import(`${location.origin}/pagefind/pagefind.js`)) as Pagefind;
        await pagefind.init();
        const found: string[][] = [];
        for (const text of texts) {
          const { results } = await pagefind.search(text);
          found.push(await Promise.all(results.slice(0, shown).map(async (result) => (await result.data()).url)));
        }
        return found;
      },
      { texts: queries.map((query) => query.q), shown: SHOWN },
    );
    return urls.map((list) => list.map((url) => fileOf(url, `${site.url}/`)));
  } finally {
    await page.close();
    await site.close();
  }
}

function buildPagefind(root: string, cacheDir: string): string {
  const bundle = join(cacheDir, 'bundle');
  const stampFile = join(cacheDir, 'stamp');
  const stamp = `pagefind ${PAGEFIND_VERSION} of ${root}`;
  if (existsSync(join(bundle, 'pagefind.js')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return bundle;
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const result = spawnSync(PAGEFIND, ['--site', root, '--output-path', bundle], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pagefind failed on ${root}: ${result.stderr || result.error?.message}`);
  writeFileSync(stampFile, stamp);
  return bundle;
}

export interface PeerRelevance {
  /** Undefined on a site without Sphinx's client search (MkDocs sites) or where it fails as shipped. */
  sphinx: Relevance | undefined;
  /** Why Sphinx's search could not be measured on a site that has it. */
  sphinxFailure?: string;
  pagefind: Relevance;
}

/** Both peers' relevance on the site's queries. */
export async function peerRelevance(browser: Browser, root: string, queries: Query[], cacheDir: string): Promise<PeerRelevance> {
  const pagefind = relevanceOf(queries, await pagefindRankings(browser, root, queries, cacheDir));
  if (!hasSphinxSearch(root)) return { sphinx: undefined, pagefind };
  try {
    // A busy machine can outlast a wait once: Sphinx's search is run again in a fresh page before it counts as failing.
    const rankings = await sphinxRankings(browser, root, queries).catch((error: unknown) => {
      if (error instanceof Error && error.name === 'TimeoutError') return sphinxRankings(browser, root, queries);
      throw error;
    });
    return { sphinx: relevanceOf(queries, rankings), pagefind };
  } catch (error) {
    // A site whose packaged search throws in the browser (its scripts and index out of step) has no peer to compare with.
    return { sphinx: undefined, sphinxFailure: error instanceof Error ? error.message.split('\n')[0] : String(error), pagefind };
  }
}

/** Whether doclens is ahead of a peer: top-3 and MRR at least the peer's, one of them higher. */
export function ahead(doclens: Pick<Relevance, 'top3' | 'mrr'>, peer: Relevance): boolean {
  return doclens.top3 >= peer.top3 && doclens.mrr >= peer.mrr && (doclens.top3 > peer.top3 || doclens.mrr > peer.mrr);
}
