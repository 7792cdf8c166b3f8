/**
 * Chromium checks of the keyboard on a real documentation site served with the widget (by
 * `doclens demo --docs`): keys typed in doclens reach doclens alone, whatever the theme's own shortcut
 * handlers do, and the handover from the theme's search box keeps every key. Each check runs on a fresh
 * page of its own and answers `{ name, passed, detail }`; the details say what the reader would have seen.
 */
import type { Browser, Page } from 'playwright-core';
// The page's globals once the widget runs in it (<doclens-search>), for page.evaluate.
import type {} from '../../widget/search/doclens-search.ts';

export interface KeyboardResult {
  name: string;
  passed: boolean;
  detail?: string;
}

export interface KeyboardOptions {
  /** Viewport width in CSS pixels (390 for a phone); 1280 by default. */
  width?: number;
}

/** Typed into the doclens field: the keys themes take for shortcuts, digits, spaces and capitals. */
const TYPED = 'a/b n p s f ? 12 Retry, Policy.';

/** What each check asserts, for the runner to print. */
export const KEYBOARD_CHECKS: readonly { name: string; description: string }[] = [
  { name: 'keys land', description: `"${TYPED}" typed after "/" is exactly what the doclens field holds` },
  { name: 'nothing navigates', description: 'the address stays the same while typing, moving with the arrows, pressing Enter (select cancelled) and Escape' },
  { name: 'theme stays quiet', description: "no theme overlay, modal or toggle opens, no page element outside doclens takes focus, the theme's box keeps its text" },
  { name: 'arrows, Enter, Escape', description: 'ArrowDown/ArrowUp move the active result, Enter selects it, Escape closes' },
  { name: 'Escape after More results', description: 'after a mouse click on More results focus stays in the field and Escape closes' },
  { name: 'Escape after a recent search', description: 'after a mouse click on a recent search focus stays in the field, with the search in it, and Escape closes' },
  { name: 'Escape after a click on empty space', description: 'after a mouse click on empty dialog space focus stays in the field, typing goes on, and Escape closes' },
  { name: 'Tab stays in the dialog', description: 'Tab and Shift+Tab go round the dialog and never reach the page' },
  { name: 'handover keeps the first key', description: '"retry" typed into the theme\'s visible search box arrives as "retry" in the doclens field' },
  { name: 'handover closes the theme search', description: "after the handover no theme overlay, modal or toggle of the theme's search is left open" },
];

/** What the theme shows and where focus went, as the page tells it (see `INSTRUMENT`). */
interface ThemeState {
  url: string;
  dialogs: string[];
  toggles: string[];
  focusedOutside: string[];
  themeBoxValues: string[];
}

// Runs in the page before its own scripts: records focus that lands outside doclens, and helpers the checks read.
const INSTRUMENT = `(() => {
  const inDoclens = (element) => !!element.closest?.('doclens-search, doclens-preview, doclens-versions');
  const describe = (element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (element.getAttribute('name') ? '[name=' + element.getAttribute('name') + ']' : '') + (element.className && typeof element.className === 'string' ? '.' + element.className.trim().split(/\\s+/).slice(0, 2).join('.') : '');
  const visible = (element) => element.checkVisibility({ visibilityProperty: true });
  const log = { focusedOutside: [] };
  document.addEventListener('focusin', (event) => {
    const target = event.target;
    if (target instanceof Element && !inDoclens(target) && target !== document.body) log.focusedOutside.push(describe(target));
  }, true);
  window.__doclensKeyboard = {
    log,
    themeBoxes: () => [...document.querySelectorAll('input')].filter((input) => (input.type === 'text' || input.type === 'search') && !inDoclens(input) &&
      (input.type === 'search' || input.closest('[role="search"]') || /(^|\\/)search(\\.[a-z]+|\\/(index\\.[a-z]+)?)?$/i.test(new URL(input.form?.getAttribute('action') ?? '-', document.baseURI).pathname) || input.form?.getAttribute('name') === 'search')),
    state: () => ({
      // doclens' own fragment (the query while its dialog is open) is not the theme's doing.
      url: location.href.replace(/#doclens-q=[^#]*$/, ''),
      dialogs: [...document.querySelectorAll('[role="dialog"], [aria-modal="true"], dialog, [popover]')].filter((element) => !inDoclens(element) && visible(element)).map(describe),
      toggles: [...document.querySelectorAll('input[type="checkbox"], input[type="radio"]')].filter((element) => !inDoclens(element) && element.checked).map(describe),
      focusedOutside: [...log.focusedOutside],
      themeBoxValues: window.__doclensKeyboard.themeBoxes().map((input) => input.value),
    }),
  };
})();`;

type Check = (page: Page) => Promise<string | undefined>;

/** The doclens field, wherever the widget keeps it (the locator pierces shadow roots). */
const field = (page: Page) => page.locator('doclens-search input[role="combobox"]');
const options = (page: Page) => page.locator('doclens-search [role="option"]');
const isOpen = (page: Page) => page.evaluate(() => document.querySelector('doclens-search')?.hasAttribute('open') ?? false);
const state = (page: Page) => page.evaluate(() => (window as unknown as { __doclensKeyboard: { state(): ThemeState } }).__doclensKeyboard.state());
/** Whether the focused element (looked for through shadow roots) is the doclens field. */
const focusInField = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const search = document.querySelector('doclens-search');
    return !!active?.matches('input[role="combobox"]') && (!!search?.contains(active) || !!search?.shadowRoot?.contains(active));
  });

/** Differences between two theme states, in words ("" when the theme did nothing). */
function themeChanges(before: ThemeState, after: ThemeState): string {
  const added = (key: 'dialogs' | 'toggles') => after[key].filter((item) => !before[key].includes(item));
  return [
    after.url !== before.url ? `went to ${after.url}` : '',
    added('dialogs').length ? `opened ${added('dialogs').join(', ')}` : '',
    added('toggles').length ? `switched on ${added('toggles').join(', ')}` : '',
    after.focusedOutside.length > before.focusedOutside.length ? `focused ${after.focusedOutside.slice(before.focusedOutside.length).join(', ')}` : '',
    after.themeBoxValues.join('|') !== before.themeBoxValues.join('|') ? `its box now holds "${after.themeBoxValues.join('|')}"` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

async function openWithSlash(page: Page): Promise<void> {
  // From the page itself, as a reader who just scrolled (a click could land on one of the theme's links).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('/');
  await field(page).waitFor({ timeout: 5000 });
}

async function closesOnEscape(page: Page): Promise<string | undefined> {
  await page.keyboard.press('Escape');
  await page.waitForTimeout(100);
  return (await isOpen(page)) ? 'Escape left the dialog open' : undefined;
}

/** Types words taken from the page until a search has at least `count` results; answers the words. */
async function searchWithResults(page: Page, count: number): Promise<string> {
  const words = await page.evaluate(() => {
    const text = (document.querySelector('main, [role="main"]') ?? document.body).textContent ?? '';
    const frequency = new Map<string, number>();
    for (const word of text.toLowerCase().match(/[a-z]{6,}/g) ?? []) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    return [...frequency].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([word]) => word);
  });
  for (const word of words) {
    await field(page).fill('');
    await page.keyboard.type(word, { delay: 10 });
    try {
      await page.waitForFunction((wanted) => document.querySelectorAll('doclens-search')[0]!.shadowRoot!.querySelectorAll('[role="option"]').length >= wanted, count, { timeout: 4000 });
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
  await page.waitForTimeout(150);
  if (!(await isOpen(page))) return 'the click closed the dialog';
  if (!(await focusInField(page))) return `focus went to ${await page.evaluate(() => document.activeElement?.tagName.toLowerCase())} after the click`;
  if (expectValue !== undefined && (await field(page).inputValue()) !== expectValue) return `the field holds "${await field(page).inputValue()}", not "${expectValue}"`;
  return closesOnEscape(page);
}

const CHECKS: Record<string, Check> = {
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
    await page.evaluate(() => document.querySelector('doclens-search')!.addEventListener('doclens-search-select', (event) => event.preventDefault()));
    for (const key of ['n', 'p', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'Enter', 'Escape']) await page.keyboard.press(key);
    await page.waitForTimeout(300);
    return page.url() === before ? undefined : `went to ${page.url()}`;
  },
  'theme stays quiet': async (page) => {
    const before = await state(page);
    await openWithSlash(page);
    await page.keyboard.type(TYPED, { delay: 15 });
    for (const key of ['ArrowDown', 'ArrowUp', 'Tab', 'Shift+Tab']) await page.keyboard.press(key);
    await page.waitForTimeout(200);
    return themeChanges(before, await state(page)) || undefined;
  },
  'arrows, Enter, Escape': async (page) => {
    await openWithSlash(page);
    await searchWithResults(page, 2);
    const selected = () => page.evaluate(() => document.querySelector('doclens-search')!.shadowRoot!.querySelector('[role="option"][aria-selected="true"]')?.id);
    const first = await selected();
    await page.keyboard.press('ArrowDown');
    const second = await selected();
    if (!second || second === first) return `ArrowDown left ${first} active`;
    await page.keyboard.press('ArrowUp');
    if ((await selected()) !== first) return 'ArrowUp did not go back';
    await page.keyboard.press('ArrowDown');
    await page.evaluate(() => {
      const search = document.querySelector('doclens-search')!;
      search.addEventListener('doclens-search-select', (event) => {
        event.preventDefault();
        search.dataset.chosen = (event as CustomEvent<{ url: string }>).detail.url;
      }, { once: true });
    });
    await page.keyboard.press('Enter');
    const url = await page.evaluate(() => document.querySelector<HTMLElement>('doclens-search')!.dataset.chosen);
    const expected = await page.evaluate((id) => document.querySelector('doclens-search')!.shadowRoot!.getElementById(id!)?.getAttribute('href'), second);
    if (!url || url !== expected) return `Enter chose ${url || 'nothing'}, not ${expected}`;
    return closesOnEscape(page);
  },
  'Escape after More results': async (page) => {
    await page.evaluate(() => document.querySelector('doclens-search')!.setAttribute('page-size', '2'));
    await openWithSlash(page);
    await searchWithResults(page, 2);
    const more = page.locator('doclens-search .more');
    await more.waitFor({ timeout: 4000 });
    return escapeAfterClick(page, () => more.click());
  },
  'Escape after a recent search': async (page) => {
    await openWithSlash(page);
    const words = await searchWithResults(page, 1);
    await page.evaluate(() => document.querySelector('doclens-search')!.addEventListener('doclens-search-select', (event) => event.preventDefault(), { once: true }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await openWithSlash(page);
    await field(page).fill('');
    const recent = page.locator('doclens-search .recent .query').first();
    await recent.waitFor({ timeout: 4000 });
    return escapeAfterClick(page, () => recent.click(), words);
  },
  'Escape after a click on empty space': async (page) => {
    await openWithSlash(page);
    const result = await escapeAfterClick(page, async () => {
      const box = (await page.locator('doclens-search dialog').boundingBox())!;
      await page.mouse.click(box.x + box.width - 12, box.y + box.height - 8);
    });
    if (result) return result;
    await openWithSlash(page);
    await page.locator('doclens-search [part="state"], doclens-search .recent-head span').first().click();
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
    await page.waitForTimeout(400);
    if (!(await isOpen(page))) return `doclens did not open (${way})`;
    const after = await state(page);
    const left = [...after.dialogs.filter((item) => !before.dialogs.includes(item)), ...after.toggles.filter((item) => !before.toggles.includes(item))];
    return left.length ? `left open: ${left.join(', ')} (${way})` : undefined;
  },
};

/**
 * Marks `data-doclens-check="theme-search"` on what leads the reader to the theme's search on this page:
 * its first box the reader can click (not in a closed menu off the screen), else a control that reveals
 * a hidden container holding a box (a navigation bar's "Search" opening a modal). Says which, or "".
 */
async function markThemeSearch(page: Page): Promise<string> {
  return page.evaluate(() => {
    const boxes = (window as unknown as { __doclensKeyboard: { themeBoxes(): HTMLInputElement[] } }).__doclensKeyboard.themeBoxes();
    const clickable = (element: Element) => {
      if (!element.checkVisibility({ visibilityProperty: true })) return false;
      element.scrollIntoView({ block: 'center' });
      const { x, y, width, height } = element.getBoundingClientRect();
      const hit = document.elementFromPoint(x + width / 2, y + height / 2);
      return !!hit && (hit === element || element.contains(hit));
    };
    const box = boxes.find(clickable);
    const opener = [...document.querySelectorAll('[data-target], [data-bs-target], [aria-controls], a[href^="#"]')].find((control) => {
      const reference = control.getAttribute('data-target') ?? control.getAttribute('data-bs-target') ?? control.getAttribute('aria-controls') ?? control.getAttribute('href') ?? '';
      const target = document.getElementById(reference.replace(/^#/, ''));
      return !!target && !target.checkVisibility() && boxes.some((candidate) => target.contains(candidate)) && clickable(control);
    });
    const found = box ?? opener;
    found?.setAttribute('data-doclens-check', 'theme-search');
    return box ? 'the theme\'s search box' : opener ? 'the control that opens the theme\'s search' : '';
  });
}

/**
 * Tries the page's toggles (a label of a check box, as mkdocs-material's search button on a phone) until
 * one shows a theme search box; toggles that show none are switched back. Says which, or "".
 */
async function revealThemeSearch(page: Page): Promise<string> {
  const toggles = page.locator('label[for]').filter({ visible: true });
  const count = await toggles.count();
  for (let index = 0; index < count; index++) {
    const toggle = toggles.nth(index);
    const isCheckbox = await toggle.evaluate((label) => (label as HTMLLabelElement).control instanceof HTMLInputElement && (label as HTMLLabelElement).control!.getAttribute('type') === 'checkbox');
    if (!isCheckbox) continue;
    // Clicked as the page sees a click, whatever a toggle switched on before may cover.
    const click = () => toggle.evaluate((label) => (label as HTMLElement).click());
    await click();
    await page.waitForTimeout(300);
    const way = await markThemeSearch(page);
    if (way) return `${way}, shown by the toggle "${(await toggle.getAttribute('title')) ?? (await toggle.getAttribute('for'))}"`;
    await click();
  }
  return '';
}

/**
 * Takes the reader to the theme's search as they would (a focus or a click on its box, a click on the
 * control that opens it), on this page or, without one here, on one of the first pages it links to.
 * Answers how, or undefined where the site shows no theme search at all.
 */
async function reachThemeSearch(page: Page, how: 'focus' | 'click'): Promise<string | undefined> {
  let way = (await markThemeSearch(page)) || (await revealThemeSearch(page));
  if (!way) {
    const links = await page.evaluate(() => [...new Set([...document.querySelectorAll<HTMLAnchorElement>('a[href]')].map((link) => link.href.split('#')[0]!).filter((href) => href.startsWith(location.origin) && href !== location.href.split('#')[0]))].slice(0, 5));
    for (const link of links) {
      await page.goto(link);
      await page.waitForFunction(() => !!document.querySelector('doclens-search'), undefined, { timeout: 15000 });
      way = await markThemeSearch(page);
      if (way) {
        way += ` on ${new URL(link).pathname}`;
        break;
      }
    }
  }
  if (!way) return undefined;
  await page.evaluate((text) => document.documentElement.setAttribute('data-doclens-check-way', text), way);
  const target = page.locator('[data-doclens-check="theme-search"]');
  if (how === 'focus' && way.startsWith("the theme's search box")) await target.focus();
  else await target.click();
  return way;
}

/**
 * Runs every check on `url` (a page of a site served with the widget), each on a new page of its own.
 * A site that shows no theme search passes the handover checks, saying so.
 */
export async function runKeyboardChecks(browser: Browser, url: string, options: KeyboardOptions = {}): Promise<KeyboardResult[]> {
  const results: KeyboardResult[] = [];
  for (const { name } of KEYBOARD_CHECKS) {
    const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 } });
    // Functions handed to the page keep their names under tsx.
    await context.addInitScript('window.__name = (target) => target;');
    await context.addInitScript(INSTRUMENT);
    const page = await context.newPage();
    try {
      await page.goto(url);
      await page.waitForFunction(() => customElements.get('doclens-search') !== undefined && !!document.querySelector('doclens-search'), undefined, { timeout: 15000 });
      const problem = await CHECKS[name]!(page);
      const way = name.startsWith('handover') ? ((await page.locator('html').getAttribute('data-doclens-check-way')) ?? 'the site shows no theme search to hand over from') : undefined;
      results.push({ name, passed: !problem, detail: problem ?? way });
    } catch (error) {
      results.push({ name, passed: false, detail: error instanceof Error ? error.message.split('\n')[0] : String(error) });
    } finally {
      await context.close();
    }
  }
  return results;
}
