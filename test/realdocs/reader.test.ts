import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../e2e/browser.ts';
import { paintedScheme } from './reader.ts';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/real-docs/${path}`, import.meta.url), 'utf8');

// The reader check of the widget's colour scheme compares it with the scheme the page paints behind its text.
describe('paintedScheme', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("reads the page's white behind the text, not the blue navigation bar pinned over the window's middle (Node.js)", async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
    await page.setContent(fixture('nodejs/index.html'));
    // The bar lists 64 pages, in about eleven rows at this width (nine at 1280 px, short of an 800 px
    // window's middle with some fonts): the middle of the window is in it.
    expect(await page.evaluate(() => !!document.elementFromPoint(512, 320)?.closest('.navbar'))).toBe(true);
    expect(await page.evaluate(paintedScheme)).toBe('light');
    await page.evaluate(() => document.body.style.setProperty('background-color', '#1e1e1e'));
    expect(await page.evaluate(paintedScheme)).toBe('dark');
    await page.close();
  });
});
