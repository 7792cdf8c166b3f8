import { launchChromium } from '../test/e2e/browser.ts';
import { serveFolders } from '../test/static-files.ts';

/** How many results of each search have their data loaded: a result list's first screen, as doclens answers it. */
const SHOWN = 10;
const ascending = (a: number, b: number) => a - b;

export interface PagefindSearchTimes {
  /** Milliseconds of each `pagefind.search()` (the ranked list of matching pages), sorted. */
  searchMs: number[];
  /** The same searches until the data (title, excerpt) of the first results is loaded too, sorted. */
  withDataMs: number[];
}

/**
 * Pagefind's query latency where Pagefind searches: in the browser, its `pagefind.js` over the index it
 * wrote (served from loopback). A first round of the queries only warms up (it fetches the index
 * chunks), as doclens' first round warms its code; `rounds` rounds are timed after it.
 */
export async function pagefindSearchTimes(bundle: string, queries: readonly string[], rounds: number): Promise<PagefindSearchTimes> {
  const server = await serveFolders({ '/pagefind/': bundle }, '<!doctype html><title>pagefind bench</title>');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    const times = await page.evaluate(
      async ({ queries, rounds, shown }) => {
        interface Pagefind {
          init(): Promise<void>;
          search(query: string): Promise<{ results: { data(): Promise<unknown> }[] }>;
        }
        const pagefind = (await import(`${location.origin}/pagefind/pagefind.js`)) as Pagefind;
        await pagefind.init();
        const times = { searchMs: [] as number[], withDataMs: [] as number[] };
        for (let round = 0; round <= rounds; round++) {
          for (const query of queries) {
            const start = performance.now();
            const found = await pagefind.search(query);
            const searched = performance.now();
            await Promise.all(found.results.slice(0, shown).map((result) => result.data()));
            if (round === 0) continue;
            times.searchMs.push(searched - start);
            times.withDataMs.push(performance.now() - start);
          }
        }
        return times;
      },
      { queries: [...queries], rounds, shown: SHOWN },
    );
    return { searchMs: times.searchMs.sort(ascending), withDataMs: times.withDataMs.sort(ascending) };
  } finally {
    await browser.close();
    await server.close();
  }
}
