/**
 * The real-docs regression suite (`npm run realdocs [-- SLUG…]`): doclens on documentation sites
 * nobody here built — Sphinx sites of Debian's documentation packages in their projects' own themes,
 * and MkDocs sites built here from real projects' Markdown. For each site it serves the docs with
 * `doclens demo --docs` (in process, free ports) and measures the index, the previews of in-content
 * links, search relevance and the keyboard in Chromium (a browser per site); it ends with a
 * table and exits non-zero when a site misses a target.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { parseDemoArgs, startDemo, type RunningDemo } from '../../cli/demo.ts';
import { PageStore } from '../../host/pages.ts';
import { launchChromium } from '../e2e/browser.ts';
import { runKeyboardChecks, type KeyboardResult } from './keyboard.ts';
import {
  checkExpectedPages,
  distinctRows,
  halvesOf,
  indexFigures,
  relevanceOfOutcomes,
  sampleLinks,
  searchRelevance,
  share,
  type IndexFigures,
  type Ranked,
  type Relevance,
  type ServedSite,
} from './metrics.ts';
import { ahead, peerRelevance, type PeerRelevance } from './peers.ts';
import { checkPreviews, type PreviewOutcome } from './previews.ts';
import { firstPreviewTimes, previewTimesLine, previewTimesPass, type PreviewTimes } from './preview-time.ts';
import { pagePlaces } from './places.ts';
import { printReader, readerChecks, siteRoot, type ReaderCheck } from './reader.ts';
import { printThemeReader, themeReaderChecks, type ThemeReaderCheck } from './themes-reader.ts';
import { extraQueriesOf, queriesOf, SITES, type Query, type Site } from './sites.ts';
import { type Halves, loadSaved, savedByThisCode, type SavedIndex } from './saved-indexes.ts';
import {
  sameTop10,
  searchInParts,
  searchWhole,
  staticRelevance,
  wholeIndex,
  type IndexSearch,
  type StaticRelevance,
} from './static-mode.ts';
import { type TypoFigures, typoFigures, TYPOS_PER_SITE } from './typos.ts';

const TARGETS = { previews: 0.98, distinctRows: 0.95, top3: 0.95, mrr: 0.9, respelled: 0.9 };
const INDEX_CACHE = fileURLToPath(new URL('./.cache/indexes/', import.meta.url));
const PAGEFIND_CACHE = fileURLToPath(new URL('./.cache/pagefind/', import.meta.url));
const STATIC_CACHE = fileURLToPath(new URL('./.cache/static/', import.meta.url));
/** In-content links whose previews are asked for, per site. */
const LINKS_PER_SITE = 300;
/** The flag of a run that measures search alone (`searchOnly`). */
const SEARCH_ONLY = '--search-only';
/** The flag of a search-only run on the indexes a run saved, in process (`measureSaved`). */
const SAVED = '--saved';
/** The flag that also searches the extra tuning queries of `--search-only` and `--saved` runs (`extraQueriesOf`), in no target. */
const EXTRA = '--extra';
/** The flag of a `--saved` run that also searches the sites' page titles typed with a slip (`typos.ts`), in no target. */
const TYPOS = '--typos';
/** Failing examples printed per measure and site. */
const EXAMPLES = 6;

interface KeyboardChecks {
  run(url: string): Promise<KeyboardResult[]>;
  /** The site's browser (launched again if it died): the keyboard checks', the reader's checks' (reader.ts) and the peers'. */
  browser(): Promise<Browser>;
  close(): Promise<void>;
}

interface SiteRow {
  site: Site;
  pages: number;
  sectionsPerPage: number;
  distinctTitles: number;
  /** Share of pages whose result row no other page's reads the same, title and place. */
  distinctRows: number;
  previews: number;
  previewsChecked: number;
  /** Links whose target documents nothing, previewed as their heading: not counted. */
  previewsLeftOut: number;
  top3: number;
  mrr: number;
  relevance: Relevance;
  /** The same on each half of the queries: a ranking change is tuned on one, and must not lose on the other. */
  halves: ReturnType<typeof halvesOf>;
  peers: PeerRelevance;
  /** Static mode's search (`doclens build`, in the browser) on the same queries. */
  staticMode: StaticRelevance;
  /** Queries with a word the search reads as another spelling (typos, word forms), found by the index. */
  respelled: Set<Query>;
  queries: number;
  keyboard: KeyboardResult[];
  reader: ReaderCheck[];
  themes: ThemeReaderCheck[];
  previewTimes: PreviewTimes;
  seconds: number;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** A transient status line on a terminal (what is running now), replaced by the next line printed. */
function status(text: string): void {
  if (process.stdout.isTTY) process.stdout.write(`\r\x1b[K  ${text}`);
}

function report(line: string): void {
  if (process.stdout.isTTY) process.stdout.write('\r\x1b[K');
  console.log(line);
}

/**
 * The local host's index: pages, sections and titles; and the share of result rows that tell their page apart, by its
 * title or, where other pages have that title, with the place the row gives it (as the widget places it on the start page;
 * without a browser, in search-only mode, titles alone).
 */
async function measureIndex(demo: RunningDemo, site: ServedSite, browser?: Browser): Promise<IndexFigures & { distinctRows: number }> {
  status('indexing…');
  const index = indexFigures(await demo.host.search.index(site.version), site.files);
  const unindexed = index.unindexed.length
    ? ` (not: ${index.unindexed.slice(0, 4).join(', ')}${index.unindexed.length > 4 ? ', …' : ''})`
    : '';
  const repeatedTitles = new Set(index.repeatedTitles.map(([title]) => title));
  const shared = [...index.titles].filter(([, title]) => repeatedTitles.has(title.toLowerCase()));
  const places =
    shared.length && browser
      ? await pagePlaces(browser, demo.pages[0]!.url, new Map(shared.map(([file]) => [file, site.registry.docsUrl(site.version, file)])))
      : new Map<string, string>();
  const rows = distinctRows(index.titles, places);
  const repeated = index.repeatedTitles.slice(0, 4).map(([title, count]) => `"${title.slice(0, 50)}" ×${count}`);
  const placed = shared.filter(([file]) => places.has(file)).length;
  report(
    `  pages: ${index.served} served, ${index.indexed} indexed${unindexed}; ` +
      `${(index.sections / Math.max(1, index.indexed)).toFixed(1)} sections per page; ` +
      `distinct titles ${percent(index.distinctTitles)}${repeated.length ? ` (repeated: ${repeated.join(', ')})` : ''}` +
      (browser ? `; rows told apart ${percent(rows)} (${placed} of ${shared.length} pages sharing a title placed)` : ''),
  );
  return { ...index, distinctRows: rows };
}

/** Previews of sampled in-content links: the share that carries text, and a few that do not. */
async function measurePreviews(site: ServedSite): Promise<{ share: number; checked: number; leftOut: number }> {
  status('sampling links…');
  const sample = await sampleLinks(site, LINKS_PER_SITE);
  status(`asking ${sample.links.length} previews…`);
  const outcomes = await checkPreviews(site, sample.links);
  const previews = outcomes.filter((outcome) => !outcome.leftOut);
  const leftOut = outcomes.length - previews.length;
  const failed = previews.filter((outcome) => outcome.failure);
  const kinds = new Map<string, number>();
  for (const { failure } of failed) kinds.set(failure!, (kinds.get(failure!) ?? 0) + 1);
  const notes = [
    kinds.size ? `failed: ${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')}` : '',
    sample.broken.length ? `${sample.broken.length} links to fragments their page lacks not counted` : '',
    leftOut ? `${leftOut} links to targets that document nothing, previewed as their heading or what introduces them, not counted` : '',
    sample.withoutMainContent.length
      ? `no main content found on ${sample.withoutMainContent.length} pages (${sample.withoutMainContent.slice(0, 3).join(', ')})`
      : '',
  ].filter(Boolean);
  const passed = share(previews.length - failed.length, previews.length);
  report(
    `  previews: ${previews.length - failed.length}/${previews.length} in-content links carry text beyond their heading ` +
      `(${percent(passed)})${notes.length ? `; ${notes.join('; ')}` : ''}`,
  );
  const line = (mark: string, outcome: PreviewOutcome) =>
    console.log(`    ${mark} ${outcome.from} → ${outcome.url.replace(/^https?:\/\/[^/]+/, '')}: ${outcome.reason}`);
  for (const outcome of failed.slice(0, EXAMPLES)) line('✗', outcome);
  for (const outcome of outcomes.filter((outcome) => outcome.leftOut).slice(0, 3)) line('·', outcome);
  return { share: passed, checked: previews.length, leftOut };
}

async function measureSearch(site: ServedSite, queries: Query[]): Promise<Relevance> {
  status('searching…');
  const relevance = await searchRelevance(site, queries);
  reportSearch(relevance, queries);
  return relevance;
}

/** Both halves' figures, and the tuning half's misses. */
function reportSearch(relevance: Relevance, queries: Query[]): void {
  const { tuning, heldOut } = halvesOf(relevance);
  const half = (part: Relevance) => `top-3 ${percent(part.top3)}, MRR ${part.mrr.toFixed(3)} on ${part.outcomes.length}`;
  report(
    `  search: top-3 ${percent(relevance.top3)}, MRR ${relevance.mrr.toFixed(3)} on ${queries.length} queries ` +
      `(tuning half: ${half(tuning)}; held-out half: ${half(heldOut)})`,
  );
  // The tuning half's only: the held-out half is read as figures, never query by query (docs/real-docs.md).
  printMisses(tuning, EXAMPLES);
}

/** The queries of `relevance` with no answer in the top 3, the first `limit`: where an answer ranks and what ranks first. */
function printMisses(relevance: Relevance, limit: number): void {
  const misses = relevance.outcomes.filter((outcome) => outcome.rank === 0 || outcome.rank > 3);
  for (const { query, rank, top } of misses.slice(0, limit)) {
    const expected = [query.page].flat().join(' or ');
    console.log(
      `    ✗ "${query.q}" → ${expected} ${rank ? `at rank ${rank}` : 'not in the first 10'}; ` +
        `first: ${top.slice(0, 3).join(', ') || '(nothing)'}`,
    );
  }
}

/** The extra tuning queries' figures and every miss of theirs (`EXTRA`): nothing in them is held out. */
function reportExtra(extra: Relevance | undefined): void {
  if (!extra?.outcomes.length) return;
  report(`  extra tuning queries (in no target): top-3 ${percent(extra.top3)}, MRR ${extra.mrr.toFixed(3)} on ${extra.outcomes.length}`);
  printMisses(extra, extra.outcomes.length);
}

/** All sites' extra tuning queries as one set (`EXTRA`), in no target. */
function extraLine(rows: SearchRow[]): string {
  const { top3, mrr, outcomes } = relevanceOfOutcomes(rows.flatMap((row) => row.extra?.outcomes ?? []));
  return `extra tuning queries (in no target): top-3 ${percent(top3)}, MRR ${mrr.toFixed(3)} on ${outcomes.length}`;
}

/** Static mode: the site built by `doclens build`, served as plain files, searched as the widget does in a browser. */
async function measureStatic(site: Site, queries: Query[], hosted: Relevance): Promise<StaticRelevance> {
  status('doclens build and static search…');
  const found = await staticRelevance(site.root, `${STATIC_CACHE}${site.slug}`, queries, hosted);
  report(
    `  static mode: top-3 ${percent(found.top3)}, MRR ${found.mrr.toFixed(2)}; ` +
      `the host's top 10 pages, in its order, on ${found.sameTop10}/${queries.length} queries`,
  );
  return found;
}

/** Sphinx's own search and Pagefind on the same folder and queries. */
async function measurePeers(site: Site, queries: Query[], keyboard: KeyboardChecks): Promise<PeerRelevance> {
  status('Sphinx search and Pagefind in Chromium…');
  const browser = await keyboard.browser();
  const peers = await peerRelevance(browser, site.root, queries, `${PAGEFIND_CACHE}${site.slug}`).catch(async (error: unknown) => {
    // A browser that died under load is launched again, once.
    if (browser.isConnected()) throw error;
    report('  peers: Chromium closed; measuring again in a new one');
    return peerRelevance(await keyboard.browser(), site.root, queries, `${PAGEFIND_CACHE}${site.slug}`);
  });
  const line = (relevance: Relevance | undefined) =>
    relevance ? `top-3 ${percent(relevance.top3)}, MRR ${relevance.mrr.toFixed(2)}` : 'n/a';
  report(
    `  peers: Sphinx's search ${peers.sphinxFailure ? `fails (${peers.sphinxFailure})` : line(peers.sphinx)}; ` +
      `Pagefind ${line(peers.pagefind)}`,
  );
  return peers;
}

async function measureKeyboard(keyboard: KeyboardChecks, url: string): Promise<KeyboardResult[]> {
  status('keyboard checks in Chromium…');
  const results = await keyboard.run(url);
  const failures = results.filter((result) => !result.passed);
  report(`  keyboard: ${results.length - failures.length}/${results.length} checks pass`);
  for (const result of results) {
    if (!result.passed || result.detail)
      console.log(`    ${result.passed ? '·' : '✗'} ${result.name}${result.detail ? `: ${result.detail}` : ''}`);
  }
  return results;
}

/** The site served by `doclens demo --docs` (in process, free ports), its index kept in the suite's index cache. */
async function serve(site: Site): Promise<{ demo: RunningDemo; served: ServedSite }> {
  site.prepare();
  // Search indexes kept with the suite's other builds, not in the user's cache folder.
  const demo = await startDemo(parseDemoArgs(['--docs', site.root, '--project', site.slug, '--port', '0', '--index-cache', INDEX_CACHE]));
  const version = demo.host.registry.projects[0]!.versions[0]!;
  const pages = new PageStore();
  const files = await pages.contentPages(version);
  const firstPage = (await pages.read(version, files.includes('index.html') ? 'index.html' : files[0]!)) ?? '';
  const served: ServedSite = {
    registry: demo.host.registry,
    version,
    pages,
    files,
    proxyUrl: demo.proxyUrl,
    // As the widget decides: Sphinx pages load documentation_options.js.
    doctool: /documentation_options/.test(firstPage) ? 'sphinx' : undefined,
  };
  return { demo, served };
}

/**
 * The host's index as saved, searched as static mode searches (see `searchInParts`), once the
 * demo is closed (the host saves its index by then): the queries read as other spellings, and in
 * search-only mode static mode's figures.
 */
async function measureSavedIndex(
  site: Site,
  served: ServedSite,
  queries: Query[],
  hosted: Relevance,
): Promise<IndexSearch & StaticRelevance> {
  status('the saved index, part by part…');
  const saved = searchInParts(await savedByThisCode(INDEX_CACHE, site, served.files, halvesOf(hosted)), queries);
  reportRespelled(saved.respelled, hosted);
  return { ...saved, sameTop10: sameTop10(saved, hosted) };
}

function reportRespelled(respelled: Set<Query>, relevance: Relevance): void {
  const { found, of } = respelledTop3([{ respelled, relevance }]);
  report(`  typo and word-form queries (a word read as another spelling): ${found} of ${of} in the top 3`);
}

/** How many of the sites' typo and word-form queries (see `IndexSearch.respelled`) the host ranks an answer of in the top 3. */
function respelledTop3(rows: { respelled: Set<Query>; relevance: Relevance }[]): { found: number; of: number } {
  const outcomes = rows.flatMap(({ respelled, relevance }) => relevance.outcomes.filter((outcome) => respelled.has(outcome.query)));
  return { found: outcomes.filter((outcome) => outcome.rank > 0 && outcome.rank <= 3).length, of: outcomes.length };
}

const respelledLine = (rows: { respelled: Set<Query>; relevance: Relevance }[]) => {
  const { found, of } = respelledTop3(rows);
  return `typo and word-form queries: ${found} of ${of} in the top 3 (${percent(share(found, of))}, target ${percent(TARGETS.respelled)})`;
};

interface SearchRow {
  site: Site;
  pages: number;
  relevance: Relevance;
  halves: ReturnType<typeof halvesOf>;
  /** The typo and word-form queries, found by the saved index. */
  respelled: Set<Query>;
  /** The host's saved index searched as static mode searches; not with `--saved`, which searches it without the host. */
  staticMode: StaticRelevance | undefined;
  /** The site's extra tuning queries, with `EXTRA`. */
  extra: Relevance | undefined;
  /** Its page titles typed with a slip, with `TYPOS`. */
  titleTypos?: TypoFigures;
  seconds: number;
}

/** `--search-only`: the index and search through the proxy, both halves, static mode's engine on the saved index; nothing else. */
async function measureSearchOnly(site: Site, extraQueries: Query[]): Promise<SearchRow> {
  const started = Date.now();
  const queries = queriesOf(site);
  const { demo, served } = await serve(site);
  let index: IndexFigures;
  let relevance: Relevance;
  let extra: Relevance | undefined;
  try {
    index = await measureIndex(demo, served);
    relevance = await measureSearch(served, queries);
    extra = extraQueries.length ? await searchRelevance(served, extraQueries) : undefined;
    reportExtra(extra);
  } finally {
    await demo.close();
  }
  const saved = await measureSavedIndex(site, served, queries, relevance);
  report(
    `  static mode (the saved index, part by part): top-3 ${percent(saved.top3)}, MRR ${saved.mrr.toFixed(3)}; ` +
      `the host's top 10 pages, in its order, on ${saved.sameTop10}/${queries.length} queries`,
  );
  const { respelled, ...staticMode } = saved;
  return {
    site,
    pages: index.indexed,
    relevance,
    halves: halvesOf(relevance),
    respelled,
    staticMode,
    extra,
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * `--saved`: the index a run of the suite saved (see `loadSaved`), loaded whole as the host loads its cache and searched in
 * process, with this code's ranking: the figures of `--search-only` without the host, the proxy or static mode.
 */
function measureSaved(site: Site, saved: SavedIndex & { refused?: undefined }, extraQueries: Query[], typos: boolean): SearchRow {
  const started = Date.now();
  const queries = queriesOf(site);
  const index = wholeIndex(saved.lines);
  // The site's files on disk: a saved index is measured without serving them.
  checkExpectedPages(site.slug, [...queries, ...extraQueries], (file) => existsSync(join(site.root, file)));
  const { pages, respelled, ...relevance } = searchWhole(index, queries);
  reportSearch(relevance, queries);
  reportRespelled(respelled, relevance);
  const extra = extraQueries.length ? searchWhole(index, extraQueries) : undefined;
  reportExtra(extra);
  const titleTypos = typos ? typoFigures(index) : undefined;
  reportTypos(titleTypos);
  const seconds = (Date.now() - started) / 1000;
  return { site, pages, relevance, halves: halvesOf(relevance), respelled, staticMode: undefined, extra, titleTypos, seconds };
}

/** Page titles typed with a slip (`TYPOS`), and every miss of theirs: made by rule, nothing in them is held out. */
function reportTypos(typos: TypoFigures | undefined): void {
  if (!typos) return;
  report(`  page titles typed with a slip (in no target): ${typos.found} of ${typos.of} still find their page in the top 3`);
  for (const { typo, query, path } of typos.missed.slice(0, EXAMPLES)) console.log(`    ✗ "${typo}" (for "${query}") → ${path}`);
}

/** All sites' title typos as one figure (`TYPOS`). */
function typosLine(rows: SearchRow[]): string {
  const of = rows.reduce((sum, row) => sum + (row.titleTypos?.of ?? 0), 0);
  const found = rows.reduce((sum, row) => sum + (row.titleTypos?.found ?? 0), 0);
  return `page titles typed with a slip (in no target, up to ${TYPOS_PER_SITE} a site): ${found} of ${of} (${percent(share(found, of))})`;
}

/** The search targets a set of queries misses, `half` naming which set ("held-out ") where it is not all of a site's. */
function rankingMisses(ranked: Ranked, half = ''): string[] {
  return [
    ranked.top3 < TARGETS.top3 ? `${half}top-3 ${percent(ranked.top3)} < ${percent(TARGETS.top3)}` : '',
    ranked.mrr < TARGETS.mrr ? `${half}MRR ${ranked.mrr.toFixed(2)} < ${TARGETS.mrr.toFixed(2)}` : '',
  ];
}

/** Static mode must rank as the host does (one engine). */
const staticMiss = (staticMode: Ranked, host: Ranked) =>
  staticMode.top3 !== host.top3 || staticMode.mrr !== host.mrr ? `static mode's top-3 and MRR differ from the host's` : '';

function searchMisses(row: SearchRow): string[] {
  const staticMode = row.staticMode ? staticMiss(row.staticMode, row.relevance) : '';
  return [...rankingMisses(row.relevance), ...rankingMisses(row.halves.heldOut, 'held-out '), staticMode].filter(Boolean);
}

function searchTable(rows: SearchRow[]): string {
  const lines = [
    '| Site | Pages | Search top-3, MRR | Tuning top-3, MRR | Held-out top-3, MRR | ' +
      'Static mode top-3, MRR, same top 10 | Typo and word-form in top 3 |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const { found, of } = respelledTop3([row]);
    const staticMode = row.staticMode
      ? `${relevanceCell(row.staticMode)}, ${row.staticMode.sameTop10}/${row.relevance.outcomes.length}`
      : '—';
    lines.push(
      `| ${row.site.slug} | ${row.pages} | ${relevanceCell(row.relevance)} of ${row.relevance.outcomes.length} | ` +
        `${relevanceCell(row.halves.tuning)} | ${relevanceCell(row.halves.heldOut)} | ${staticMode} | ${found} of ${of} |`,
    );
  }
  return lines.join('\n');
}

async function measure(site: Site, keyboard: KeyboardChecks): Promise<SiteRow> {
  const started = Date.now();
  const queries = queriesOf(site);
  const { demo, served } = await serve(site);
  let row: Omit<SiteRow, 'respelled'>;
  try {
    const index = await measureIndex(demo, served, await keyboard.browser());
    // First, while the proxy has fetched and parsed no page.
    status('first previews with two busy processes in Chromium…');
    const previewTimes = await firstPreviewTimes(await keyboard.browser(), served);
    report(`  ${previewTimesLine(previewTimes)}`);
    const previews = await measurePreviews(served);
    const relevance = await measureSearch(served, queries);
    const staticMode = await measureStatic(site, queries, relevance);
    const peers = await measurePeers(site, queries, keyboard);
    const keyboardResults = await measureKeyboard(keyboard, demo.pages[0]!.url);
    status('reader checks in Chromium…');
    const reader = await readerChecks(await keyboard.browser(), served, demo.pages[0]!.url, site.slug, queries);
    printReader(reader);
    status('theme reader checks in Chromium…');
    const sample = await sampleLinks(served, LINKS_PER_SITE);
    const root = sample.links[0] ? siteRoot(sample.links[0]) : demo.pages[0]!.url;
    const themes = await themeReaderChecks(await keyboard.browser(), served, demo.pages[0]!.url, queries, sample.links, root);
    printThemeReader(themes);
    row = {
      site,
      pages: index.indexed,
      sectionsPerPage: index.sections / Math.max(1, index.indexed),
      distinctTitles: index.distinctTitles,
      distinctRows: index.distinctRows,
      previews: previews.share,
      previewsChecked: previews.checked,
      previewsLeftOut: previews.leftOut,
      top3: relevance.top3,
      mrr: relevance.mrr,
      relevance,
      halves: halvesOf(relevance),
      peers,
      staticMode,
      queries: queries.length,
      keyboard: keyboardResults,
      reader,
      themes,
      previewTimes,
      seconds: 0,
    };
  } finally {
    await demo.close();
  }
  const { respelled } = await measureSavedIndex(site, served, queries, row.relevance);
  return { ...row, respelled, seconds: (Date.now() - started) / 1000 };
}

/**
 * The Chromium keyboard checks of `keyboard.ts`, with one browser per site (`close` after each),
 * launched on first use and again when it died (a browser that closed under load during one site's
 * peers must not leave the later sites unmeasured).
 */
function keyboardChecks(): KeyboardChecks {
  let browser: Promise<Browser> | undefined;
  const current = async () => {
    const running = await browser?.catch(() => undefined);
    if (running?.isConnected()) return running;
    browser = launchChromium();
    return browser;
  };
  return {
    run: async (url) => runKeyboardChecks(await current(), url),
    browser: current,
    close: async () => {
      const running = await browser?.catch(() => undefined);
      browser = undefined;
      await running?.close();
    },
  };
}

function misses(row: SiteRow): string[] {
  return [
    row.previews < TARGETS.previews ? `previews ${percent(row.previews)} < ${percent(TARGETS.previews)}` : '',
    row.distinctRows < TARGETS.distinctRows ? `rows told apart ${percent(row.distinctRows)} < ${percent(TARGETS.distinctRows)}` : '',
    ...rankingMisses(row),
    staticMiss(row.staticMode, row),
    ...(['sphinx', 'pagefind'] as const).map((peer) => {
      const theirs = row.peers[peer];
      return theirs && !ahead(row, theirs) ? `search not ahead of ${peer === 'sphinx' ? "Sphinx's" : 'Pagefind'}` : '';
    }),
    row.keyboard.some((result) => !result.passed)
      ? `keyboard: ${row.keyboard
          .filter((result) => !result.passed)
          .map((result) => result.name)
          .join(', ')}`
      : '',
    previewTimesPass(row.previewTimes) ? '' : `first preview p95 ${row.previewTimes.p95} ms`,
    ...(
      [
        ['reader', row.reader],
        ['themes reader', row.themes],
      ] as const
    ).map(([label, checks]) =>
      checks.some((check) => !check.passed)
        ? `${label}: ${checks
            .filter((check) => !check.passed)
            .map((check) => `${check.point}. ${check.name}`)
            .join(', ')}`
        : '',
    ),
  ].filter(Boolean);
}

const relevanceCell = (relevance: Relevance | undefined) => (relevance ? `${percent(relevance.top3)}, ${relevance.mrr.toFixed(3)}` : '—');

function table(rows: SiteRow[]): string {
  const lines = [
    '| Site | Generator, theme | Pages | Sections/page | Distinct titles, rows told apart | Previews with text | Search top-3 | MRR | ' +
      'Tuning top-3, MRR | Held-out top-3, MRR | Static mode top-3, MRR | Sphinx search top-3, MRR | Pagefind top-3, MRR | Keyboard | ' +
      'Reader 1 2 3 4 5 9 | Themes reader 1 2 3 4 6 7 | First preview, busy: p50, p95 |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const keyboard = `${row.keyboard.filter((result) => result.passed).length}/${row.keyboard.length}`;
    const marks = (checks: { passed: boolean }[]) => checks.map((check) => (check.passed ? '✓' : '✗')).join(' ');
    lines.push(
      `| ${row.site.slug} | ${row.site.generator === 'sphinx' ? 'Sphinx' : 'MkDocs'}, ${row.site.theme} | ${row.pages} | ` +
        `${row.sectionsPerPage.toFixed(1)} | ${percent(row.distinctTitles)}, ${percent(row.distinctRows)} | ` +
        `${percent(row.previews)} of ${row.previewsChecked}` +
        `${row.previewsLeftOut ? ` (${row.previewsLeftOut} documenting nothing left out)` : ''} | ` +
        `${percent(row.top3)} of ${row.queries} | ${row.mrr.toFixed(2)} | ` +
        `${relevanceCell(row.halves.tuning)} | ${relevanceCell(row.halves.heldOut)} | ${relevanceCell(row.staticMode)} | ` +
        `${relevanceCell(row.peers.sphinx)} | ${relevanceCell(row.peers.pagefind)} | ${keyboard} | ` +
        `${marks(row.reader)} | ${marks(row.themes)} | ${row.previewTimes.p50} ms, ${row.previewTimes.p95} ms |`,
    );
  }
  return lines.join('\n');
}

/** The themes reader's figures (issue 33), a site a row: what each check measured, ✗ where it misses. */
function themesTable(rows: SiteRow[]): string {
  const points = [1, 2, 3, 4, 6, 7] as const;
  const lines = [
    '| Site | 1. Marks on an opened page, stop words, in code broken | 2. Escape clears marks | ' +
      '3. Furniture among section hits, previews | 4. One-tap search on a phone | 6. Tab presses link to link | ' +
      '7. axe serious/critical, dialog and preview open |',
    `|---|${points.map(() => '---|').join('')}`,
  ];
  for (const row of rows) {
    const cells = points.map((point) => {
      const check = row.themes.find((candidate) => candidate.point === point);
      return check ? `${check.passed ? '' : '✗ '}${check.figure}` : '—';
    });
    lines.push(`| ${row.site.slug} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * `--saved`: the sites whose halves' figures differ from those of the run that saved their indexes, and how many held-out
 * halves fell (a ranking change lands only if none does: docs/real-docs.md).
 */
function changesSinceSaved(rows: SearchRow[], saved: ReadonlyMap<Site, Halves | undefined>): string {
  const lines: string[] = [];
  let falls = 0;
  const cell = (ranked: Ranked) => `${percent(ranked.top3)}, ${ranked.mrr.toFixed(3)}`;
  for (const row of rows) {
    const before = saved.get(row.site);
    if (!before) continue;
    const moved = (['tuning', 'heldOut'] as const).filter((half) => cell(before[half]) !== cell(row.halves[half]));
    if (!moved.length) continue;
    const fell = row.halves.heldOut.top3 < before.heldOut.top3 || row.halves.heldOut.mrr < before.heldOut.mrr;
    if (fell) falls++;
    const halves = moved.map((half) => `${half === 'heldOut' ? 'held-out' : 'tuning'} ${cell(before[half])} → ${cell(row.halves[half])}`);
    lines.push(`  ${row.site.slug}: ${halves.join('; ')}${fell ? ' (the held-out half fell)' : ''}`);
  }
  const moved = lines.length ? `\n${lines.join('\n')}\n` : ' no figure moved; ';
  return `Since the runs that saved the indexes:${moved}${falls} held-out halves fell`;
}

/**
 * `--search-only`: each site's search figures (see `measureSearchOnly`, or `measureSaved` with `saved`), a table, and the sites
 * that miss a search target; with `extra`, the extra tuning queries' figures too, apart. With `saved`, refused before any site
 * is measured when a site's saved index cannot be used.
 */
async function searchOnly(sites: Site[], saved: boolean, extra: boolean, typos: boolean): Promise<number> {
  const savedIndexes = saved ? await Promise.all(sites.map((site) => loadSaved(INDEX_CACHE, site))) : [];
  const refusals = savedIndexes.flatMap((index) => (index.refused ? [index.refused] : []));
  if (refusals.length) {
    for (const refusal of refusals) console.error(`realdocs ${SAVED}: ${refusal}`);
    return 2;
  }
  const changed = savedIndexes.filter((index) => index.searchChanged).length;
  if (changed)
    console.log(
      `search/ changed since ${changed} of these indexes were saved: if what an index saves changed too, bump FORMAT_VERSION ` +
        `and run ${SEARCH_ONLY} (these figures would be those of the old index)`,
    );
  const rows: SearchRow[] = [];
  const broken: [string, string][] = [];
  const started = Date.now();
  for (const [index, site] of sites.entries()) {
    const savedIndex = savedIndexes[index];
    console.log(`\n[${index + 1}/${sites.length}] ${site.name} (${site.root})`);
    try {
      const extraQueries = extra ? extraQueriesOf(site) : [];
      const row = savedIndex?.lines ? measureSaved(site, savedIndex, extraQueries, typos) : await measureSearchOnly(site, extraQueries);
      rows.push(row);
      console.log(`  (${row.seconds.toFixed(0)} s)`);
    } catch (error) {
      report(`  not measured: ${error instanceof Error ? error.message : String(error)}`);
      broken.push([site.slug, `not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`]);
    }
  }
  console.log(`\n${searchTable(rows)}\n`);
  if (saved) console.log(changesSinceSaved(rows, new Map(sites.map((site, index) => [site, savedIndexes[index]?.halves]))));
  const failing = [...rows.map((row) => [row.site.slug, searchMisses(row).join('; ')] as const).filter(([, missed]) => missed), ...broken];
  for (const [slug, missed] of failing) console.log(`✗ ${slug}: ${missed}`);
  console.log(respelledLine(rows));
  if (extra) console.log(extraLine(rows));
  if (typos) console.log(typosLine(rows));
  console.log(
    `${sites.length - failing.length} of ${sites.length} sites meet every search target (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  const { found, of } = respelledTop3(rows);
  return failing.length || share(found, of) < TARGETS.respelled ? 1 : 0;
}

async function main(args: string[]): Promise<number> {
  const argv = args.filter((arg) => arg !== SEARCH_ONLY && arg !== SAVED && arg !== EXTRA && arg !== TYPOS);
  const unknown = argv.filter((slug) => !SITES.some((site) => site.slug === slug));
  if (unknown.length) {
    console.error(`realdocs: unknown site ${unknown.join(', ')} (sites: ${SITES.map((site) => site.slug).join(', ')})`);
    return 2;
  }
  const sites = argv.length ? SITES.filter((site) => argv.includes(site.slug)) : SITES;
  if (args.includes(TYPOS) && !args.includes(SAVED)) {
    console.error(`realdocs: ${TYPOS} goes with ${SAVED}`);
    return 2;
  }
  if (args.includes(SEARCH_ONLY) || args.includes(SAVED))
    return searchOnly(sites, args.includes(SAVED), args.includes(EXTRA), args.includes(TYPOS));
  if (args.includes(EXTRA)) {
    console.error(`realdocs: ${EXTRA} goes with ${SEARCH_ONLY} or ${SAVED}`);
    return 2;
  }
  const keyboard = keyboardChecks();
  const rows: SiteRow[] = [];
  /** Sites that could not be measured (a package that would not install, a build that failed), with why. */
  const broken: [string, string][] = [];
  const started = Date.now();
  try {
    for (const [index, site] of sites.entries()) {
      console.log(
        `\n[${index + 1}/${sites.length}] ${site.name}: ${site.generator === 'sphinx' ? 'Sphinx' : 'MkDocs'}, ${site.theme} (${site.root})`,
      );
      try {
        const row = await measure(site, keyboard);
        rows.push(row);
        console.log(`  (${row.seconds.toFixed(0)} s)`);
      } catch (error) {
        report(`  not measured: ${error instanceof Error ? error.message : String(error)}`);
        broken.push([site.slug, `not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`]);
      } finally {
        await keyboard.close();
      }
    }
  } finally {
    await keyboard.close();
  }
  console.log(`\n${table(rows)}\n\n${themesTable(rows)}\n`);
  const failing = [...rows.map((row) => [row.site.slug, misses(row).join('; ')] as const).filter(([, missed]) => missed), ...broken];
  for (const [slug, missed] of failing) console.log(`✗ ${slug}: ${missed}`);
  console.log(respelledLine(rows));
  console.log(
    `${sites.length - failing.length} of ${sites.length} sites meet every target (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  return failing.length ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
