import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium unless CHROME_PATH says otherwise; never a downloaded browser. */
export function chromiumPath(): string {
  const path = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`No Chromium at ${path}: install it (apt-get install chromium) or set CHROME_PATH.`);
  return path;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // Pages a test rewrites through page.route() count as public; the demo's proxy is on loopback.
      '--disable-features=LocalNetworkAccessChecks',
    ],
  });
}

export interface RunningDemo {
  /** The first URL `doclens demo` printed: the start page of the docs. */
  url: string;
  output(): string;
  process: ChildProcessByStdio<null, Readable, Readable>;
  stop(): Promise<number | null>;
}

const checkoutCli = fileURLToPath(new URL('../../bin/doclens.js', import.meta.url));

/** Runs `doclens demo` (as `npm start` does, or `cli`: an installed package's) on free ports and waits for its first URL. */
export async function startDemo(args: string[] = [], cli = checkoutCli): Promise<RunningDemo> {
  const child = spawn(process.execPath, [cli, 'demo', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(output);
      if (match) resolve(match[0]);
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`doclens demo exited with ${code}: ${output}`)));
  });
  return {
    url,
    output: () => output,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** Opens the search with its shortcut on `page`, types `text` and resolves with the results' links. */
export async function searchByKeyboard(page: Page, text: string): Promise<string[]> {
  await page.keyboard.press('/');
  const input = page.locator('doclens-search input[role="combobox"]');
  await input.waitFor();
  await input.fill(text);
  const options = page.locator('doclens-search [role="option"]');
  await options.first().waitFor();
  return (await options.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).filter((href) => href !== null);
}

/** Tabs onto a link, as a keyboard reader reaches it, and gives the text of the preview that opens. */
export async function previewByKeyboard(page: Page, selector: string): Promise<string | null> {
  await page.locator(selector).first().focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const content = page.locator('doclens-preview [part~="content"]');
  await content.waitFor();
  return content.textContent();
}

/** Opens the version switcher, chooses an entry (by its accessible name, or by text it holds) and waits for `url`. */
export async function switchTo(page: Page, choice: { name: RegExp } | { hasText: string }, url: string): Promise<void> {
  await page.locator('doclens-versions [part~="toggle"]').click();
  const option =
    'name' in choice
      ? page.locator('doclens-versions').getByRole('menuitemradio', choice)
      : page.locator('doclens-versions [role="menuitemradio"]', choice);
  await Promise.all([page.waitForURL(url), option.click()]);
}

const ALL_FEATURES = ['doclens-search', 'doclens-preview', 'doclens-versions'];

/**
 * Opens `url` in a new page of `browser`: the widget mounts `elements` (each once, the others not; the
 * version switcher shows "latest"), and, when `search` is given, finds a result whose link matches
 * `search.found`. Only doclens' own errors count (the MkDocs theme loads highlight.js from a CDN,
 * unreachable here).
 */
export async function expectWidgetWorks(
  browser: Browser,
  url: string,
  { elements = ALL_FEATURES, search }: { elements?: string[]; search?: { text: string; found: RegExp } } = {},
): Promise<void> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => {
    if (error.stack?.includes('doclens')) errors.push(error.message);
  });
  try {
    // The switcher's page context, asked for once the widget has mounted.
    const pageContext = elements.includes('doclens-versions')
      ? page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/api/v3/page-context/'))
      : undefined;
    await page.goto(url);
    await page.waitForFunction((names) => names.every((name) => customElements.get(name)), elements);
    expect(await page.evaluate((names) => names.map((name) => document.querySelectorAll(name).length), ALL_FEATURES)).toEqual(
      ALL_FEATURES.map((name) => (elements.includes(name) ? 1 : 0)),
    );
    if (pageContext) {
      const context = (await (await pageContext).json()) as { versions?: unknown[] };
      // These sites have one version: the page context names it, and no switcher offers a choice.
      expect(context.versions?.length).toBe(1);
      await page.evaluate(
        () => (document.querySelector('doclens-versions') as { updateComplete?: Promise<boolean> } | null)?.updateComplete,
      );
      expect(await page.locator('doclens-versions [part~="toggle"]').count()).toBe(0);
    }
    if (search) expect((await searchByKeyboard(page, search.text)).some((href) => search.found.test(href))).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
}
