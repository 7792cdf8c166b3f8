import { isTag, type AnyNode, type Element } from 'domhandler';
import type { SearchResponse } from '../../contract/index.ts';
import type { PageStore } from '../../host/pages.ts';
import { fileForPath, type Registry, type Version } from '../../host/registry.ts';
import type { IndexContents } from '../../host/search.ts';
import { findByFragment } from '../../extraction/find-section.ts';
import { findMainContent, structureOf } from '../../extraction/html/structure.ts';
import { descendants, hasClass, type ParsedHtml } from '../../extraction/html/parse.ts';
import { percentDecoded } from '../../extraction/structure/tree.ts';
import { heldOutOf, type Query } from './sites.ts';

/** One documentation version served by the demo, as the measures see it. */
export interface ServedSite {
  registry: Registry;
  version: Version;
  pages: PageStore;
  /** Content pages of the site (what the host indexes), relative to its root. */
  files: string[];
  proxyUrl: string;
  /** `sphinx` on Sphinx pages, as the widget detects it; the previews ask with it. */
  doctool: string | undefined;
}

/** A deterministic generator, so that every run samples the same links. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/**
 * A GET to the proxy that waits out its rate limit (`429` with `Retry-After`) as a well-behaved
 * client does: the suite asks hundreds of previews within seconds.
 */
export async function proxyGet(url: string): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url);
    if (response.status !== 429 || attempt === 20) return response;
    await response.arrayBuffer();
    const seconds = Number(response.headers.get('retry-after')) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

export const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

// ---------------------------------------------------------------------------------------------
// Pages, sections and titles: what the host's search index holds.

export interface IndexFigures {
  /** Content pages served. */
  served: number;
  /** Pages with at least one indexed section. */
  indexed: number;
  /** Content pages the index has nothing of. */
  unindexed: string[];
  sections: number;
  /** Each indexed page's title, by its file. */
  titles: Map<string, string>;
  /** Share of indexed pages whose title no other page has. */
  distinctTitles: number;
  /** The most repeated titles, with how many pages carry each. */
  repeatedTitles: [string, number][];
}

/**
 * Share of pages whose result row no other page's reads the same: its title, and the place the row gives it
 * ("API Reference › Matrices") where `places` has one.
 */
export function distinctRows(titles: ReadonlyMap<string, string>, places: ReadonlyMap<string, string> = new Map()): number {
  const rows = [...titles].map(([file, title]) => `${title.toLowerCase()}\n${places.get(file) ?? ''}`);
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row, (counts.get(row) ?? 0) + 1);
  return share(rows.filter((row) => counts.get(row) === 1).length, rows.length);
}

export function indexFigures(index: IndexContents, files: string[]): IndexFigures {
  const titles = index.pageTitles();
  const unindexed = files.filter((file) => !titles.has(file));
  const counts = new Map<string, number>();
  for (const title of titles.values()) counts.set(title.toLowerCase(), (counts.get(title.toLowerCase()) ?? 0) + 1);
  const repeatedTitles = [...counts.entries()].filter(([, count]) => count > 1).sort((a, b) => b[1] - a[1]);
  const { pages, sections } = index.size;
  return { served: files.length, indexed: pages, unindexed, sections, titles, distinctTitles: distinctRows(titles), repeatedTitles };
}

// ---------------------------------------------------------------------------------------------
// In-content links and their previews.

export interface SampledLink {
  /** The page the link is on. */
  from: string;
  /** Where it points, absolute, without a query (as the widget asks for it). */
  url: string;
  /** The page it points to. */
  target: string;
}

export interface LinkSample {
  links: SampledLink[];
  /** Links to a fragment the target page does not have: the site's own broken links, not measured. */
  broken: SampledLink[];
  /** Pages where no main content was found (their links cannot be sampled). */
  withoutMainContent: string[];
}

/** The widget's opt-outs and links to an element around them (permalinks): links it never previews. */
function optedOut(link: Element): boolean {
  const href = link.attribs.href ?? '';
  const fragment = href.startsWith('#') && href.length > 1 ? percentDecoded(href.slice(1)) : undefined;
  for (let node: AnyNode | null = link; node && isTag(node); node = node.parent) {
    if (
      hasClass(node, 'doclens-no-preview') ||
      node.attribs['data-doclens-preview'] === 'off' ||
      (fragment !== undefined && node.attribs.id === fragment)
    )
      return true;
  }
  return false;
}

/** The file of the site a URL names (`guide/` is `guide/index.html`), or undefined outside the site. */
function siteFileOf(site: ServedSite, url: URL): string | undefined {
  const base = new URL(site.registry.docsUrl(site.version));
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return undefined;
  try {
    return fileForPath(decodeURIComponent(url.pathname.slice(base.pathname.length)));
  } catch {
    return undefined;
  }
}

/**
 * Links inside a page's main content (found as the extraction finds it) to other content pages of
 * the site, as absolute URLs.
 */
function inContentLinks(site: ServedSite, file: string, page: ParsedHtml, contentFiles: ReadonlySet<string>): SampledLink[] | undefined {
  const main = findMainContent(page);
  if (!main) return undefined;
  // As the widget reads the page: no link of the site's menu before its title.
  const inMenus = new Set((structureOf(page, file)?.menusIn(main) ?? []).flatMap((menu) => [menu, ...descendants(menu)]));
  const pageUrl = site.registry.docsUrl(site.version, file);
  const links: SampledLink[] = [];
  for (const element of descendants(main)) {
    const href = element.name === 'a' ? element.attribs.href : undefined;
    if (!href || optedOut(element) || inMenus.has(element)) continue;
    let url: URL;
    try {
      url = new URL(href, pageUrl);
    } catch {
      continue;
    }
    url.search = '';
    const target = siteFileOf(site, url);
    if (target && target !== file && contentFiles.has(target)) links.push({ from: file, url: url.href, target });
  }
  return links;
}

/**
 * Up to `limit` distinct in-content links, spread over the pages: pages in a seeded random order, a
 * few random links from each, so that every run measures the same sample.
 */
export async function sampleLinks(site: ServedSite, limit: number): Promise<LinkSample> {
  const random = seededRandom(20261123);
  const contentFiles = new Set(site.files);
  const perPage = Math.max(2, Math.ceil((2 * limit) / site.files.length));
  const seen = new Set<string>();
  const sample: LinkSample = { links: [], broken: [], withoutMainContent: [] };
  for (const file of shuffled(site.files, random)) {
    if (sample.links.length >= limit) break;
    const page = await site.pages.parse(site.version, file);
    if (!page) continue;
    const links = inContentLinks(site, file, page, contentFiles);
    if (!links) {
      sample.withoutMainContent.push(file);
      continue;
    }
    let taken = 0;
    for (const link of shuffled(links, random)) {
      if (taken >= perPage || sample.links.length >= limit) break;
      if (seen.has(link.url)) continue;
      seen.add(link.url);
      taken++;
      const fragment = new URL(link.url).hash.slice(1);
      const target = fragment && (await site.pages.parse(site.version, link.target));
      if (fragment && target && !findByFragment(target, fragment)) sample.broken.push(link);
      else sample.links.push(link);
    }
  }
  return sample;
}

// ---------------------------------------------------------------------------------------------
// Search relevance.

export interface QueryOutcome {
  query: Query;
  /** 1-based rank of the first result on an expected page; 0 when not among the results. */
  rank: number;
  /** The first results' pages. */
  top: string[];
}

export interface Relevance {
  top3: number;
  /** Mean reciprocal rank over the first page of results (10). */
  mrr: number;
  outcomes: QueryOutcome[];
}

/** A relevance's figures alone. */
export type Ranked = Pick<Relevance, 'top3' | 'mrr'>;

/**
 * Refuses queries that expect a page the site does not have (`has`: whether it has a file): a mistyped expectation is a
 * query nothing can ever pass.
 */
export function checkExpectedPages(slug: string, queries: readonly Query[], has: (file: string) => boolean): void {
  const unknown = queries
    .flatMap((query) => [query.page].flat())
    .map(fileForPath)
    .filter((page) => !has(page));
  if (unknown.length) throw new Error(`queries of ${slug} expect pages the site does not have: ${unknown.join(', ')}`);
}

/** Searches through the proxy as the widget does (`subprojects:slug/version words`, 10 a page). */
export async function searchRelevance(site: ServedSite, queries: Query[]): Promise<Relevance> {
  const { project } = site.version;
  const base = site.registry.docsUrl(site.version);
  const files = new Set(site.files);
  checkExpectedPages(project.slug, queries, (file) => files.has(file));
  const rankings: string[][] = [];
  for (const query of queries) {
    const q = `subprojects:${project.slug}/${site.version.slug} ${query.q}`;
    const response = await proxyGet(`${site.proxyUrl}/api/v3/search/?${new URLSearchParams({ q, page: '1', page_size: '10' })}`);
    if (!response.ok) throw new Error(`search "${query.q}" answered ${response.status}: ${await response.text()}`);
    const { results } = (await response.json()) as SearchResponse;
    rankings.push(results.map((result) => siteFileOf(site, new URL(result.path, base)) ?? result.path));
  }
  return relevanceOf(queries, rankings);
}

/** Top-3 share and MRR of each query's ranked pages (files of the site), whichever engine ranked them. */
export function relevanceOf(queries: Query[], rankings: string[][]): Relevance {
  return relevanceOfOutcomes(
    queries.map((query, index) => {
      const top = rankings[index] ?? [];
      const expected = new Set([query.page].flat().map(fileForPath));
      return { query, rank: top.findIndex((page) => expected.has(page)) + 1, top };
    }),
  );
}

/** A site's relevance on its tuning half and on its held-out half of queries (see `isHeldOut`). */
export function halvesOf({ outcomes }: Relevance): { tuning: Relevance; heldOut: Relevance } {
  const heldOut = heldOutOf(outcomes.map((outcome) => outcome.query));
  return {
    tuning: relevanceOfOutcomes(outcomes.filter((outcome) => !heldOut.has(outcome.query))),
    heldOut: relevanceOfOutcomes(outcomes.filter((outcome) => heldOut.has(outcome.query))),
  };
}

/** Top-3 share and MRR of outcomes, from one site or several. */
export function relevanceOfOutcomes(outcomes: QueryOutcome[]): Relevance {
  const found = outcomes.filter((outcome) => outcome.rank > 0);
  return {
    top3: share(found.filter((outcome) => outcome.rank <= 3).length, outcomes.length),
    mrr: share(
      found.reduce((sum, outcome) => sum + 1 / outcome.rank, 0),
      outcomes.length,
    ),
    outcomes,
  };
}
