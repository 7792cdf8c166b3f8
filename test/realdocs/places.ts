/**
 * Where the search dialog's rows place pages ("API Reference › Matrices"), as the widget places them on the site's
 * start page: its own reading of the site's outline (`widget/search/site-outline.ts`, bundled into the page by
 * `theme.ts`). A title that several pages share is told apart by its place, if by anything.
 */
import type { Browser } from 'playwright-core';
import type { SiteOutline } from '../../widget/search/site-outline.ts';
import { instrument } from './theme.ts';

/** The place of each page of `urls` (file → address), where the start page at `start` gives one. */
export async function pagePlaces(browser: Browser, start: string, urls: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(await instrument());
    const page = await context.newPage();
    await page.goto(start);
    const places = await page.evaluate(
      (addresses) => {
        const Outline = (window as unknown as { __doclensSiteOutline: typeof SiteOutline }).__doclensSiteOutline;
        const outline = new Outline();
        return addresses.map((address) => outline.above(address).join(' › '));
      },
      [...urls.values()],
    );
    return new Map([...urls.keys()].map((file, index) => [file, places[index]!] as const).filter(([, place]) => place));
  } finally {
    await context.close();
  }
}
