import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/e2e/browser.ts';
import { serveFolders } from '../test/static-files.ts';
import {
  alternatingRounds,
  compileLib,
  documentation,
  folderBytes,
  mb,
  median,
  PACKAGE,
  type PagefindFigures,
  ROUNDS,
  type TimedRun,
  timedRun,
  timeRows,
} from './index.ts';
import { percentile, table } from './stats.ts';

const checkout = fileURLToPath(new URL('..', import.meta.url));
/** The real-docs suite's queries of the site measured. */
const QUERIES = (JSON.parse(readFileSync(new URL('../test/realdocs/queries/pandas.json', import.meta.url), 'utf8')) as { q: string }[]).map(
  (query) => query.q,
);
/** Results whose data a search shows at once: a result list's first screen. */
const SHOWN = 10;

interface BuildFigures extends Omit<TimedRun, 'stdout'> {
  /** The whole folder written (the widget's code, previews and page lists included), and the search index alone. */
  bytes: number;
  indexBytes: number;
}

/**
 * The package as `npm install` lays it out, in `folder`: its command (bin/doclens.js) beside the
 * compiled lib/ and the widget's dist/, with no TypeScript sources, so that the command runs what an
 * installed package runs (lib/, in the Node process it starts with --expose-gc), not the sources.
 */
function installedPackage(folder: string): string {
  mkdirSync(join(folder, 'bin'), { recursive: true });
  copyFileSync(join(checkout, 'bin/doclens.js'), join(folder, 'bin/doclens.js'));
  copyFileSync(join(checkout, 'package.json'), join(folder, 'package.json'));
  for (const linked of ['lib', 'dist', 'node_modules']) symlinkSync(join(checkout, linked), join(folder, linked));
  return join(folder, 'bin/doclens.js');
}

/** One `doclens build` round: the installed command, its whole run, writing to a folder of its own. */
function doclensBuild(command: string, docs: string, out: string): BuildFigures {
  const { load, ms, cpuMs, peakResidentBytes } = timedRun('doclens build', [
    process.execPath,
    command,
    'build',
    '--docs',
    docs,
    '--out',
    out,
  ]);
  return { load, ms, cpuMs, peakResidentBytes, bytes: folderBytes(out), indexBytes: folderBytes(join(out, 'data/search')) };
}

interface Fetched {
  /** Bytes the search fetched, gzip-compressed as a static host sends them (Pagefind's files are compressed already). */
  bytes: number;
  /** From the query to its first results' data in hand (doclens: the results shown). */
  ms: number;
}

/** Sums what a page fetches from now on, each body compressed as a server would send it. */
function countBytes(page: Page): () => Promise<number> {
  const bodies: Promise<number>[] = [];
  page.on('response', (response) =>
    bodies.push(
      response.body().then(
        (body) => gzipSync(body).length,
        () => 0,
      ),
    ),
  );
  return async () => (await Promise.all(bodies)).reduce((sum, bytes) => sum + bytes, 0);
}

/** A search in a fresh browser context (a cold cache): doclens' dialog in static mode, from the shortcut to the results shown. */
async function doclensSearch(browser: Browser, url: string, query: string): Promise<Fetched> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const bytes = countBytes(page);
  // Timed in the page from the shortcut's keydown, frame by frame: Playwright's waits poll up to 500 ms apart.
  await page.evaluate(() => {
    const timed = globalThis as { shownAfter?: Promise<number> };
    timed.shownAfter = new Promise((resolve) =>
      addEventListener(
        'keydown',
        // No named functions here: tsx would wrap them in a helper that the page lacks.
        async ({ timeStamp }) => {
          while (!document.querySelector('doclens-search')?.shadowRoot?.querySelector('[role="option"], [part~="empty"]'))
            await new Promise(requestAnimationFrame);
          resolve(performance.now() - timeStamp);
        },
        { once: true, capture: true },
      ),
    );
  });
  await page.keyboard.press('/');
  // No typing pause: the time is the search's.
  await page.waitForFunction(
    () => {
      const search = document.querySelector('doclens-search');
      return search?.querySelector('input[role="combobox"]') && Object.assign(search, { debounce: 0 });
    },
    undefined,
    { polling: 'raf' },
  );
  await page.locator('doclens-search input[role="combobox"]').fill(query);
  const ms = await page.evaluate(() => (globalThis as { shownAfter?: Promise<number> }).shownAfter!);
  const fetched = await bytes();
  await context.close();
  return { bytes: fetched, ms };
}

/** The same search with Pagefind's API in a fresh context: its code, its index chunks and the first results' data. */
async function pagefindSearch(browser: Browser, url: string, query: string): Promise<Fetched> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const bytes = countBytes(page);
  const ms = await page.evaluate(
    async ({ query, shown }) => {
      interface Pagefind {
        search(query: string): Promise<{ results: { data(): Promise<unknown> }[] }>;
      }
      const start = performance.now();
      const pagefind = (await import(`${location.origin}/pagefind/pagefind.js`)) as Pagefind;
      const found = await pagefind.search(query);
      await Promise.all(found.results.slice(0, shown).map((result) => result.data()));
      return performance.now() - start;
    },
    { query, shown: SHOWN },
  );
  const fetched = await bytes();
  await context.close();
  return { bytes: fetched, ms };
}

/**
 * `doclens build` against Pagefind's CLI on the biggest site of the real-docs suite, alternating
 * rounds: build time, peak memory, what they write; then each suite query of the site in Chromium
 * with a cold cache: the bytes a search fetches and its time to results.
 */
export async function benchStatic(): Promise<void> {
  const docs = documentation();
  compileLib();
  const work = mkdtempSync(join(tmpdir(), 'doclens-static-bench-'));
  const command = installedPackage(join(work, 'package'));
  const searches = { doclens: [] as Fetched[], pagefind: [] as Fetched[] };
  // Each round's in a folder of its own, all removed at the end (see `alternatingRounds`); the searches read the last.
  let out = '';
  let rounds: { ours: BuildFigures[]; theirs: PagefindFigures[] };
  try {
    rounds = await alternatingRounds(
      docs,
      (round) => {
        out = join(work, `doclens-${round}`);
        return doclensBuild(command, docs, out);
      },
      async (bundle) => {
        const page = '<!doctype html><meta charset="utf-8"><title>static search bench</title>';
        writeFileSync(
          join(out, 'bench.html'),
          `${page}<script type="module" src="doclens.js" data-static="./" data-features="search"></script>`,
        );
        writeFileSync(join(bundle, 'bench.html'), page);
        const server = await serveFolders({ '/': docs, '/_doclens/': out, '/pagefind/': bundle });
        const browser = await launchChromium();
        try {
          for (const query of QUERIES) {
            searches.doclens.push(await doclensSearch(browser, `${server.url}/_doclens/bench.html`, query));
            searches.pagefind.push(await pagefindSearch(browser, `${server.url}/pagefind/bench.html`, query));
          }
        } finally {
          await browser.close();
          await server.close();
        }
      },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const { ours, theirs } = rounds;
  const sorted = (figures: Fetched[], key: keyof Fetched) => figures.map((figure) => figure[key]).sort((a, b) => a - b);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  /** The median of what GNU time told of each round. */
  const measured = (values: (number | undefined)[], unit: (value: number) => string) => {
    const known = values.filter((value) => value !== undefined);
    return known.length ? unit(median(known)) : 'n/a (no GNU time)';
  };
  const cpu = (values: (number | undefined)[]) => measured(values, (millis) => `${(millis / 1000).toFixed(2)} s`);
  const spread = (values: number[], unit: (value: number) => string) =>
    `${unit(percentile(values, 50))} / ${unit(percentile(values, 90))} / ${unit(values.at(-1)!)}`;
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  table(`Static search of ${PACKAGE} (${mb(folderBytes(docs))}): doclens build against Pagefind — median of ${ROUNDS} alternating rounds`, [
    ['measure', 'doclens build', 'Pagefind', 'target'],
    ...timeRows(
      'build time',
      ours.map((figures) => figures.ms),
      theirs.map((figures) => figures.indexMs),
    ),
    [
      'load average as each round started',
      ours.map((f) => f.load.toFixed(1)).join(' '),
      theirs.map((f) => f.load.toFixed(1)).join(' '),
      '',
    ],
    ['processor time (all threads)', cpu(ours.map((f) => f.cpuMs)), cpu(theirs.map((f) => f.cpuMs)), ''],
    [
      'peak resident memory',
      measured(
        ours.map((f) => f.peakResidentBytes),
        mb,
      ),
      measured(
        theirs.map((f) => f.peakResidentBytes),
        mb,
      ),
      '',
    ],
    ['search index on disk', mb(ours.at(-1)!.indexBytes), mb(theirs.at(-1)!.bytesOnDisk), 'doclens ≤ Pagefind'],
    ['everything written (doclens: previews, page lists, widget too)', mb(ours.at(-1)!.bytes), mb(theirs.at(-1)!.bytesOnDisk), ''],
    [
      `bytes a search fetches, cold cache, gzip (p50 / p90 / max of ${QUERIES.length})`,
      spread(sorted(searches.doclens, 'bytes'), kb),
      spread(sorted(searches.pagefind, 'bytes'), kb),
      'doclens ≤ Pagefind',
    ],
    [
      'time to results, cold cache (p50 / p90 / max)',
      spread(sorted(searches.doclens, 'ms'), ms),
      spread(sorted(searches.pagefind, 'ms'), ms),
      '',
    ],
  ]);
  console.log(
    `  Both commands as installed, each measured whole by GNU time (doclens: bin/doclens.js of a package laid out as npm\n` +
      `  installs it, running lib/), on the same folder. Searches: the real-docs suite's ${QUERIES.length} ${PACKAGE} queries, each\n` +
      `  in a new browser context served from loopback, both timed in the page; doclens from its shortcut's keydown to the first\n` +
      `  frame that shows results (its search code included), Pagefind from importing pagefind.js to its first ${SHOWN} results' data.`,
  );
}
