/**
 * For the keyboard checks, what the theme of a real site does: its state as the page reports it
 * (overlays, toggles, focus outside doclens, its search box's text), and the way a reader reaches its
 * own search (its box, a control that opens it, a toggle that shows it), found by doclens' own
 * detection (`widget/loader/theme-search.ts`, bundled into the page).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import type { searchOpeners, themeSearchBoxes } from '../../widget/loader/theme-search.ts';

/** The widget's detection of the theme's search, as the page's scripts see it (see `instrument`). */
export interface ThemeSearchProbe {
  themeSearchBoxes: typeof themeSearchBoxes;
  searchOpeners: typeof searchOpeners;
}

const THEME_SEARCH = fileURLToPath(new URL('../../widget/loader/theme-search.ts', import.meta.url));
const SITE_OUTLINE = fileURLToPath(new URL('../../widget/search/site-outline.ts', import.meta.url));

/** What the theme shows and where focus went, as the page tells it (see `INSTRUMENT`). */
export interface ThemeState {
  url: string;
  dialogs: string[];
  toggles: string[];
  focusedOutside: string[];
  themeBoxValues: string[];
}

// Runs in the page before its own scripts: records focus that lands outside doclens, and helpers the checks read.
const RECORDER = `(() => {
  const inDoclens = (element) => !!element.closest?.('doclens-search, doclens-preview, doclens-versions');
  const describe = (element) => {
    const name = element.getAttribute('name');
    const classes = typeof element.className === 'string' ? element.className.trim().split(/\\s+/).filter(Boolean).slice(0, 2) : [];
    return element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (name ? '[name=' + name + ']' : '') +
      (classes.length ? '.' + classes.join('.') : '');
  };
  const visible = (element) => element.checkVisibility({ visibilityProperty: true });
  const log = { focusedOutside: [] };
  document.addEventListener('focusin', (event) => {
    const target = event.target;
    if (target instanceof Element && !inDoclens(target) && target !== document.body) log.focusedOutside.push(describe(target));
  }, true);
  window.__doclensKeyboard = {
    log,
    state: () => ({
      // doclens' own fragment (the query while its dialog is open) is not the theme's doing.
      url: location.href.replace(/#doclens-q=[^#]*$/, ''),
      dialogs: [...document.querySelectorAll('[role="dialog"], [aria-modal="true"], dialog, [popover]')]
        .filter((element) => !inDoclens(element) && visible(element))
        .map(describe),
      toggles: [...document.querySelectorAll('input[type="checkbox"], input[type="radio"]')]
        .filter((element) => !inDoclens(element) && element.checked)
        .map(describe),
      focusedOutside: [...log.focusedOutside],
      // In the detection's order, which puts visible boxes first: sorted, a box shown or hidden changes nothing.
      themeBoxValues: window.__doclensThemeSearch.themeSearchBoxes().map((input) => input.value).sort(),
    }),
  };
})();`;

let instrumented: Promise<string> | undefined;

/**
 * The script the checks add to each page before its own: the widget's detection of the theme's search
 * (on `window.__doclensThemeSearch`), its reading of the site's outline that places result rows
 * (`window.__doclensSiteOutline`), and the recorder of focus and helpers (on `window.__doclensKeyboard`).
 */
export function instrument(): Promise<string> {
  instrumented ??= build({
    stdin: {
      contents: `import { searchOpeners, themeSearchBoxes } from ${JSON.stringify(THEME_SEARCH)};
        import { SiteOutline } from ${JSON.stringify(SITE_OUTLINE)};
        window.__doclensThemeSearch = { searchOpeners, themeSearchBoxes };
        window.__doclensSiteOutline = SiteOutline;`,
      loader: 'ts',
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    },
    bundle: true,
    format: 'iife',
    write: false,
  }).then(({ outputFiles }) => `${outputFiles[0]!.text}\n${RECORDER}`);
  return instrumented;
}

/** Differences between two theme states, in words ("" when the theme did nothing). */
export function themeChanges(before: ThemeState, after: ThemeState): string {
  const added = (key: 'dialogs' | 'toggles') => after[key].filter((item) => !before[key].includes(item));
  return [
    after.url !== before.url ? `went to ${after.url}` : '',
    added('dialogs').length ? `opened ${added('dialogs').join(', ')}` : '',
    added('toggles').length ? `switched on ${added('toggles').join(', ')}` : '',
    after.focusedOutside.length > before.focusedOutside.length
      ? `focused ${after.focusedOutside.slice(before.focusedOutside.length).join(', ')}`
      : '',
    after.themeBoxValues.join('|') !== before.themeBoxValues.join('|') ? `its box now holds "${after.themeBoxValues.join('|')}"` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * Marks `data-doclens-check="theme-search"` on what leads the reader to the theme's search on this page:
 * its first box the reader can click (not in a closed menu off the screen), else a control that reveals
 * a hidden container holding a box (a navigation bar's "Search" opening a modal). Says which, or "".
 */
async function markThemeSearch(page: Page): Promise<string> {
  return page.evaluate(() => {
    const probe = (window as unknown as { __doclensThemeSearch: ThemeSearchProbe }).__doclensThemeSearch;
    const boxes = probe.themeSearchBoxes();
    const clickable = (element: Element) => {
      if (!element.checkVisibility({ visibilityProperty: true })) return false;
      element.scrollIntoView({ block: 'center' });
      const { x, y, width, height } = element.getBoundingClientRect();
      const hit = document.elementFromPoint(x + width / 2, y + height / 2);
      return !!hit && (hit === element || element.contains(hit));
    };
    const box = boxes.find(clickable);
    const opener = probe.searchOpeners(boxes).find(clickable);
    const found = box ?? opener;
    found?.setAttribute('data-doclens-check', 'theme-search');
    return box ? "the theme's search box" : opener ? "the control that opens the theme's search" : '';
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
    const isCheckbox = await toggle.evaluate(
      (label) =>
        (label as HTMLLabelElement).control instanceof HTMLInputElement &&
        (label as HTMLLabelElement).control!.getAttribute('type') === 'checkbox',
    );
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
export async function reachThemeSearch(page: Page, how: 'focus' | 'click'): Promise<string | undefined> {
  let way = (await markThemeSearch(page)) || (await revealThemeSearch(page));
  if (!way) {
    const links = await page.evaluate(() =>
      [
        ...new Set(
          [...document.querySelectorAll<HTMLAnchorElement>('a[href]')]
            .map((link) => link.href.split('#')[0]!)
            .filter((href) => href.startsWith(location.origin) && href !== location.href.split('#')[0]),
        ),
      ].slice(0, 5),
    );
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
