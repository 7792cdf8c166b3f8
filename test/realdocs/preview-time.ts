/**
 * Issue 33 point 9 in `npm run realdocs`: the time from hovering a link to its preview's content with the
 * machine busy — two processes keeping a core each busy beside the proxy, started here and stopped after —
 * for the first link of pages whose targets the proxy has neither fetched nor parsed yet (the suite runs it
 * before any other measure asks previews), in Chromium at 1280×800, the 300 ms hover delay included.
 */
import type { Browser, Page } from 'playwright-core';
import { busyProcesses } from '../../bench/busy.ts';
import { percentile } from '../../bench/stats.ts';
import { sampleLinks, type SampledLink, type ServedSite } from './metrics.ts';
import { siteRoot } from './reader.ts';
import type {} from '../../widget/preview/doclens-preview.ts';

/** Pages whose first link is hovered, each link to a page not previewed before. */
const TIMED_PAGES = 20;
/** The target of the 95th percentile. */
export const PREVIEW_P95_MS = 1000;
/** The slowest previews the report names. */
const SLOWEST_SHOWN = 3;
/** How long a preview may take before it counts as not shown. */
const SHOWN_WITHIN_MS = 10_000;

export interface PreviewTimes {
  /** Milliseconds from hover to content, in the order measured. */
  times: number[];
  /** The slowest previews: the link's page, where it points, milliseconds. */
  slowest: [from: string, url: string, ms: number][];
  /** Links hovered that showed no preview within `SHOWN_WITHIN_MS`: the link's page, where it points, what the preview showed. */
  notShown: [from: string, url: string, state: string][];
  p50: number;
  p95: number;
}

/** The first sampled link of each page, to a page no earlier link points to (so that the proxy has not read it). */
function firstLinks(links: SampledLink[]): SampledLink[] {
  const pages = new Set<string>();
  const targets = new Set<string>();
  const first: SampledLink[] = [];
  for (const link of links) {
    if (pages.has(link.from) || targets.has(link.target)) continue;
    pages.add(link.from);
    targets.add(link.target);
    first.push(link);
  }
  return first;
}

/** Milliseconds from hovering `link` on its page to its preview's content; undefined when the reader could not hover it. */
async function hoverTime(page: Page, link: SampledLink, root: string): Promise<number | { notShown: string } | undefined> {
  await page.goto(new URL(link.from, root).href);
  // A reader hovers once the page has loaded and the widget's code has come (an early hover is point 3's).
  const loaded = await page
    .waitForFunction(() => !!customElements.get('doclens-preview') && !!document.querySelector('doclens-preview'), undefined, {
      timeout: 15_000,
    })
    .then(() => true)
    .catch(() => false);
  if (!loaded) return undefined;
  // The sampled link in the content, not its namesake in the theme's navigation, which previews nothing.
  const handle = await page.evaluateHandle((href) => {
    const preview = document.querySelector('doclens-preview')!;
    return [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].find(
      (candidate) => candidate.href.split('?')[0] === href && preview.previewUrl(candidate),
    );
  }, link.url);
  const element = handle.asElement();
  // A link the theme hides (a collapsed block) is no link a reader hovers.
  if (!element || !(await element.isVisible())) return undefined;
  const reachable = await element
    .scrollIntoViewIfNeeded({ timeout: 2000 })
    .then(() => true)
    .catch(() => false);
  if (!reachable) return undefined;
  // Timed in the page, from the pointer entering the link to the preview's content in the DOM: not the driver's steps.
  await element.evaluate((anchor) => {
    const times = window as unknown as { hoveredAt?: number; shownAt?: number };
    times.hoveredAt = undefined;
    times.shownAt = undefined;
    anchor.addEventListener('pointerover', () => (times.hoveredAt ??= performance.now()), { once: true });
    const root = document.querySelector('doclens-preview')!.shadowRoot!;
    const observer = new MutationObserver(() => {
      // Its answer shown: the section's content, or the note that it has none (Dask's attribute pages built without text).
      if (!root.querySelector('[part~="content"], [part~="empty"]')) return;
      times.shownAt ??= performance.now();
      observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
  });
  const hovered = await element
    .hover({ timeout: 2000 })
    .then(() => true)
    .catch(() => false);
  if (!hovered) return undefined;
  const shown = await page
    .waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt !== undefined, undefined, {
      timeout: SHOWN_WITHIN_MS,
      polling: 50,
    })
    .then(() => true)
    .catch(() => false);
  if (!shown) {
    // What the reader saw instead: the preview's own words (unavailable, loading) or none open.
    const state = await page.evaluate(() => {
      const text = document.querySelector('doclens-preview')?.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
      return text.slice(0, 80) || 'no preview';
    });
    return { notShown: state };
  }
  return page.evaluate(() => {
    const { hoveredAt, shownAt } = window as unknown as { hoveredAt: number; shownAt: number };
    return Math.round(shownAt - hoveredAt);
  });
}

/** First previews of `TIMED_PAGES` pages with two busy processes beside the proxy. */
export async function firstPreviewTimes(browser: Browser, site: ServedSite): Promise<PreviewTimes> {
  const { links } = await sampleLinks(site, 4 * TIMED_PAGES);
  const timed: [from: string, url: string, ms: number][] = [];
  const notShown: PreviewTimes['notShown'] = [];
  if (links.length === 0) return { times: [], slowest: [], notShown, p50: Number.NaN, p95: Number.NaN };
  const root = siteRoot(links[0]!);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const stopBusy = busyProcesses();
  try {
    const page = await context.newPage();
    for (const link of firstLinks(links)) {
      if (timed.length + notShown.length >= TIMED_PAGES) break;
      const time = await hoverTime(page, link, root);
      if (typeof time === 'object') notShown.push([link.from, link.url, time.notShown]);
      else if (time !== undefined) timed.push([link.from, link.url, time]);
    }
  } finally {
    stopBusy();
    await context.close();
  }
  const times = timed.map(([, , ms]) => ms);
  const sorted = [...times].sort((a, b) => a - b);
  // A preview not shown counts as slower than any shown.
  const all = [...sorted, ...Array<number>(notShown.length).fill(Number.POSITIVE_INFINITY)];
  const slowest = [...timed].sort((a, b) => b[2] - a[2]).slice(0, SLOWEST_SHOWN);
  return { times, slowest, notShown, p50: percentile(all, 50), p95: percentile(all, 95) };
}

/** Whether the 95th percentile meets the target (with at least one preview timed). */
export const previewTimesPass = (found: PreviewTimes) => found.times.length > 0 && found.p95 < PREVIEW_P95_MS;

/** The measure as a line of the site's report. */
export function previewTimesLine(found: PreviewTimes): string {
  const count = found.times.length + found.notShown.length;
  if (count === 0) return 'first previews, machine busy: no link could be hovered';
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  const notShown = found.notShown.map(([from, url, state]) => `${from} → ${path(url)} ("${state}")`);
  const shown = notShown.length ? `; ${notShown.length} not shown within ${SHOWN_WITHIN_MS / 1000} s: ${notShown.join(', ')}` : '';
  const slowest = found.slowest.map(([from, url, ms]) => `${ms} ms ${from} → ${path(url)}`);
  return (
    `first previews with two busy processes: p50 ${found.p50} ms, p95 ${found.p95} ms over ${count} pages` +
    `${shown} (target p95 < ${PREVIEW_P95_MS} ms); slowest: ${slowest.join(', ')}`
  );
}
