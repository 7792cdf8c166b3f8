import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  timeRows,
} from './index.ts';
import { percentile, table } from './stats.ts';

const cli = fileURLToPath(new URL('../lib/cli/main.js', import.meta.url));
/** The real-docs suite's queries of the site measured. */
const QUERIES = (JSON.parse(readFileSync(new URL('../test/realdocs/queries/pandas.json', import.meta.url), 'utf8')) as { q: string }[]).map(
  (query) => query.q,
);
/** Results whose data a search shows at once: a result list's first screen. */
const SHOWN = 10;

interface BuildFigures {
  ms: number;
  /** Processor time of every thread, when GNU time is there to tell. */
  cpuMs: number | undefined;
  peakResidentBytes: number | undefined;
  /** The whole folder written (the widget's code, previews and page lists included), and the search index alone. */
  bytes: number;
  indexBytes: number;
}

/** One `doclens build` round: the installed command (lib/), in a process of its own, writing to a folder of its own. */
function doclensBuild(docs: string, out: string): BuildFigures {
  const command = [process.execPath, cli, 'build', '--docs', docs, '--out', out];
  const timed = existsSync('/usr/bin/time');
  const start = performance.now();
  const result = timed
    ? spawnSync('/usr/bin/time', ['-f', 'cpu-s %U %S peak-kb %M', ...command], { encoding: 'utf8' })
    : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`doclens build failed: ${result.stderr}`);
  const usage = /cpu-s ([\d.]+) ([\d.]+) peak-kb (\d+)/.exec(result.stderr);
  return {
    ms,
    cpuMs: usage ? (Number(usage[1]) + Number(usage[2])) * 1000 : undefined,
    peakResidentBytes: usage ? Number(usage[3]) * 1024 : undefined,
    bytes: folderBytes(out),
    indexBytes: folderBytes(join(out, 'data/search')),
  };
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
  const start = performance.now();
  await page.keyboard.press('/');
  const input = page.locator('doclens-search input[role="combobox"]');
  await input.waitFor();
  // No typing pause: the time is the search's.
  await page.evaluate(() => Object.assign(document.querySelector('doclens-search')!, { debounce: 0 }));
  await input.fill(query);
  await page.locator('doclens-search [role="option"], doclens-search [part~="empty"]').first().waitFor();
  const ms = performance.now() - start;
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
  const searches = { doclens: [] as Fetched[], pagefind: [] as Fetched[] };
  const out = join(work, 'doclens');
  let rounds: { ours: BuildFigures[]; theirs: PagefindFigures[] };
  try {
    rounds = await alternatingRounds(
      docs,
      () => {
        rmSync(out, { recursive: true, force: true });
        return doclensBuild(docs, out);
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
    `  Both commands as installed, in processes of their own (doclens: lib/, compiled), on the same folder. Searches: the\n` +
      `  real-docs suite's ${QUERIES.length} ${PACKAGE} queries, each in a new browser context served from loopback; doclens from\n` +
      `  its shortcut to the results shown (its search code included), Pagefind from importing pagefind.js to its first\n` +
      `  ${SHOWN} results' data.`,
  );
}
