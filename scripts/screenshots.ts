// `npm run screenshots`: pictures of each feature, taken from the running demo, for the README.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium, startDemo } from '../test/e2e/browser.ts';

const out = (name: string) => fileURLToPath(new URL(`../docs/screenshots/${name}.png`, import.meta.url));

async function openSearch(page: Page, words: string): Promise<void> {
  await page.keyboard.press('/');
  await page.locator('doclens-search input[role="combobox"]').fill(words);
  await page.locator('doclens-search [role="option"]').first().waitFor();
  await page.waitForTimeout(200);
}

async function hoverPreview(page: Page, selector: string): Promise<void> {
  await page.hover(selector);
  await page.locator('doclens-preview [part~="content"]').waitFor();
  await page.waitForTimeout(250);
}

const demo = await startDemo();
const browser = await launchChromium();
try {
  const root = new URL(demo.url);
  const docs = (path: string) => new URL(path, root).href;
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(docs('quickstart.html'));
    await openSearch(page, 'retry');
    await page.keyboard.press('ArrowDown');
    await page.screenshot({ path: out(`search-${scheme}`) });
    await page.keyboard.press('Escape');
    await page.goto(docs('architecture.html'));
    await hoverPreview(page, 'div[role="main"] a[href*="glossary.html#term-"]');
    await page.screenshot({ path: out(`preview-${scheme}`) });
    await context.close();
  }
  const small = await browser.newContext({ viewport: { width: 390, height: 760 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  const phone = await small.newPage();
  await phone.goto(docs('quickstart.html'));
  // On a phone the theme's search box sits in its navigation drawer, as in the Read the Docs theme.
  await phone.locator('[data-toggle="wy-nav-top"]').tap();
  await phone.locator('#rtd-search-form input[name="q"]').tap();
  await phone.locator('doclens-search input[role="combobox"]').fill('schedule');
  await phone.locator('doclens-search [role="option"]').first().waitFor();
  await phone.screenshot({ path: out('search-small') });
  // A first tap on a link previews it, with an "Open" action.
  await phone.goto(docs('architecture.html'));
  await phone.locator('div[role="main"] a[href="glossary.html#term-store"]').tap();
  await phone.locator('doclens-preview [part~="content"]').waitFor();
  await phone.waitForTimeout(250);
  await phone.screenshot({ path: out('preview-touch') });
  await small.close();

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(docs('installation.html'));
  await page.locator('doclens-versions [part~="toggle"]').click();
  await page.screenshot({ path: out('versions') });
  // A page missing from older versions: the switcher marks them; choosing one lands on its start page with a notice.
  await page.goto(docs('guides/observability.html'));
  await page.locator('doclens-versions [part~="toggle"]').click();
  await page.waitForTimeout(200);
  await page.screenshot({ path: out('versions-missing') });
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/en/1.0/'),
    page.locator('doclens-versions [role="menuitemradio"]', { hasText: '1.0' }).first().click(),
  ]);
  await page.locator('doclens-versions [part~="notice"]').first().waitFor();
  await page.waitForTimeout(200);
  await page.screenshot({ path: out('versions-arrival') });
  // The reader's own switches, from the switcher of an old version (its notice among them).
  await page.goto(new URL('/en/1.0/installation.html', root).href);
  await page.locator('doclens-versions [part~="settings"]').click();
  await page.locator('doclens-versions [part~="settings-menu"]').waitFor();
  await page.waitForTimeout(200);
  await page.screenshot({ path: out('settings') });
  await page.keyboard.press('Escape');
  // The searched words on the page a result opens, with the bar that steps through them.
  await page.goto(docs('architecture.html?highlight=lease'));
  await page.locator('doclens-matches [part~="bar"]').waitFor();
  await page.locator('doclens-matches [part~="next"]').click();
  await page.waitForTimeout(250);
  await page.screenshot({ path: out('matches') });
  await page.goto(docs('api/scheduler.html'));
  await page.setViewportSize({ width: 900, height: 600 });
  const last = page.locator('div[role="main"] a.reference.internal').last();
  await last.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 10_000));
  await hoverPreview(page, 'div[role="main"] a.reference.internal >> nth=-1');
  await page.screenshot({ path: out('preview-edge') });
  console.log('screenshots written to docs/screenshots/');
} finally {
  await browser.close();
  await demo.stop();
}
