/**
 * What a reader meets on themes nobody here built (issue 33), measured on every site of the corpus in
 * Chromium: the page a search result opens (marks per page, their share of stop words, marks that
 * break code apart, Escape clearing them), theme furniture among section hits and previews, a
 * one-tap search on a phone, Tab presses from one link to the next, axe's serious and critical
 * findings with the dialog and a preview open (the time from hover to preview with the machine busy is
 * preview-time.ts'). Each check answers passed or not, with the figures it saw.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import type { EmbedPreview, SearchResponse } from '../../contract/index.ts';
import { STOP_WORDS } from '../../extraction/words/stop-words.ts';
import { proxyGet, type SampledLink, type ServedSite } from './metrics.ts';
import { instrument, type ThemeSearchProbe } from './theme.ts';
import type { Query } from './sites.ts';
import type {} from '../../widget/preview/doclens-preview.ts';
import type {} from '../../widget/search/doclens-search.ts';

export interface ThemeReaderCheck {
  /** The point of issue 33 it checks. */
  point: 1 | 2 | 3 | 4 | 6 | 7;
  name: string;
  passed: boolean;
  detail: string;
  /** What it measured, short, for the suite's table. */
  figure: string;
}

/** Text that only a theme's furniture says: download buttons, copyright lines, a version banner. */
const FURNITURE = /\.rst \.pdf|© Copyright|This document is for .{0,40}development version/i;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The page's own Tab stops that the check counts by their markup (links elsewhere, buttons, fields). */
const STOPS = 'a[href], button, input, select, textarea, [tabindex]';

/** Tab presses beyond the page's own stops after which focus is taken to have gone elsewhere than the next link. */
const MAX_TABS = 30;

const ready = (page: Page) =>
  page.waitForFunction(() => !!customElements.get('doclens-search') && !!document.querySelector('doclens-search'), undefined, {
    timeout: 15000,
  });

/** The address of the first result row of `words` in the dialog: a section's when there is one. */
async function firstResultHref(page: Page, words: string): Promise<string | undefined> {
  return page.evaluate(async (words) => {
    const search = document.querySelector('doclens-search')!;
    await search.show(words);
    const root = search.shadowRoot!;
    for (let wait = 0; wait < 200 && !root.querySelector('[role="option"]'); wait++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const option =
      root.querySelector<HTMLAnchorElement>('[role="option"].section') ?? root.querySelector<HTMLAnchorElement>('[role="option"]');
    const href = option?.href;
    await search.hide();
    return href;
  }, words);
}

/** 1 and 2: the pages the first results open, their marks, and Escape. */
async function openedPages(browser: Browser, url: string, queries: Query[]): Promise<ThemeReaderCheck[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let pages = 0;
  let marks = 0;
  let stopWords = 0;
  let brokenCode = 0;
  let cleared = 0;
  const notes: string[] = [];
  try {
    const page = await context.newPage();
    for (const query of queries.slice(0, 4)) {
      await page.goto(url);
      await ready(page);
      const href = await firstResultHref(page, query.q);
      if (!href) continue;
      await page.goto(href);
      await ready(page);
      const seen = await page.evaluate(
        (stop) => {
          const found = [...document.querySelectorAll<HTMLElement>('mark.doclens-highlight')];
          const stops = new Set(stop);
          // A mark in code that the theme pads or restyles shows the code broken apart ("dd . read_csv").
          const broken = found.filter((mark) => {
            if (!mark.closest('code, pre')) return false;
            const own = getComputedStyle(mark);
            const around = getComputedStyle(mark.parentElement!);
            return (
              parseFloat(own.paddingLeft) + parseFloat(own.paddingRight) + parseFloat(own.marginLeft) + parseFloat(own.marginRight) > 0 ||
              own.fontWeight !== around.fontWeight ||
              own.fontStyle !== around.fontStyle
            );
          });
          return {
            marks: found.length,
            stopWords: found.filter((mark) => stops.has((mark.textContent ?? '').toLowerCase())).length,
            broken: broken.length,
          };
        },
        [...STOP_WORDS],
      );
      pages++;
      marks += seen.marks;
      stopWords += seen.stopWords;
      brokenCode += seen.broken;
      if (!seen.marks) continue;
      // The matches bar, whose Escape it is, comes once the page has loaded and the browser is idle.
      await page.waitForFunction(() => !!customElements.get('doclens-matches'), undefined, { timeout: 10000 }).catch(() => undefined);
      await page.mouse.move(0, 0);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Escape');
      const left = await page
        .waitForFunction(() => !document.querySelector('mark.doclens-highlight'), undefined, { timeout: 2000 })
        .then(() => 0)
        .catch(() => page.evaluate(() => document.querySelectorAll('mark.doclens-highlight').length));
      if (left === 0) cleared++;
      else notes.push(`"${query.q}": ${left} marks left`);
    }
  } finally {
    await context.close();
  }
  const marked = pages ? marks / pages : 0;
  const stopShare = `${marks ? ((100 * stopWords) / marks).toFixed(0) : 0}%`;
  return [
    {
      point: 1,
      name: 'highlights',
      passed: pages > 0 && stopWords === 0 && brokenCode === 0,
      detail:
        `${pages} pages opened from results, ${marked.toFixed(1)} marks per page, ` +
        `${stopShare} stop words, ${brokenCode} marks breaking code apart`,
      figure: `${marked.toFixed(1)} a page, ${stopShare} stop words, ${brokenCode} in code broken`,
    },
    {
      point: 2,
      name: 'Escape clears',
      passed: notes.length === 0,
      detail:
        `${cleared} of ${cleared + notes.length} marked pages cleared by Escape` +
        (notes.length ? `; ${notes.slice(0, 2).join('; ')}` : ''),
      figure: `${cleared} of ${cleared + notes.length} pages`,
    },
  ];
}

/** 3: section hits for the site's queries, and previews of sampled links, that are theme furniture. */
async function furniture(site: ServedSite, queries: Query[], links: SampledLink[]): Promise<ThemeReaderCheck> {
  let hits = 0;
  let furnitureHits = 0;
  /** The first of each kind, to say where. */
  const examples: string[] = [];
  for (const query of queries) {
    const params = new URLSearchParams({ q: `subprojects:${site.version.project.slug}/${site.version.slug} ${query.q}` });
    const response = await proxyGet(`${site.proxyUrl}/api/v3/search/?${params}`);
    if (!response.ok) continue;
    const body = (await response.json()) as SearchResponse;
    for (const block of body.results.flatMap((result) => result.blocks ?? [])) {
      hits++;
      if (!FURNITURE.test(block.content ?? '')) continue;
      furnitureHits++;
      if (furnitureHits === 1) examples.push(`"${query.q}" → ${block.id || '(page top)'}: "${(block.content ?? '').slice(0, 60)}"`);
    }
  }
  // Whole pages' previews (a link without a fragment) and sections'.
  const sampled = [...links.filter((link) => !new URL(link.url).hash).slice(0, 20), ...links.slice(0, 20)];
  let previews = 0;
  let furniturePreviews = 0;
  for (const link of sampled) {
    const params = new URLSearchParams({ url: link.url, ...(site.doctool ? { doctool: site.doctool } : {}), form: 'preview' });
    const response = await proxyGet(`${site.proxyUrl}/api/v3/embed/?${params}`);
    if (!response.ok) continue;
    const body = (await response.json()) as EmbedPreview;
    previews++;
    const text = `${body.title} ${body.content.replace(/<[^>]+>/g, ' ')}`;
    if (!FURNITURE.test(text)) continue;
    furniturePreviews++;
    if (furniturePreviews === 1) examples.push(`${link.url.replace(/^https?:\/\/[^/]+/, '')}: "${text.slice(0, 60)}"`);
  }
  return {
    point: 3,
    name: 'no theme furniture',
    passed: furnitureHits === 0 && furniturePreviews === 0,
    detail:
      `${furnitureHits} of ${hits} section hits and ${furniturePreviews} of ${previews} previews are theme furniture` +
      (examples.length ? `; ${examples.join('; ')}` : ''),
    figure: `${furnitureHits} of ${hits} hits, ${furniturePreviews} of ${previews} previews`,
  };
}

/** 4: at the top of the start page on a phone, one tap opens the search. */
async function phoneSearch(browser: Browser, url: string): Promise<ThemeReaderCheck> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.addInitScript(await instrument());
  try {
    const page = await context.newPage();
    await page.goto(url);
    await ready(page);
    await page.waitForTimeout(500);
    // What a reader can tap: doclens' own button, else the theme's box it took over or the theme's control that opens
    // its search (mkdocs-material's magnifier), if on screen and not covered.
    const spot = await page.evaluate(() => {
      const search = document.querySelector('doclens-search')!;
      const probe = (window as unknown as { __doclensThemeSearch: ThemeSearchProbe }).__doclensThemeSearch;
      const boxes = probe.themeSearchBoxes();
      const candidates = [
        ...(search.shadowRoot?.querySelectorAll<HTMLElement>('[part~="trigger"]') ?? []),
        ...boxes,
        ...probe.searchOpeners(boxes),
      ];
      for (const candidate of candidates) {
        const box = candidate.getBoundingClientRect();
        if (box.width < 8 || box.height < 8 || box.bottom < 0 || box.top > innerHeight || box.right < 0 || box.left > innerWidth) continue;
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        const top = document.elementFromPoint(x, y);
        const reached = top === candidate || top === search || candidate.contains(top) || !!top?.shadowRoot?.contains(candidate);
        if (reached)
          return {
            x,
            y,
            label: candidate.textContent?.trim() || candidate.title || candidate.getAttribute('placeholder') || candidate.localName,
          };
      }
      return undefined;
    });
    if (!spot)
      return {
        point: 4,
        name: 'one-tap search on a phone',
        passed: false,
        detail: 'nothing on screen opens the search',
        figure: 'nothing',
      };
    await page.touchscreen.tap(spot.x, spot.y);
    const opened = await page
      .waitForFunction(() => document.querySelector('doclens-search')?.open === true, undefined, { timeout: 3000 })
      .then(() => true)
      .catch(() => false);
    return {
      point: 4,
      name: 'one-tap search on a phone',
      passed: opened && !/ctrl|⌘/i.test(spot.label),
      detail: `tapped "${spot.label.slice(0, 30)}": ${opened ? 'the search opened' : 'nothing opened'}`,
      figure: `${opened ? 'opened' : 'did not open'} (${spot.label.slice(0, 20)})`,
    };
  } finally {
    await context.close();
  }
}

/** 6: Tab presses from one previewed link of the content to the next, and 7: axe with a preview and the dialog open. */
export async function keysAndAxe(
  browser: Browser,
  link: SampledLink | undefined,
  root: string,
  query: string,
): Promise<ThemeReaderCheck[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(link ? new URL(link.from, root).href : root);
    await ready(page);
    // Focus on a sampled link of the text loads the preview's code, as a reader's first Tab would.
    await page.evaluate((href) => {
      const first = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].find((candidate) => candidate.href.split('?')[0] === href);
      first?.focus();
    }, link?.url ?? '');
    await page.waitForFunction(() => !!customElements.get('doclens-preview'), undefined, { timeout: 15000 }).catch(() => undefined);
    // The previewed links a reader can reach (not in a collapsed or hidden part), in document order, which has focus,
    // and the page's own stops between it and the next (links elsewhere, buttons, fields).
    const linkIndex = () =>
      page.evaluate((stopSelector) => {
        const preview = document.querySelector('doclens-preview')!;
        const stops = [...document.querySelectorAll<HTMLElement>(stopSelector)].filter(
          (candidate) =>
            candidate.tabIndex >= 0 && !candidate.matches(':disabled') && candidate.checkVisibility({ visibilityProperty: true }),
        );
        const links = stops.filter((candidate) => candidate instanceof HTMLAnchorElement && preview.previewUrl(candidate));
        const index = links.indexOf(document.activeElement as HTMLElement);
        const between = index >= 0 && links[index + 1] ? stops.indexOf(links[index + 1]!) - stops.indexOf(links[index]!) - 1 : 0;
        return { index, count: links.length, between };
      }, STOPS);
    // From the sampled link if it previews and a previewed link follows it, else from the first link that previews: the
    // sampled link may be the page's last (statsmodels' API pages end with their "See also" links).
    await page.evaluate(() => {
      const preview = document.querySelector('doclens-preview')!;
      const previewed = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].filter(
        (candidate) => candidate.tabIndex >= 0 && candidate.checkVisibility({ visibilityProperty: true }) && preview.previewUrl(candidate),
      );
      const at = previewed.indexOf(document.activeElement as HTMLAnchorElement);
      if (at < 0 || at + 1 >= previewed.length) previewed[0]?.focus();
    });
    // Tab presses to the next previewed link, beyond the stops of the page's own between them (a link elsewhere, a scrolling box).
    const presses: number[] = [];
    let intoPreview = 0;
    let lost = 0;
    for (let step = 0; step < 5; step++) {
      const { index, count, between } = await linkIndex();
      if (index < 0 || index + 1 >= count) break;
      // Long enough for the preview to open on focus.
      await page.waitForTimeout(500);
      let pressed = 0;
      let scrollers = 0;
      let reached = false;
      while (!reached && pressed < between + scrollers + MAX_TABS) {
        await page.keyboard.press('Tab');
        pressed++;
        const stop = await page.evaluate((stopSelector) => {
          const active = document.activeElement as HTMLElement | null;
          // Chromium makes a scrolling box with nothing focusable inside (a wide code block) a stop of the page's own.
          const scroller =
            !!active &&
            !active.matches(`${stopSelector}, body`) &&
            !active.localName.startsWith('doclens-') &&
            (active.scrollWidth > active.clientWidth || active.scrollHeight > active.clientHeight);
          return { preview: active?.localName === 'doclens-preview', scroller };
        }, STOPS);
        if (stop.preview) intoPreview++;
        if (stop.scroller) scrollers++;
        reached = (await linkIndex()).index === index + 1;
      }
      presses.push(pressed - between - scrollers);
      // Focus went elsewhere and never came to the next link: no reader's way from link to link.
      if (!reached) {
        lost++;
        break;
      }
    }
    const tabs: ThemeReaderCheck = {
      point: 6,
      name: 'one Tab from link to link',
      passed: presses.length > 0 && intoPreview === 0 && lost === 0,
      detail: presses.length
        ? `${presses.length} links: ${presses.join(', ')} Tab presses each besides the page's own stops, ${intoPreview} into a preview` +
          (lost ? `, the next link not reached in ${MAX_TABS} more` : '')
        : 'no two previewed links to Tab between',
      figure: presses.length ? `${presses.join(', ')}${lost ? ' (lost)' : ''}` : 'no two links',
    };
    await page.addScriptTag({ path: AXE });
    const findings = await page.evaluate(async (words) => {
      const preview = document.querySelector('doclens-preview')!;
      const link = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].find((candidate) => preview.previewUrl(candidate));
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }).axe;
      interface AxeResults {
        violations: { id: string; impact: string | null; nodes: unknown[] }[];
      }
      // No helper functions here: a named one would need the bundler's naming helper, which the page lacks.
      const runs: [string, AxeResults][] = [];
      if (link) {
        await preview.show(link);
        // No function declared here: the page runs this code as it is, without the helpers the build names them with.
        for (let wait = 0; wait < 100; wait++) {
          if (preview.shadowRoot!.querySelector('[part~="content"], [part~="empty"], [part~="unavailable"]')) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        runs.push(['preview', await axe.run({ include: [['doclens-preview']] }, {})]);
        await preview.hide();
      }
      const search = document.querySelector('doclens-search')!;
      await search.show(words);
      const root = search.shadowRoot!;
      for (let wait = 0; wait < 200 && !root.querySelector('[role="option"]'); wait++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      runs.push(['dialog', await axe.run({ include: [['doclens-search']] }, {})]);
      await search.hide();
      return runs.flatMap(([open, results]) =>
        results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${open}: ${violation.id}`),
      );
    }, query);
    return [
      tabs,
      {
        point: 7,
        name: 'axe with dialog and preview open',
        passed: findings.length === 0,
        detail: findings.length ? `${findings.length} serious or critical: ${[...new Set(findings)].join(', ')}` : '0 serious or critical',
        figure: findings.length ? `${findings.length}: ${[...new Set(findings)].join(', ')}` : '0',
      },
    ];
  } finally {
    await context.close();
  }
}

/** Every check of this module on one site (served by the demo at `url`, its first page). */
export async function themeReaderChecks(
  browser: Browser,
  site: ServedSite,
  url: string,
  queries: Query[],
  links: SampledLink[],
  root: string,
): Promise<ThemeReaderCheck[]> {
  const inContent = links.filter((link) => new URL(link.url).hash);
  // Tab is counted on the page with the most sampled links to other pages' sections.
  const perPage = new Map<string, SampledLink[]>();
  for (const link of inContent) perPage.set(link.from, [...(perPage.get(link.from) ?? []), link]);
  const busiest = [...perPage.values()].sort((a, b) => b.length - a.length)[0]?.[0];
  return [
    ...(await openedPages(browser, url, queries)),
    await furniture(site, queries, links),
    await phoneSearch(browser, url),
    ...(await keysAndAxe(browser, busiest, root, queries[0]?.q ?? 'install')),
  ];
}

/** The checks as lines of the site's report. */
export function printThemeReader(checks: ThemeReaderCheck[]): void {
  console.log(`  themes reader (issue 33): ${checks.filter((check) => check.passed).length}/${checks.length} checks pass`);
  for (const check of checks) console.log(`    ${check.passed ? '·' : '✗'} ${check.point}. ${check.name}: ${check.detail}`);
}
