import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { doclensRound } from './index-doclens.ts';
import { pagefindSearchTimes, type PagefindSearchTimes } from './index-pagefind-search.ts';
import { ms, percentile, table } from './stats.ts';
import { SUITE_QUERIES } from './suite-queries.ts';

/** The largest site of the real-docs suite: pandas' documentation as Debian packages it, about 4,100 HTML files, 277 MB. */
export const PACKAGE = 'python-pandas-doc';
const DOCS = `/usr/share/doc/${PACKAGE}/html`;
/** Rounds of each indexer, alternating, on a machine others share: the median is printed. */
export const ROUNDS = Number(process.env.BENCH_INDEX_ROUNDS ?? 3);

const root = fileURLToPath(new URL('..', import.meta.url));
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (millis: number) => `${(millis / 1000).toFixed(2)} s`;
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A duration's median, doclens' beside Pagefind's (doclens' the shorter, its target), and each round's. */
export function timeRows(label: string, ours: number[], theirs: number[]): [string, ...string[]][] {
  return [
    [label, seconds(median(ours)), seconds(median(theirs)), 'doclens < Pagefind'],
    [`${label}, each round`, ours.map(seconds).join(' '), theirs.map(seconds).join(' '), ''],
  ];
}

/**
 * `ROUNDS` rounds of doclens and Pagefind on the same folder, alternating, so that what else the
 * machine does weighs on both; `last` reads Pagefind's index of the last round. The rounds' outputs
 * are removed only after the last round: ext4 passes over inodes freed in the last half minute or so
 * as it allocates new ones, so that a build started right after thousands of files were deleted
 * creates its own files slower (on pandas 3.4 s more system time), and it was always doclens' round
 * that started so, after Pagefind's output and its own previous one were removed.
 */
export async function alternatingRounds<T>(
  docs: string,
  ours: (round: number) => T | Promise<T>,
  last: (bundle: string) => Promise<void>,
): Promise<{ ours: T[]; theirs: PagefindFigures[] }> {
  const figures = { ours: [] as T[], theirs: [] as PagefindFigures[] };
  const outputs: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      figures.ours.push(await ours(round));
      outputs.push(mkdtempSync(join(tmpdir(), 'pagefind-bench-')));
      figures.theirs.push(await pagefind(docs, outputs.at(-1)!, round === ROUNDS - 1 ? last : undefined));
    }
  } finally {
    for (const output of outputs) rmSync(output, { recursive: true, force: true });
  }
  return figures;
}

/** Compiles lib/, what an installed package runs (as `npm install` builds it). */
export function compileLib(): void {
  console.log('compiling lib/ (npm run build:lib)…');
  const build = spawnSync('npm', ['run', 'build:lib'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build:lib failed');
}

export function documentation(): string {
  if (existsSync(DOCS)) return DOCS;
  if (process.getuid?.() !== 0) throw new Error(`the index bench needs ${DOCS}: install it with: sudo apt-get install ${PACKAGE}`);
  console.log(`installing ${PACKAGE} with apt-get…`);
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', PACKAGE], { stdio: 'inherit' });
  if (result.status !== 0 || !existsSync(DOCS)) throw new Error(`apt-get install ${PACKAGE} failed`);
  return DOCS;
}

/** Bytes of the files in a folder, those it reaches through symbolic links included (packaged docs link their static files). */
export function folderBytes(folder: string): number {
  return Number(spawnSync('du', ['-sLb', folder], { encoding: 'utf8' }).stdout.split('\t')[0]);
}

export interface PagefindFigures {
  /** The machine's load average (1 minute) as the round started. */
  load: number;
  pages: number;
  indexMs: number;
  bytesOnDisk: number;
  /** Processor time and peak resident memory of its indexing process, when GNU time is there to tell. */
  cpuMs: number | undefined;
  peakResidentBytes: number | undefined;
}

/** A command's whole run, timed; its processor time (all its processes) and peak memory when GNU time is there to tell. */
export interface TimedRun {
  /** The machine's load average (1 minute) as it started. */
  load: number;
  ms: number;
  stdout: string;
  cpuMs: number | undefined;
  peakResidentBytes: number | undefined;
}

/** Runs `argv` to its end under GNU time where there is one; throws, naming `name`, if it fails. */
export function timedRun(name: string, argv: readonly string[]): TimedRun {
  const load = loadavg()[0]!;
  const start = performance.now();
  const result = existsSync('/usr/bin/time')
    ? spawnSync('/usr/bin/time', ['-f', 'cpu-s %U %S peak-kb %M', ...argv], { encoding: 'utf8' })
    : spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}`);
  const usage = /cpu-s ([\d.]+) ([\d.]+) peak-kb (\d+)/.exec(result.stderr);
  return {
    load,
    ms,
    stdout: result.stdout,
    cpuMs: usage ? (Number(usage[1]) + Number(usage[2])) * 1000 : undefined,
    peakResidentBytes: usage ? Number(usage[3]) * 1024 : undefined,
  };
}

/** One Pagefind round: its command as a site's build runs it, writing its index to `output`, which `use` then reads. */
async function pagefind(docs: string, output: string, use?: (bundle: string) => Promise<void>): Promise<PagefindFigures> {
  const { load, ms, stdout, cpuMs, peakResidentBytes } = timedRun('pagefind', [
    join(root, 'node_modules/.bin/pagefind'),
    '--site',
    docs,
    '--output-path',
    output,
  ]);
  await use?.(output);
  return {
    load,
    pages: Number(/Indexed (\d+) pages?/.exec(stdout)?.[1] ?? Number.NaN),
    indexMs: ms,
    bytesOnDisk: folderBytes(output),
    cpuMs,
    peakResidentBytes,
  };
}

/**
 * The docs host's search index against Pagefind on a real documentation build, side by side in one
 * run: time to index, index size, memory, query latency.
 */
export async function benchIndex(): Promise<void> {
  const docs = documentation();
  // Every time here grows with what else the machine runs: the load is printed with them.
  const loadBefore = loadavg()[0]!;
  // What an installed package runs: the JavaScript compiled into lib/, as `npm install` builds it.
  compileLib();
  let pagefindSearches: PagefindSearchTimes = { searchMs: [], withDataMs: [] };
  const { ours, theirs } = await alternatingRounds(
    docs,
    () => doclensRound(docs),
    async (bundle) => {
      pagefindSearches = await pagefindSearchTimes(bundle, SUITE_QUERIES, 1);
    },
  );
  const last = ours.at(-1)!;
  const searches = last.searchMs;
  const pagefindPeak = theirs.map((figures) => figures.peakResidentBytes).filter((bytes) => bytes !== undefined);
  const pagefindCpu = theirs.map((figures) => figures.cpuMs).filter((millis) => millis !== undefined);
  table(
    `Search index of ${PACKAGE} (${mb(folderBytes(docs))}; doclens: ${last.pages} content pages, ${last.sections} sections; ` +
      `Pagefind: ${theirs[0]!.pages} HTML files) — median of ${ROUNDS} alternating rounds, ` +
      `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
    [
      ['measure', 'doclens', 'Pagefind', 'target'],
      ...timeRows(
        'index time (searches complete)',
        ours.map((figures) => figures.indexMs),
        theirs.map((figures) => figures.indexMs),
      ),
      [
        'processor time (all threads)',
        seconds(median(ours.map((figures) => figures.cpuMs))),
        pagefindCpu.length ? seconds(median(pagefindCpu)) : 'n/a (no GNU time)',
        '',
      ],
      ['index on disk', mb(last.bytesOnDisk), mb(theirs.at(-1)!.bytesOnDisk), ''],
      ['restart, index loaded from disk', seconds(median(ours.map((figures) => figures.reloadMs))), '—', '< 1 s'],
      [
        'restart: first search, asked once the API is up (complete answers)',
        `${ms(median(ours.map((figures) => figures.restartAnswerMs)))} ` +
          `(${ours.filter((figures) => figures.restartAnswerComplete).length} of ${ours.length} complete)`,
        '—',
        '< 1 s, complete',
      ],
      ['first search after "search complete"', ms(median(ours.map((figures) => figures.firstSearchMs))), '—', '< 100 ms'],
      [
        'resident memory the index adds',
        mb(median(ours.map((figures) => figures.residentBytes))),
        '— (searches in the browser)',
        '≤ 150 MB',
      ],
      [
        'peak resident memory while indexing (doclens: until "search complete")',
        mb(median(ours.map((figures) => figures.peakIndexingBytes))),
        pagefindPeak.length ? mb(median(pagefindPeak)) : 'n/a (no GNU time)',
        'doclens < Pagefind',
      ],
      [
        'peak resident memory of the whole run (doclens: indexing and the searches)',
        mb(median(ours.map((figures) => figures.peakResidentBytes))),
        '',
        '',
      ],
      [
        `search p50 (doclens: ${searches.length} over HTTP from "search complete" on, the first included; Pagefind: after a warm-up round)`,
        ms(percentile(searches, 50)),
        ms(percentile(pagefindSearches.searchMs, 50)),
        '',
      ],
      ['search p99', ms(percentile(searches, 99)), ms(percentile(pagefindSearches.searchMs, 99)), 'doclens < 100 ms'],
      [
        'slowest search (doclens: the first after "search complete" included)',
        ms(searches.at(-1)!),
        ms(pagefindSearches.searchMs.at(-1)!),
        '',
      ],
      [
        "search with the first 10 results' data, p50 / p99",
        '(included above)',
        `${ms(percentile(pagefindSearches.withDataMs, 50))} / ${ms(percentile(pagefindSearches.withDataMs, 99))}`,
        '',
      ],
    ],
  );
  console.log(
    `  The ${SUITE_QUERIES.length} queries of the real-docs suite (all its sites). doclens answers over HTTP (the docs host's\n` +
      '  Search API); Pagefind searches where it searches, in Chromium (WebAssembly, its index served from loopback).\n' +
      '  doclens is the `doclens host` command as installed (lib/, compiled), in a process of its own; its time\n' +
      '  runs from its start to "search complete", its peak and processor time are its process\'s, as Pagefind\'s are.',
  );
}
