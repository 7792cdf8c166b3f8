import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStatic } from '../../static/build.ts';
import { demoBuild } from '../fixtures/demo.ts';
import { serveFolders, type StaticFiles } from '../static-files.ts';
import { launchChromium, previewByKeyboard, searchByKeyboard, switchTo } from './browser.ts';

/*
 * The demo's Aurora laid out as the hosting service serves it (three versions, a Spanish translation),
 * built by `doclens build --inject` and served by a plain static file server: no doclens process.
 */
let work: string;
let files: StaticFiles;
let browser: Browser;
let page: Page;
/** Every URL the page asked for that is not on the static server. */
let elsewhere: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'doclens-static-e2e-'));
  const docs = join(work, 'site');
  cpSync(`${demoBuild}aurora`, docs, { recursive: true });
  cpSync(`${demoBuild}aurora-es/es`, join(docs, 'es'), { recursive: true });
  // A page moved elsewhere, as Sphinx's redirects leave it, and a page that links to it.
  mkdirSync(join(docs, 'en/latest/generated'));
  writeFileSync(
    join(docs, 'en/latest/generated/lease.html'),
    '<html><head><meta http-equiv="refresh" content="0; url=../glossary.html#term-lease"/></head><body>Moved.</body></html>',
  );
  writeFileSync(
    join(docs, 'en/latest/moved.html'),
    '<html><head><title>Moved</title></head><body><main><h1>Moved</h1><p><a href="generated/lease.html">lease</a></p></main></body></html>',
  );
  await buildStatic({ docs, inject: true });
  files = await serveFolders({ '/': docs });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await files?.close();
  rmSync(work, { recursive: true, force: true });
});

async function open(path: string): Promise<void> {
  page = await browser.newPage();
  elsewhere = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${files.url}/`)) elsewhere.push(request.url());
  });
  await page.goto(`${files.url}/${path}`);
}

describe('a static site after doclens build --inject', () => {
  it('searches in the browser, the right page in the top 3', async () => {
    await open('en/latest/index.html');
    const links = await searchByKeyboard(page, 'retries and backoff');
    const pages = [...new Set(links.map((link) => new URL(link).pathname))];
    expect(pages.slice(0, 3)).toContain('/en/latest/tutorial/retries.html');
    // The page's own project and version, read from the build's files: no result says it is from elsewhere.
    expect(await page.locator('doclens-search [role="option"] .badge').count()).toBe(0);
    expect(elsewhere).toEqual([]);
  });

  it('previews on hover and on keyboard focus', async () => {
    await open('en/latest/architecture.html');
    await page.hover('div[role="main"] a[href="glossary.html#term-lease"]');
    await page.locator('doclens-preview [part~="content"]').waitFor();
    expect(await page.locator('doclens-preview [part~="title"]').textContent()).toBe('lease');
    await page.goto(`${files.url}/en/latest/quickstart.html`);
    expect(await previewByKeyboard(page, 'div[role="main"] a[href*="api/scheduler.html#aurora.Scheduler"]')).toContain('Scheduler');
    expect(elsewhere).toEqual([]);
  });

  it('previews where a link to a page that forwards the reader at once lands', async () => {
    await open('en/latest/moved.html');
    await page.hover('main a[href="generated/lease.html"]');
    await page.locator('doclens-preview [part~="content"]').waitFor();
    expect(await page.locator('doclens-preview [part~="title"]').textContent()).toBe('lease');
    expect(elsewhere).toEqual([]);
  });

  it('previews on a first tap on a phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const tapped = await phone.newPage();
    await tapped.goto(`${files.url}/en/latest/architecture.html`);
    // The preview's code loads once the page is idle: a tap before it lands follows the link.
    await tapped.waitForFunction(() => customElements.get('doclens-preview') !== undefined);
    await tapped.locator('div[role="main"] a[href="glossary.html#term-lease"]').first().tap();
    await tapped.locator('doclens-preview [part~="content"]').waitFor();
    expect(await tapped.locator('doclens-preview [part~="title"]').textContent()).toBe('lease');
    await phone.close();
  });

  it('switches versions and languages, keeping the page', async () => {
    await open('en/latest/installation.html');
    await switchTo(page, { name: /^2\.0\b/ }, '**/en/2.0/installation.html');
    await switchTo(page, { hasText: 'Spanish' }, '**/es/latest/installation.html');
    expect(elsewhere).toEqual([]);
  });
});
