/**
 * Chromium checks of the keyboard on a real documentation site served with the widget (by
 * `doclens demo --docs`): keys typed in doclens reach doclens alone, whatever the theme's own shortcut
 * handlers do, and the handover from the theme's search box keeps every key. Each check runs on a fresh
 * page of its own and answers `{ name, passed, detail }`; the details say what the reader would have seen.
 */
import type { Browser, Page } from 'playwright-core';
import { instrument, reachThemeSearch, themeChanges, type ThemeState } from './theme.ts';
// The page's globals once the widget runs in it (window.doclens, <doclens-search>), for page.evaluate.
import type {} from '../../widget/loader/doclens.ts';
import type {} from '../../widget/search/doclens-search.ts';

export interface KeyboardResult {
  name: string;
  passed: boolean;
  detail?: string;
}

export interface KeyboardOptions {
  /** Viewport width in CSS pixels (390 for a phone); 1280 by default. */
  width?: number;
  /** The checks to run, by name (see `KEYBOARD_CHECKS`); all of them by default. */
  only?: readonly string[];
}

/** Typed into the doclens field: the keys themes take for shortcuts, digits, spaces and capitals. */
const TYPED = 'a/b n p s f ? 12 Retry, Policy.';

/** What each check asserts, for the runner to print. */
export const KEYBOARD_CHECKS: readonly { name: string; description: string }[] = [
  { name: 'keys land', description: `"${TYPED}" typed after "/" is exactly what the doclens field holds` },
  {
    name: 'keys kept while loading',
    description: `"/" and "${TYPED}" typed before the dialog's code arrives (held back 600 ms) land in the field; the theme does nothing`,
  },
  {
    name: 'nothing navigates',
    description: 'the address stays the same while typing, moving with the arrows, pressing Enter (select cancelled) and Escape',
  },
  {
    name: 'theme stays quiet',
    description: "no theme overlay, modal or toggle opens, no page element outside doclens takes focus, the theme's box keeps its text",
  },
  { name: 'arrows, Enter, Escape', description: 'ArrowDown/ArrowUp move the active result, Enter selects it, Escape closes' },
  { name: 'Escape after More results', description: 'after a mouse click on More results focus stays in the field and Escape closes' },
  {
    name: 'Escape after a recent search',
    description: 'after a mouse click on a recent search focus stays in the field, with the search in it, and Escape closes',
  },
  {
    name: 'Escape after a click on empty space',
    description: 'after a mouse click on empty dialog space focus stays in the field, typing goes on, and Escape closes',
  },
  { name: 'Tab stays in the dialog', description: 'Tab and Shift+Tab go round the dialog and never reach the page' },
  {
    name: 'handover keeps the first key',
    description: '"retry" typed into the theme\'s visible search box arrives as "retry" in the doclens field',
  },
  {
    name: 'handover closes the theme search',
    description: "after the handover no theme overlay, modal or toggle of the theme's search is left open",
  },
];

type Check = (page: Page) => Promise<string | undefined>;

/** The doclens field, wherever the widget keeps it (the locator pierces shadow roots). */
const field = (page: Page) => page.locator('doclens-search input[role="combobox"]');
const isOpen = (page: Page) => page.evaluate(() => document.querySelector('doclens-search')?.hasAttribute('open') ?? false);
const state = (page: Page) =>
  page.evaluate(() => (window as unknown as { __doclensKeyboard: { state(): ThemeState } }).__doclensKeyboard.state());
/** Whether the focused element (looked for through shadow roots) is the doclens field. */
const focusInField = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const search = document.querySelector('doclens-search');
    return !!active?.matches('input[role="combobox"]') && (!!search?.contains(active) || !!search?.shadowRoot?.contains(active));
  });

async function openWithSlash(page: Page): Promise<void> {
  // From the page itself, as a reader who just scrolled (a click could land on one of the theme's links).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('/');
  await field(page).waitFor({ timeout: 5000 });
}

/** Waits until `check` holds in the page, `timeout` ms at most; the caller then looks at what is there. */
const until = (page: Page, check: () => boolean, timeout = 2000) =>
  page.waitForFunction(check, undefined, { timeout }).then(
    () => undefined,
    () => undefined,
  );
/** Two frames after the last key: what the page's handlers did with it is on the page. */
const settled = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

async function closesOnEscape(page: Page): Promise<string | undefined> {
  await page.keyboard.press('Escape');
  await until(page, () => !document.querySelector('doclens-search')?.hasAttribute('open'));
  return (await isOpen(page)) ? 'Escape left the dialog open' : undefined;
}

/** Types words taken from the page until a search has at least `count` results; answers the words. */
async function searchWithResults(page: Page, count: number): Promise<string> {
  const words = await page.evaluate(() => {
    const text = (document.querySelector('main, [role="main"]') ?? document.body).textContent ?? '';
    const frequency = new Map<string, number>();
    for (const word of text.toLowerCase().match(/[a-z]{6,}/g) ?? []) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    return [...frequency]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([word]) => word);
  });
  for (const word of words) {
    await field(page).fill('');
    await page.keyboard.type(word, { delay: 10 });
    try {
      // The answer to the whole word: a prefix's results stay shown while it is asked for (the field is busy).
      await page.waitForFunction(
        (wanted) =>
          document.querySelector('doclens-search input')?.getAttribute('aria-busy') === 'false' &&
          document.querySelector('doclens-search')!.shadowRoot!.querySelectorAll('[role="option"]').length >= wanted,
        count,
        { timeout: 4000 },
      );
      return word;
    } catch {
      // Too few results for this word; the next one.
    }
  }
  throw new Error(`no search with ${count} results among ${words.join(', ')}`);
}

/** Clicks a part of the dialog with the mouse, then checks focus and Escape. */
async function escapeAfterClick(page: Page, click: () => Promise<void>, expectValue?: string): Promise<string | undefined> {
  await click();
  await settled(page);
  if (!(await isOpen(page))) return 'the click closed the dialog';
  if (!(await focusInField(page)))
    return `focus went to ${await page.evaluate(() => document.activeElement?.tagName.toLowerCase())} after the click`;
  if (expectValue !== undefined && (await field(page).inputValue()) !== expectValue)
    return `the field holds "${await field(page).inputValue()}", not "${expectValue}"`;
  return closesOnEscape(page);
}

/** The check run before the dialog's code is there: the loader alone catches the keys. */
const WHILE_LOADING = 'keys kept while loading';

const CHECKS: Record<string, Check> = {
  [WHILE_LOADING]: async (page) => {
    const before = await state(page);
    await page.keyboard.press('/');
    await page.keyboard.type(TYPED, { delay: 15 });
    await field(page).waitFor({ timeout: 10000 });
    await page
      .waitForFunction(
        (typed) =>
          document.querySelector('doclens-search input')?.matches(':focus') &&
          (document.querySelector('doclens-search input') as HTMLInputElement).value === typed,
        TYPED,
        { timeout: 10000 },
      )
      .catch(() => undefined);
    const value = await field(page).inputValue();
    if (value !== TYPED) return `the field holds "${value}"`;
    return themeChanges(before, await state(page)) || undefined;
  },
  'keys land': async (page) => {
    await openWithSlash(page);
    await page.keyboard.type(TYPED, { delay: 15 });
    const value = await field(page).inputValue();
    return value === TYPED ? undefined : `the field holds "${value}"`;
  },
  'nothing navigates': async (page) => {
    const before = page.url();
    await openWithSlash(page);
    await searchWithResults(page, 2);
    await page.evaluate(() =>
      document.querySelector('doclens-search')!.addEventListener('doclens-search-select', (event) => event.preventDefault()),
    );
    for (const key of ['n', 'p', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'Enter', 'Escape']) await page.keyboard.press(key);
    // Escape, the last key, closes the dialog: the keys before it have been handled.
    await until(page, () => !document.querySelector('doclens-search')?.hasAttribute('open'));
    return page.url() === before ? undefined : `went to ${page.url()}`;
  },
  'theme stays quiet': async (page) => {
    const before = await state(page);
    await openWithSlash(page);
    await page.keyboard.type(TYPED, { delay: 15 });
    for (const key of ['ArrowDown', 'ArrowUp', 'Tab', 'Shift+Tab']) await page.keyboard.press(key);
    await settled(page);
    return themeChanges(before, await state(page)) || undefined;
  },
  'arrows, Enter, Escape': async (page) => {
    await openWithSlash(page);
    await searchWithResults(page, 2);
    const selected = () =>
      page.evaluate(() => document.querySelector('doclens-search')!.shadowRoot!.querySelector('[role="option"][aria-selected="true"]')?.id);
    const first = await selected();
    await page.keyboard.press('ArrowDown');
    const second = await selected();
    if (!second || second === first) return `ArrowDown left ${first} active`;
    await page.keyboard.press('ArrowUp');
    if ((await selected()) !== first) return 'ArrowUp did not go back';
    await page.keyboard.press('ArrowDown');
    await page.evaluate(() => {
      const search = document.querySelector('doclens-search')!;
      search.addEventListener(
        'doclens-search-select',
        (event) => {
          event.preventDefault();
          search.dataset.chosen = (event as CustomEvent<{ url: string }>).detail.url;
        },
        { once: true },
      );
    });
    await page.keyboard.press('Enter');
    const url = await page.evaluate(() => document.querySelector<HTMLElement>('doclens-search')!.dataset.chosen);
    const expected = await page.evaluate(
      (id) => document.querySelector('doclens-search')!.shadowRoot!.getElementById(id!)?.getAttribute('href'),
      second,
    );
    if (!url || url !== expected) return `Enter chose ${url || 'nothing'}, not ${expected}`;
    return closesOnEscape(page);
  },
  'Escape after More results': async (page) => {
    await page.evaluate(() => document.querySelector('doclens-search')!.setAttribute('page-size', '2'));
    await openWithSlash(page);
    await searchWithResults(page, 2);
    const more = page.locator('doclens-search [part~="more"]');
    await more.waitFor({ timeout: 4000 });
    return escapeAfterClick(page, () => more.click());
  },
  'Escape after a recent search': async (page) => {
    await openWithSlash(page);
    const words = await searchWithResults(page, 1);
    await page.evaluate(() =>
      document
        .querySelector('doclens-search')!
        .addEventListener('doclens-search-select', (event) => event.preventDefault(), { once: true }),
    );
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await openWithSlash(page);
    await field(page).fill('');
    const recent = page.locator('doclens-search [part~="recent-query"]').first();
    await recent.waitFor({ timeout: 4000 });
    return escapeAfterClick(page, () => recent.click(), words);
  },
  'Escape after a click on empty space': async (page) => {
    await openWithSlash(page);
    const result = await escapeAfterClick(page, async () => {
      const box = (await page.locator('doclens-search [part~="dialog"]').boundingBox())!;
      await page.mouse.click(box.x + box.width - 12, box.y + box.height - 8);
    });
    if (result) return result;
    await openWithSlash(page);
    await page.locator('doclens-search [part~="state"], doclens-search [part~="recent-head"] span').first().click();
    await page.keyboard.type('go on');
    const value = await field(page).inputValue();
    if (!value.endsWith('go on')) return `typing after the click gave "${value}"`;
    return closesOnEscape(page);
  },
  'Tab stays in the dialog': async (page) => {
    await openWithSlash(page);
    for (let step = 1; step <= 14; step++) {
      await page.keyboard.press(step % 5 === 0 ? 'Shift+Tab' : 'Tab');
      const inside = await page.evaluate(() => !!document.activeElement?.closest('doclens-search'));
      if (!inside) return `Tab ${step} took focus to ${await page.evaluate(() => document.activeElement?.tagName.toLowerCase())}`;
    }
    return closesOnEscape(page);
  },
  'handover keeps the first key': async (page) => {
    const way = await reachThemeSearch(page, 'focus');
    if (!way) return undefined;
    await page.keyboard.type('retry', { delay: 15 });
    await field(page).waitFor({ timeout: 5000 });
    const value = await field(page).inputValue();
    return value === 'retry' ? undefined : `the field holds "${value}" (${way})`;
  },
  'handover closes the theme search': async (page) => {
    const before = await state(page);
    // Themes open their overlay when their box gets focus or a click.
    const way = await reachThemeSearch(page, 'click');
    if (!way) return undefined;
    await page.keyboard.type('lease', { delay: 15 });
    await until(page, () => !!document.querySelector('doclens-search')?.hasAttribute('open'), 5000);
    await settled(page);
    if (!(await isOpen(page))) return `doclens did not open (${way})`;
    const after = await state(page);
    const left = [
      ...after.dialogs.filter((item) => !before.dialogs.includes(item)),
      ...after.toggles.filter((item) => !before.toggles.includes(item)),
    ];
    return left.length ? `left open: ${left.join(', ')} (${way})` : undefined;
  },
};

/**
 * Runs every check on `url` (a page of a site served with the widget), each on a new page of its own.
 * A site that shows no theme search passes the handover checks, saying so.
 */
export async function runKeyboardChecks(browser: Browser, url: string, options: KeyboardOptions = {}): Promise<KeyboardResult[]> {
  const results: KeyboardResult[] = [];
  for (const { name } of KEYBOARD_CHECKS.filter((check) => !options.only || options.only.includes(check.name))) {
    const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 } });
    // Functions handed to the page keep their names under tsx.
    await context.addInitScript('window.__name = (target) => target;');
    await context.addInitScript(await instrument());
    const page = await context.newPage();
    try {
      if (name === WHILE_LOADING) {
        await page.route('**/doclens-search-*.js', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 600));
          await route.continue();
        });
        await page.goto(url, { waitUntil: 'domcontentloaded' });
        await page.waitForFunction(() => !!window.doclens, undefined, { timeout: 15000 });
      } else {
        await page.goto(url);
        await page.waitForFunction(
          () => customElements.get('doclens-search') !== undefined && !!document.querySelector('doclens-search'),
          undefined,
          { timeout: 15000 },
        );
      }
      const problem = await CHECKS[name]!(page);
      const way = name.startsWith('handover')
        ? ((await page.locator('html').getAttribute('data-doclens-check-way')) ?? 'the site shows no theme search to hand over from')
        : undefined;
      results.push({ name, passed: !problem, detail: problem ?? way });
    } catch (error) {
      results.push({ name, passed: false, detail: error instanceof Error ? error.message.split('\n')[0] : String(error) });
    } finally {
      await context.close();
    }
  }
  return results;
}
