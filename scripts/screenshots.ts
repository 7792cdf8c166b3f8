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
  await page.locator('doclens-preview .content').waitFor();
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
  await small.close();

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(docs('installation.html'));
  await page.locator('doclens-versions .toggle').click();
  await page.screenshot({ path: out('versions') });
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
