import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoBuild } from '../fixtures/demo.ts';
import { builtFiles, firstLoadFiles } from '../fixtures/widget-files.ts';
import { KEYBOARD_CHECKS, runKeyboardChecks } from '../realdocs/keyboard.ts';
import { launchChromium, previewByKeyboard, startDemo, switchTo, type RunningDemo } from './browser.ts';
// The page's globals once the widget runs in it (window.doclens, the doclens-* elements), for page.evaluate.
import type {} from '../../widget/loader/doclens.ts';
import type {} from '../../widget/search/doclens-search.ts';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let demo: RunningDemo;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Console errors and uncaught exceptions of the current test's page: each one fails it. */
let problems: string[] = [];
/** Messages a test expects (a browser's own network error while the proxy is down). */
let tolerated: RegExp | undefined;

const docs = (path: string) => new URL(path, demo.url).href;
const proxyUrl = () => /doclens proxy\s+(http:\/\/127\.0\.0\.1:\d+)\/healthz/.exec(demo.output())![1]!;

beforeAll(async () => {
  demo = await startDemo();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  expect(await demo.stop()).toBe(0);
});

async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  page = await context.newPage();
  problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !tolerated?.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  // Named here, as the console only says "Failed to load resource"; browsers ask for a favicon the demo lacks.
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  tolerated = /Failed to load resource: the server responded with a status of 404 \(Not Found\)$/;
  return page;
}

afterEach(async () => {
  await context?.close();
  expect(problems).toEqual([]);
});

/** axe-core on the widget's open state: no serious or critical violations. */
async function expectAccessible(selector: string): Promise<void> {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async (target) => {
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    const result = await axe.run({ include: [[target]] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id);
  }, selector);
  expect(violations).toEqual([]);
}

const searchInput = () => page.locator('doclens-search input[role="combobox"]');
const options = () => page.locator('doclens-search [role="option"]');
const preview = () => page.locator('doclens-preview [part~="popup"]');

describe('search', () => {
  it('by hotkey and keyboard only: to the section, with the terms highlighted', async () => {
    await newPage();
    await page.goto(docs('quickstart.html'));
    await page.keyboard.press('/');
    await searchInput().waitFor();
    await page.keyboard.type('lease');
    await options().first().waitFor();
    await expectAccessible('doclens-search');
    // "lease" chooses its glossary entry first, below the page (see `firstChosen`); the arrow goes on to the next section.
    await page.keyboard.press('ArrowDown');
    const target = await page.locator('doclens-search [role="option"][aria-selected="true"]').getAttribute('href');
    // The words typed, then the forms of them the search matched there.
    expect(target).toMatch(/\?highlight=lease[^#]*#/);
    await Promise.all([page.waitForURL((url) => url.hash.length > 1 && !url.hash.startsWith('#doclens-q=')), page.keyboard.press('Enter')]);
    const landed = new URL(target!);
    landed.searchParams.delete('highlight');
    expect(page.url()).toBe(landed.href);
    await page.locator('mark.doclens-highlight').first().waitFor();
    const fragment = decodeURIComponent(new URL(page.url()).hash.slice(1));
    expect(await page.locator(`[id="${fragment}"]`).isVisible()).toBe(true);
  });

  it('by clicking the theme search box and a result', async () => {
    await newPage();
    await page.goto(docs('index.html'));
    await page.locator('#rtd-search-form input[name="q"]').click();
    await searchInput().fill('retry policy');
    await options().first().waitFor();
    const href = await options().first().getAttribute('href');
    await Promise.all([page.waitForURL((url) => url.pathname !== '/en/latest/index.html'), options().first().click()]);
    expect(page.url()).toBe(href!.replace(/\?highlight=[^#]*/, ''));
  });

  it('on the MkDocs project too', async () => {
    await newPage();
    const skyline = new URL(/Skyline\s+(http\S+)/.exec(demo.output())![1]!);
    await page.goto(new URL('getting-started/', skyline).href);
    await page.keyboard.press('Control+k');
    await searchInput().fill('privacy');
    await options().first().waitFor();
    expect(await options().first().getAttribute('href')).toContain(skyline.origin);
    await page.keyboard.press('Escape');
    await page.hover('article a[href="../faq/#nothing-shows-up"]');
    await page.locator('doclens-preview [part~="content"]').waitFor();
    expect(await page.locator('doclens-preview [part~="title"]').textContent()).toMatch(/nothing shows up/i);
  });
});

describe('search you can link to, and recent searches by keyboard', () => {
  const dialogOpen = () => page.evaluate(() => document.querySelector('doclens-search')?.open === true);

  it('opens from a link with its results, keeps the query in the URL, copies the link, and Back closes the dialog', async () => {
    await newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(docs('quickstart.html#doclens-q=lease'));
    await options().first().waitFor();
    expect(await searchInput().inputValue()).toBe('lease');
    await page.keyboard.type(' retry');
    await page.waitForURL((url) => url.hash === '#doclens-q=lease+retry');
    await page.getByRole('button', { name: 'Copy link to this search' }).click();
    await page.getByText('Link copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(docs('quickstart.html#doclens-q=lease+retry'));
    await page.goBack();
    await expect.poll(dialogOpen).toBe(false);
    expect(page.url()).toBe(docs('quickstart.html'));
    // Opened by the hotkey, the dialog is one Back away, and the page stays.
    await page.keyboard.press('/');
    await page.keyboard.type('lease');
    await page.waitForURL((url) => url.hash === '#doclens-q=lease');
    await page.goBack();
    await expect.poll(dialogOpen).toBe(false);
    expect(page.url()).toBe(docs('quickstart.html'));
  });

  it('runs a recent search reached by the arrows on Enter, focus staying in the dialog', async () => {
    await newPage();
    await page.goto(docs('quickstart.html'));
    await page.keyboard.press('/');
    await page.keyboard.type('lease');
    await options().first().waitFor();
    await Promise.all([page.waitForURL((url) => url.pathname !== '/en/latest/quickstart.html'), page.keyboard.press('Enter')]);
    await page.keyboard.press('/');
    await page.locator('doclens-search [part~="recent-query"]').first().waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('doclens-search [part~="recent"] li[data-active]').textContent()).toContain('lease');
    await page.keyboard.press('Enter');
    await options().first().waitFor();
    expect(await searchInput().inputValue()).toBe('lease');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
  });
});

describe("the keyboard against the themes' own shortcuts", () => {
  // The real-docs suite's checks: keys land, nothing navigates, the theme stays quiet, Escape after clicks, Tab, handover.
  // One test each: every check loads its page in a new browser context.
  const checks = KEYBOARD_CHECKS.map(({ name }) => name);

  it.each(checks)('on the Sphinx project, on a desktop: %s', async (name) => {
    const results = await runKeyboardChecks(browser, docs('quickstart.html'), { only: [name] });
    expect(results).toEqual([expect.objectContaining({ name, passed: true })]);
  });

  it.each(checks)('on the MkDocs project, on a phone: %s', async (name) => {
    const skyline = new URL(/Skyline\s+(http\S+)/.exec(demo.output())![1]!);
    const results = await runKeyboardChecks(browser, new URL('getting-started/', skyline).href, { width: 390, only: [name] });
    expect(results).toEqual([expect.objectContaining({ name, passed: true })]);
  });
});

describe('matches on the destination page', () => {
  it('counts them, steps by Enter and hides them with one click', async () => {
    await newPage();
    await page.goto(docs('glossary.html?highlight=lease#term-lease'));
    await page.locator('mark.doclens-highlight').first().waitFor();
    const total = await page.locator('mark.doclens-highlight').count();
    await expect
      .poll(() => page.locator('doclens-matches [part~="count"]').textContent())
      .toBe(total === 1 ? '1 match' : `${total} matches`);
    await page.locator('doclens-matches [part~="next"]').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('doclens-matches [part~="count"]').textContent()).toBe(`1 of ${total}`);
    expect(await page.locator('mark.doclens-highlight').first().getAttribute('aria-current')).toBe('true');
    await page.locator('doclens-matches [part~="clear"]').click();
    expect(await page.locator('mark').count()).toBe(0);
    expect(await page.locator('doclens-matches [part~="bar"]').count()).toBe(0);
  });

  it("on a phone, leaves the theme's controls and the switcher free", async () => {
    await newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(docs('architecture.html?highlight=lease'));
    await page.locator('doclens-matches [part~="bar"]').waitFor();
    // The page's controls and the switcher under the bar, once both have found their spots.
    const covered = async () => {
      const bar = (await page.locator('doclens-matches [part~="bar"]').boundingBox())!;
      return page.evaluate(({ x, y, width, height }) => {
        const controls = [...document.querySelectorAll('a, button, input, [role="button"], doclens-versions')].filter(
          (control) => !document.querySelector('[role="main"]')!.contains(control),
        );
        return controls
          .filter((control) => {
            const box = control.getBoundingClientRect();
            return box.width > 0 && box.right > x && box.left < x + width && box.bottom > y && box.top < y + height;
          })
          .map((control) => control.outerHTML.slice(0, 80));
      }, bar);
    };
    await expect.poll(covered).toEqual([]);
  });
});

describe('touch', () => {
  it('searches by tapping on a phone', async () => {
    await newPage({ viewport: { width: 390, height: 760 }, hasTouch: true, isMobile: true });
    await page.goto(docs('architecture.html'));
    await page.locator('[data-toggle="wy-nav-top"]').tap();
    await page.locator('#rtd-search-form input[name="q"]').tap();
    await searchInput().fill('lease');
    await options().nth(1).waitFor();
    const dialog = await page.locator('doclens-search [part~="dialog"]').boundingBox();
    expect(dialog).toMatchObject({ x: 0, y: 0, width: 390 });
    const href = await options().nth(1).getAttribute('href');
    await Promise.all([page.waitForURL((url) => url.hash.length > 1 && !url.hash.startsWith('#doclens-q=')), options().nth(1).tap()]);
    expect(page.url()).toBe(href!.replace(/\?highlight=[^#]*/, ''));
  });

  it("offers its own trigger while the theme's box is in a closed side menu, and a labelled close button a finger can hit", async () => {
    await newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(docs('architecture.html'));
    // The Read the Docs theme keeps its search box in the side menu, off the screen on a phone.
    const trigger = page.locator('doclens-search [part~="trigger"]');
    await trigger.waitFor();
    await trigger.tap();
    await searchInput().waitFor();
    const close = page.locator('doclens-search [part~="close"]');
    expect(await close.textContent()).toContain('Close');
    const size = (await close.boundingBox())!;
    expect(size.width).toBeGreaterThanOrEqual(44);
    expect(size.height).toBeGreaterThanOrEqual(44);
    await close.tap();
    await searchInput().waitFor({ state: 'detached' });
    // Once the reader opens the menu, its box is the way to search: the trigger goes.
    await page.locator('[data-toggle="wy-nav-top"]').tap();
    await trigger.waitFor({ state: 'hidden' });
  });

  it('a first tap on a link previews it with an "Open" action, a tap elsewhere closes it, a second tap follows it', async () => {
    await newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(docs('architecture.html'));
    const link = page.locator('div[role="main"] a[href="glossary.html#term-store"]');
    // The preview's code comes once the page is idle after its load event; a tap before it simply follows the link.
    await page.waitForFunction(() => customElements.get('doclens-preview') !== undefined);
    await link.tap();
    await page.locator('doclens-preview [part~="content"]').waitFor();
    expect(page.url()).toBe(docs('architecture.html'));
    expect(await page.locator('doclens-preview [part~="more"]').textContent()).toContain('Open');
    await page.locator('h1').tap();
    await preview().waitFor({ state: 'hidden' });
    await link.tap();
    await page.locator('doclens-preview [part~="content"]').waitFor();
    await Promise.all([page.waitForURL('**/glossary.html#term-store'), link.tap()]);
  });
});

describe('previews', () => {
  it('on glossary terms by hover, API entries by keyboard focus, other pages, the subproject and another version', async () => {
    await newPage();
    await page.goto(docs('architecture.html'));
    await page.hover('div[role="main"] a[href="glossary.html#term-lease"]');
    await page.locator('doclens-preview [part~="content"]').waitFor();
    expect(await page.locator('doclens-preview [part~="title"]').textContent()).toBe('lease');
    await expectAccessible('doclens-preview');

    await page.goto(docs('quickstart.html'));
    expect(await previewByKeyboard(page, 'div[role="main"] a[href*="api/scheduler.html#aurora.Scheduler"]')).toContain('Scheduler');
    await page.keyboard.press('Escape');
    expect(await preview().evaluate((element) => element.matches(':popover-open'))).toBe(false);

    await page.goto(docs('index.html'));
    await page.hover('div[role="main"] a[href="/projects/plugins/en/latest/index.html"]');
    await page.locator('doclens-preview [part~="badge"]').waitFor();
    expect(await page.locator('doclens-preview [part~="badge"]').textContent()).toContain('plugins');

    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '/en/1.0/quickstart.html';
      link.id = 'old';
      link.textContent = 'the 1.0 quickstart';
      document.querySelector('div[role="main"] p')!.append(' See ', link, '.');
    });
    await page.hover('#old');
    await page.locator('doclens-preview [part~="badge"]').filter({ hasText: '1.0' }).waitFor();
  });

  it("are in the reader's own text size (the browser's setting), not the page's", async () => {
    await newPage();
    // What a reader sets as "Font size" in the browser's settings.
    await (await context.newCDPSession(page)).send('Page.setFontSizes', { fontSizes: { standard: 20 } });
    await page.goto(docs('architecture.html'));
    await page.hover('div[role="main"] a[href="glossary.html#term-lease"]');
    const content = page.locator('doclens-preview [part~="content"]');
    await content.waitFor();
    // 0.92 of the reader's 20px.
    expect(await content.evaluate((element) => getComputedStyle(element).fontSize)).toBe('18.4px');
  });
});

describe('version and language switcher', () => {
  it('keeps the page across versions and languages, and is accessible open', async () => {
    await newPage();
    await page.goto(docs('installation.html'));
    await page.locator('doclens-versions [part~="toggle"]').click();
    await expectAccessible('doclens-versions');
    await page.locator('doclens-versions [part~="toggle"]').click();
    await switchTo(page, { name: /^2\.0\b/ }, '**/en/2.0/installation.html');
    await switchTo(page, { hasText: 'Spanish' }, '**/es/latest/installation.html');
    expect(await page.locator('doclens-versions [part~="toggle"]').textContent()).toContain('es');
  });

  it("on a phone, leaves the theme's controls free and folds into a badge remembered across pages", async () => {
    await newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(docs('../1.0/installation.html'));
    await page.locator('doclens-versions [part~="notice"]').waitFor();
    // What the theme offers on a phone, at the top and the bottom of the page.
    const controls = ['[data-toggle="wy-nav-top"]', '.wy-nav-top a', 'footer a'];
    for (const [scroll, selectors] of [
      [0, controls.slice(0, 2)],
      [1e6, controls.slice(2)],
    ] as const) {
      await page.evaluate((y) => window.scrollTo(0, y), scroll);
      for (const selector of selectors) {
        const control = page.locator(selector).first();
        await control.scrollIntoViewIfNeeded();
        const topmost = () =>
          control.evaluate((element) => {
            const box = element.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return hit === element || element.contains(hit);
          });
        // The switcher moves out of the way once the scroll settles: asked until it has.
        await expect.poll(topmost, { message: selector, timeout: 5000 }).toBe(true);
      }
    }
    await page.locator('doclens-versions [part~="collapse"]').tap();
    await page.locator('doclens-versions [part~="badge"]').waitFor();
    await page.goto(docs('quickstart.html'));
    await page.locator('doclens-versions [part~="badge"]').tap();
    await page.locator('doclens-versions [part~="toggle"]').waitFor();
    await page.reload();
    await page.locator('doclens-versions [part~="toggle"]').waitFor();
    expect(await page.locator('doclens-versions [part~="badge"]').count()).toBe(0);
  });

  it('falls back to the version root where the page does not exist', async () => {
    await newPage();
    await page.goto(docs('guides/observability.html'));
    await page.locator('doclens-versions [part~="toggle"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    const focused = await page.evaluate(() => document.querySelector('doclens-versions')!.shadowRoot!.activeElement?.textContent);
    expect(focused).toContain('1.0');
    await Promise.all([page.waitForURL((url) => url.pathname === '/en/1.0/'), page.keyboard.press('Enter')]);
  });
});

describe('a lighter first load', () => {
  /** Holds back every request for one of the widget's chunks, as a slow network would, until `release`. */
  async function holdChunk(part: string): Promise<{ requested: Promise<void>; release(): void }> {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requested: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (requested = resolve));
    await page.route(`**/doclens-${part}-*.js`, async (route) => {
      requested();
      await released;
      await route.continue();
    });
    return { requested: asked, release };
  }

  it('fetches only the loader until the load event, at most 15 KB on the wire, and the rest once idle', async () => {
    await newPage();
    await page.goto(docs('quickstart.html'), { waitUntil: 'load' });
    const widgetFiles = () =>
      page.evaluate(() => {
        const load = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart;
        return performance
          .getEntriesByType('resource')
          .filter((entry) => /\/doclens[\w.-]*\.js$/.test(entry.name))
          .map((entry) => {
            const { encodedBodySize, decodedBodySize } = entry as PerformanceResourceTiming;
            return { file: entry.name.replace(/^.*\//, ''), beforeLoad: entry.startTime < load, encodedBodySize, decodedBodySize };
          });
      });
    const loaded = (await widgetFiles()).filter((entry) => entry.beforeLoad);
    const beforeLoad = loaded.map((entry) => entry.file);
    // The loader and what it imports statically; none of the chunks it imports on first use.
    expect(beforeLoad.sort()).toEqual(firstLoadFiles().sort());
    // Every file of the build is one the proxy serves (its file names are strict).
    for (const file of builtFiles()) expect((await fetch(`${proxyUrl()}/${file}`)).status, file).toBe(200);
    // The bytes on the wire, as the browser counts them (the proxy allows it with Timing-Allow-Origin): compressed.
    const sent = loaded.reduce((sum, entry) => sum + entry.encodedBodySize, 0);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(15 * 1024);
    for (const entry of loaded) expect(entry.encodedBodySize, entry.file).toBeLessThan(entry.decodedBodySize);
    // Once the page is idle, the elements' code follows.
    await page.locator('doclens-versions [part~="toggle"]').waitFor();
    expect((await widgetFiles()).some((entry) => entry.file.startsWith('doclens-search-'))).toBe(true);
  });

  it('opens the dialog on the first shortcut and keeps the keys typed while its code loads', async () => {
    await newPage();
    const chunk = await holdChunk('search');
    await page.goto(docs('quickstart.html'), { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => !!window.doclens);
    await page.keyboard.press('/');
    await chunk.requested;
    await page.keyboard.type('lease');
    // Typed while the dialog's code was still on its way.
    chunk.release();
    await options().first().waitFor();
    expect(await searchInput().inputValue()).toBe('lease');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    // Sphinx's own "/" and its search box never saw the keys.
    expect(await page.locator('#rtd-search-form input[name="q"]').inputValue()).toBe('');
  });

  it('previews the link whose hover loaded the preview code', async () => {
    await newPage();
    const chunk = await holdChunk('preview');
    await page.goto(docs('architecture.html'), { waitUntil: 'load' });
    await page.hover('div[role="main"] a[href="glossary.html#term-lease"]');
    // The hover asked for the preview code; it arrives only now.
    await chunk.requested;
    chunk.release();
    await page.locator('doclens-preview [part~="content"]').waitFor();
    expect(await page.locator('doclens-preview [part~="title"]').textContent()).toBe('lease');
  });
});

describe('degradation and strict pages', () => {
  it('stays quiet when the proxy stops mid-session', async () => {
    await newPage();
    await page.goto(docs('architecture.html'));
    await page.locator('doclens-versions [part~="toggle"]').waitFor();
    tolerated = /Failed to load resource: (net::ERR_CONNECTION_REFUSED|the server responded with a status of 404)/;
    await page.route(`${proxyUrl()}/**`, (route) => route.abort('connectionrefused'));
    await page.hover('div[role="main"] a[href="glossary.html#term-store"]');
    await page.locator('doclens-preview [part~="unavailable"]').waitFor();
    await page.mouse.move(5, 790);
    await page.keyboard.press('/');
    await searchInput().fill('scheduler');
    await page.locator('doclens-search [part~="error"]').waitFor();
  });

  it('works under a strict Content-Security-Policy with Trusted Types', async () => {
    await newPage();
    const proxy = proxyUrl();
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    // The demo page as a strict site would serve it: no inline or theme scripts, only the doclens tag.
    await page.route(docs('**'), async (route) => {
      const response = await route.fetch();
      if (!(response.headers()['content-type'] ?? '').includes('text/html')) return route.fulfill({ response });
      const body = (await response.text()).replace(/<script\b(?![^>]*doclens\.js)[^>]*>[\s\S]*?<\/script>/gi, '');
      const policy =
        `default-src 'self'; script-src 'self' ${proxy}; style-src 'self'; img-src 'self' data:; font-src 'self' data:; ` +
        `connect-src 'self' ${proxy}; require-trusted-types-for 'script'`;
      await route.fulfill({ response, body, headers: { ...response.headers(), 'content-security-policy': policy } });
    });
    await page.goto(docs('architecture.html'));
    await page.hover('div[role="main"] a[href="glossary.html#term-lease"]');
    await page.locator('doclens-preview [part~="content"]').waitFor();
    await page.mouse.move(5, 790);
    await page.keyboard.press('/');
    await searchInput().fill('lease');
    await options().first().waitFor();
    await page.keyboard.press('Escape');
    await page.locator('doclens-versions [part~="toggle"]').click();
    await page.locator('doclens-versions [part~="menu"]').waitFor();
    // The reader's settings menu too (a popover in the top layer).
    await page.locator('doclens-versions [part~="settings"]').click();
    await page.locator('doclens-versions [part~="settings-menu"]').waitFor();
    expect(violations).toEqual([]);
  });
});

describe('doclens demo --docs', () => {
  it('shows any folder of built docs with the widget', async () => {
    const custom = await startDemo(['--docs', `${demoBuild}skyline/en/latest`, '--project', 'sky']);
    try {
      await newPage();
      await page.goto(custom.url);
      await page.keyboard.press('/');
      await searchInput().fill('dashboards');
      await options().first().waitFor();
      expect(await options().first().getAttribute('href')).toContain(new URL(custom.url).origin);
    } finally {
      expect(await custom.stop()).toBe(0);
    }
  });
});
