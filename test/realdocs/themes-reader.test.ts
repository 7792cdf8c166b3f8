import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDemoArgs, startDemo, type RunningDemo } from '../../cli/demo.ts';
import { launchChromium } from '../e2e/browser.ts';
import { keysAndAxe } from './themes-reader.ts';

const REAL_DOCS = fileURLToPath(new URL('../fixtures/real-docs/', import.meta.url));

// The themes reader's Tab check on pages cut from real sites, served by `doclens demo --docs` in process.
describe('keysAndAxe', () => {
  let browser: Browser;
  let demo: RunningDemo;
  let cache: string;
  beforeAll(async () => {
    cache = await mkdtemp(join(tmpdir(), 'doclens-themes-reader-'));
    demo = await startDemo(parseDemoArgs(['--docs', REAL_DOCS, '--project', 'real-docs', '--port', '0', '--index-cache', cache]));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await rm(cache, { recursive: true, force: true });
  });

  it("counts Tab presses from the page's first previewed link when the sampled one is its last (statsmodels' See also)", async () => {
    const root = demo.pages[0]!.url;
    const from = 'statsmodels/generated/statsmodels.tsa.seasonal.seasonal_decompose.html';
    const target = 'statsmodels/generated/statsmodels.tsa.seasonal.STL.html';
    const link = { from, url: `${new URL(target, root).href}#statsmodels.tsa.seasonal.STL`, target };
    const [tabs] = await keysAndAxe(browser, link, root, 'seasonal');
    expect(tabs!.point).toBe(6);
    expect(tabs!.figure).toBe('1, 1, 1, 1, 1');
    expect(tabs!.passed).toBe(true);
  });
});
