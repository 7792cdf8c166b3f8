/**
 * What a reader meets on a real site (issue 23), checked on every site of the corpus: previews placed
 * where they fit whole (1), source-code targets previewed as code (2), links to anchors their page
 * lacks previewed as the page (3), the switcher only where there is a choice (4), the widget's colour
 * scheme that of the page whatever the system says (5), and result rows that read well (9). Each
 * check answers passed or not, with what it saw.
 */
import { isTag, type Element } from 'domhandler';
import type { Browser, Page } from 'playwright-core';
import type { EmbedPreview, ErrorBody } from '../../contract/index.ts';
import { findByFragment } from '../../extraction/find-section.ts';
import { proxyGet, sampleLinks, type SampledLink, type ServedSite } from './metrics.ts';
import type { Query } from './sites.ts';

export interface ReaderCheck {
  /** The point of issue 23 it checks. */
  point: 1 | 2 | 3 | 4 | 5 | 9;
  name: string;
  passed: boolean;
  detail: string;
}

/** Marks of links and permalinks that must not show in previews and result titles. */
const ANNOTATION = /\[(source|docs)\]|¶|(^|\s)#$/;
const SAMPLE = 300;

async function preview(site: ServedSite, url: string): Promise<{ status: number; body: Partial<EmbedPreview & ErrorBody> }> {
  const params = new URLSearchParams({ url, ...(site.doctool ? { doctool: site.doctool } : {}), form: 'preview' });
  const response = await proxyGet(`${site.proxyUrl}/api/v3/embed/?${params}`);
  return { status: response.status, body: (await response.json()) as Partial<EmbedPreview & ErrorBody> };
}

/** Whether the element a link's fragment names sits inside a code listing (`<pre>`) of its page. */
async function targetsCode(site: ServedSite, link: SampledLink): Promise<boolean> {
  const fragment = new URL(link.url).hash.slice(1);
  const page = fragment ? await site.pages.parse(site.version, link.target) : undefined;
  let node: Element | undefined = page ? findByFragment(page, fragment) : undefined;
  for (
    node = node?.parent && isTag(node.parent) ? node.parent : undefined;
    node;
    node = node.parent && isTag(node.parent) ? node.parent : undefined
  )
    if (node.name === 'pre') return true;
  return false;
}

/** The address of the site's root, from a link to one of its pages. */
export function siteRoot(link: SampledLink): string {
  const page = link.url.split('#')[0]!;
  // MkDocs links a page by its folder (`fs/` for `fs/index.html`).
  const target = page.endsWith(link.target) ? link.target : link.target.replace(/index\.html$/, '');
  return page.slice(0, page.length - target.length);
}

/** Links to definitions in code listings: the sampled ones, and the source links (`[source]`) of the first pages that have some. */
async function codeLinks(site: ServedSite, sampled: SampledLink[]): Promise<SampledLink[]> {
  const found: SampledLink[] = [];
  for (const link of sampled) if (found.length < 20 && (await targetsCode(site, link))) found.push(link);
  const root = sampled[0] ? siteRoot(sampled[0]) : '';
  for (const file of site.files) {
    if (found.length >= 20 || !root) break;
    const html = (await site.pages.read(site.version, file)) ?? '';
    for (const [, href] of html.matchAll(/<a [^>]*href="([^"#]+#[^"]+)"[^>]*>(?:<[^>]+>)*\[source\]/g)) {
      const url = new URL(href!.replace(/&amp;/g, '&'), new URL(file, root)).href;
      const link = { from: file, url, target: url.slice(root.length).split('#')[0]! };
      if (found.length < 20 && (await targetsCode(site, link))) found.push(link);
    }
  }
  return found;
}

/** 2: previews of definitions in code listings show code, and no annotation marks. */
async function sourcePreviews(site: ServedSite, sampled: SampledLink[]): Promise<ReaderCheck> {
  const links = await codeLinks(site, sampled);
  const bad: string[] = [];
  for (const link of links) {
    const { status, body } = await preview(site, link.url);
    const problem =
      status !== 200
        ? `HTTP ${status}`
        : !/^<pre>/.test(body.content ?? '')
          ? `not code: "${(body.content ?? '').replace(/<[^>]+>/g, '').slice(0, 50)}"`
          : ANNOTATION.test(`${body.title} ${(body.content ?? '').replace(/<[^>]+>/g, ' ')}`)
            ? `annotation marks in "${body.title}"`
            : '';
    if (problem) bad.push(`${new URL(link.url).pathname.split('/').at(-1)}${new URL(link.url).hash}: ${problem}`);
  }
  return {
    point: 2,
    name: 'source previews',
    passed: bad.length === 0,
    detail: links.length
      ? `${links.length - bad.length}/${links.length} code targets preview as code${bad.length ? `; ${bad.slice(0, 3).join('; ')}` : ''}`
      : 'the site links to no code listing',
  };
}

/** 3: links to an anchor their page lacks preview the page's opening, marked so. */
async function missingAnchors(site: ServedSite, broken: SampledLink[]): Promise<ReaderCheck> {
  const bad: string[] = [];
  for (const link of broken.slice(0, 20)) {
    const { status, body } = await preview(site, link.url);
    if (status !== 200 || !body.missing_fragment || !(body.content ?? '').replace(/<[^>]+>/g, '').trim())
      bad.push(`${link.target}${new URL(link.url).hash}: ${status === 200 ? 'not marked as the page' : `HTTP ${status}`}`);
  }
  const checked = Math.min(20, broken.length);
  return {
    point: 3,
    name: 'missing anchors',
    passed: bad.length === 0,
    detail: checked
      ? `${checked - bad.length}/${checked} preview the page's opening${bad.length ? `; ${bad.slice(0, 3).join('; ')}` : ''}`
      : 'no link to a missing anchor',
  };
}

const ready = (page: Page) =>
  page.waitForFunction(() => !!customElements.get('doclens-search') && !!document.querySelector('doclens-search'), undefined, {
    timeout: 15000,
  });

/** 1: a preview of a link low, middle and high in an 800 px window shows whole, or at least 240 px, on screen. */
async function placement(page: Page, links: SampledLink[], root: string): Promise<ReaderCheck> {
  const results: string[] = [];
  let failed = 0;
  // Links until nine previews were placed: a link near the top or bottom of a short page cannot be put at every height.
  for (const link of links.slice(0, 15)) {
    if (results.length >= 9) break;
    await page.goto(new URL(link.from, root).href);
    await ready(page);
    await page.waitForFunction(() => !!customElements.get('doclens-preview'), undefined, { timeout: 15000 }).catch(() => undefined);
    for (const y of [450, 660, 760]) {
      const outcome = await page.evaluate(
        async ({ href, y }) => {
          const anchor = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].find(
            (candidate) => candidate.href.split('?')[0] === href,
          );
          const previewer = document.querySelector('doclens-preview') as
            | (HTMLElement & { show(link: HTMLAnchorElement): Promise<void>; hide(): Promise<void> })
            | null;
          if (!anchor || !previewer) return 'no link or preview element';
          anchor.scrollIntoView({ block: 'start' });
          window.scrollBy(0, -(y - anchor.getBoundingClientRect().top));
          if (Math.abs(anchor.getBoundingClientRect().top - y) > 40) return 'skip';
          await previewer.show(anchor);
          const root = previewer.shadowRoot!;
          for (let wait = 0; wait < 100 && !root.querySelector('[part~="content"], [part~="empty"], [part~="unavailable"]'); wait++)
            await new Promise((resolve) => setTimeout(resolve, 50));
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const popup = root.querySelector<HTMLElement>('[part~="popup"]')!.getBoundingClientRect();
          const body = root.querySelector<HTMLElement>('[part~="body"]')!;
          const whole = body.scrollHeight <= body.clientHeight + 1;
          const inside =
            popup.top >= 0 && popup.bottom <= innerHeight && popup.left >= 0 && popup.right <= document.documentElement.clientWidth;
          await previewer.hide();
          return inside && (whole || popup.height >= 240)
            ? ''
            : `at y=${y}: ${Math.round(popup.height)} px${whole ? '' : ', cut'}${inside ? '' : ', off screen'}`;
        },
        { href: link.url, y },
      );
      if (outcome === 'skip') continue;
      results.push(outcome);
      if (outcome) failed++;
    }
  }
  return {
    point: 1,
    name: 'previews fit',
    passed: results.length > 0 && failed === 0,
    detail:
      `${results.length - failed}/${results.length} placed whole or ≥240 px on screen` +
      (failed ? `; ${results.filter(Boolean).slice(0, 3).join('; ')}` : ''),
  };
}

/**
 * The scheme the page shows behind its text (run in the page), read apart from doclens' own code: the first painted
 * background up from what lies at the middle of the window beneath the boxes pinned to it (a navigation bar fixed at the
 * top is no background of the text: mkdocs' theme grows its bar to half the window with the 64 pages of Node.js').
 */
export function paintedScheme(): 'dark' | 'light' {
  // No helper functions here: a named one would need the bundler's naming helper, which the page lacks.
  const under = document.elementsFromPoint(innerWidth / 2, innerHeight / 2).find((hit) => {
    for (let node: typeof hit | null = hit; node; node = node.parentElement)
      if (['fixed', 'sticky'].includes(getComputedStyle(node).position)) return false;
    return true;
  });
  let painted = 'rgb(255, 255, 255)';
  for (let element = under ?? null; element; element = element.parentElement) {
    const color = getComputedStyle(element).backgroundColor;
    if (!/rgba\(.*, 0\)$|transparent/.test(color)) {
      painted = color;
      break;
    }
  }
  const [r, g, b] = (painted.match(/\d+(\.\d+)?/g) ?? ['255', '255', '255']).map(Number);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! < 110 ? 'dark' : 'light';
}

/** 4 and 5 on one page: the switcher only with a choice; the widget's scheme that of the page, in light and dark systems. */
async function switcherAndScheme(browser: Browser, url: string): Promise<ReaderCheck[]> {
  const schemes: string[] = [];
  let switcher = '';
  let mismatch = '';
  for (const system of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: system });
    try {
      const page = await context.newPage();
      await page.goto(url);
      await ready(page);
      await page.waitForFunction(() => !!document.querySelector('doclens-search')?.getAttribute('scheme'), undefined, { timeout: 5000 });
      const shown = await page.evaluate(paintedScheme);
      const seen = await page.evaluate(() => {
        const versions = document.querySelector('doclens-versions');
        return {
          widget: document.querySelector('doclens-search')!.getAttribute('scheme')!,
          switcher: versions?.shadowRoot?.querySelector('[part~="switcher"]') ? 'shown' : 'hidden',
          choices: versions ? 'yes' : 'no element',
        };
      });
      schemes.push(`${system} system: page ${shown}, widget ${seen.widget}`);
      if (shown !== seen.widget) mismatch ||= `${system} system: page ${shown}, widget ${seen.widget}`;
      switcher = seen.switcher;
    } finally {
      await context.close();
    }
  }
  return [
    {
      point: 4,
      name: 'switcher only with a choice',
      // The corpus sites have one version and one language each: nothing to choose.
      passed: switcher === 'hidden',
      detail: `one version, one language: switcher ${switcher}`,
    },
    { point: 5, name: 'colour scheme', passed: !mismatch, detail: schemes.join('; ') },
  ];
}

/**
 * 9: result rows for the site's first queries, in the dialog: no slugs as places, no row repeating the
 * one above, names not slugs, no subprojects box.
 */
async function resultRows(browser: Browser, url: string, slug: string, queries: Query[]): Promise<ReaderCheck> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  let rows = 0;
  let placed = 0;
  let label = '';
  let title = '';
  try {
    const page = await context.newPage();
    await page.goto(url);
    await ready(page);
    title = await page.title();
    /** The first row of the query before, whose rows show until the next query's come. */
    let previous = '';
    for (const query of queries.slice(0, 4)) {
      const seen = await page.evaluate(
        async ([words, before]) => {
          const search = document.querySelector('doclens-search') as HTMLElement & {
            show(query?: string): Promise<void>;
            hide(): Promise<void>;
          };
          await search.show(words);
          const root = search.shadowRoot!;
          // The rows of these words: the dialog shows the last query's until they come.
          for (let wait = 0; wait < 200 && (root.querySelector('[role="option"]')?.textContent ?? before) === before; wait++)
            await new Promise((resolve) => setTimeout(resolve, 50));
          await new Promise((resolve) => setTimeout(resolve, 300));
          const options = [...root.querySelectorAll('[role="option"]')];
          const result = {
            rows: options.map((option) => ({
              title: option.querySelector('[part~="option-title"]')?.textContent?.trim() ?? '',
              place: option.querySelector('[part~="option-place"]')?.textContent?.trim(),
              page: option.classList.contains('page'),
              snippet: option.querySelector('.snippet')?.textContent?.trim() ?? '',
            })),
            label: root.querySelector('[part~="filters"] > span')?.textContent?.trim() ?? '',
            subprojectsBox: !!root.querySelector('[part~="filters"] input[type="checkbox"]'),
          };
          await search.hide();
          return { ...result, first: options[0]?.textContent ?? '' };
        },
        [query.q, previous] as const,
      );
      previous = seen.first;
      label = seen.label;
      if (seen.subprojectsBox) problems.push('"Include subprojects" without subprojects');
      seen.rows.forEach((row, index) => {
        rows++;
        if (row.place) placed++;
        const above = seen.rows[index - 1];
        if (ANNOTATION.test(row.title)) problems.push(`annotation in "${row.title}"`);
        // A file, or slugs joined by slashes; a title may hold a slash ("Examples for Physics/Mechanics", SymPy's).
        if (row.place?.split(' › ').some((part) => /\.html?\b|^[a-z0-9_.-]*\/[a-z0-9_./-]*$/.test(part)))
          problems.push(`place "${row.place}" is a path`);
        if (above && above.title.toLowerCase() === row.title.toLowerCase() && above.snippet === row.snippet)
          problems.push(`"${row.title}" repeats the row above`);
      });
    }
  } finally {
    await context.close();
  }
  // A site whose own name is its slug ("undici", "Introduction — statsmodels") is named right by it.
  const namedBySlug = title.split(/\s+[—–|·:-]\s+/).some((part) => part.trim().toLowerCase() === slug.toLowerCase());
  if (!namedBySlug && (label === `Searching ${slug}` || label === `Searching ${slug} latest`)) problems.push(`"${label}" names the slug`);
  return {
    point: 9,
    name: 'result rows',
    passed: rows > 0 && problems.length === 0,
    detail:
      `${rows} rows, ${placed} placed by titles; "${label}"` +
      (problems.length ? `; ${[...new Set(problems)].slice(0, 3).join('; ')}` : ''),
  };
}

/** Every check of this module on one site (served by the demo at `url`, its first page). */
export async function readerChecks(
  browser: Browser,
  site: ServedSite,
  url: string,
  slug: string,
  queries: Query[],
): Promise<ReaderCheck[]> {
  const sample = await sampleLinks(site, SAMPLE);
  const root = sample.links[0] ? siteRoot(sample.links[0]) : url;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let fit: ReaderCheck;
  try {
    // Links to other pages' sections, as a reader hovers them in the text.
    fit = await placement(
      await context.newPage(),
      sample.links.filter((link) => new URL(link.url).hash),
      root,
    );
  } finally {
    await context.close();
  }
  return [
    fit,
    await sourcePreviews(site, sample.links),
    await missingAnchors(site, sample.broken),
    ...(await switcherAndScheme(browser, url)),
    await resultRows(browser, url, slug, queries),
  ];
}

/** The checks as lines of the site's report, and as its cell in the table ("6/6"). */
export function printReader(checks: ReaderCheck[]): void {
  console.log(`  reader (issue 23): ${checks.filter((check) => check.passed).length}/${checks.length} checks pass`);
  for (const check of checks) console.log(`    ${check.passed ? '·' : '✗'} ${check.point}. ${check.name}: ${check.detail}`);
}
