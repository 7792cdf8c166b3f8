import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, startDemo } from '../test/e2e/browser.ts';
import { builtFiles, firstLoadFiles, sentSize } from '../test/fixtures/widget-files.ts';
import { ms, percentile, table } from './stats.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** The built widget (`npm run build` first): the loaders, what the module loader imports at once, and every chunk. */
function bundleSizes(): [string, string, string][] {
  const initial = firstLoadFiles();
  const all = builtFiles();
  const sum = (names: string[]) => names.reduce((total, name) => total + sentSize(name), 0);
  return [
    ['first load: doclens.js and its static imports', initial.join(', '), `${kb(sum(initial))} (target ≤ 15 KB)`],
    ['classic tag adds doclens.iife.js', '', kb(sentSize('doclens.iife.js'))],
    ['everything, once every feature is used', `${all.length} files`, kb(sum(all))],
  ];
}

/** What each part contributes to the minified bundle (esbuild's account of the same entry point). */
async function bundleShares(): Promise<[string, string, string][]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../widget/loader/doclens.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
    define: { __DOCLENS_VERSION__: '"0"' },
    conditions: ['production'],
  });
  const shares = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const part = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(file)?.[1] ?? /widget\/([^/]+)\//.exec(file)?.[1] ?? file;
      const name = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element'].includes(part) ? 'Lit' : part;
      shares.set(name, (shares.get(name) ?? 0) + bytesInOutput);
    }
  }
  const total = [...shares.values()].reduce((sum, bytes) => sum + bytes, 0);
  return [...shares].sort(([, a], [, b]) => b - a).map(([name, bytes]) => [name, kb(bytes), `${((bytes / total) * 100).toFixed(0)}%`]);
}

/** Milliseconds from the last keystroke to painted results, in the page's own clock. */
async function typeAndTime(page: Page, words: string): Promise<number> {
  await page.evaluate(() => {
    const search = document.querySelector('doclens-search')!;
    const input = search.querySelector('input[role="combobox"]')!;
    const timing = { lastInput: 0, painted: 0 };
    (window as unknown as { timing: typeof timing }).timing = timing;
    input.addEventListener('input', () => {
      timing.lastInput = performance.now();
      timing.painted = 0;
    });
    new MutationObserver(() => {
      const ready = input.getAttribute('aria-busy') === 'false' && search.shadowRoot!.querySelector('[role="option"]');
      if (ready && timing.lastInput && !timing.painted) requestAnimationFrame(() => (timing.painted ||= performance.now()));
    }).observe(search.shadowRoot!, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.keyboard.type(words, { delay: 30 });
  await page.waitForFunction(() => (window as unknown as { timing: { painted: number } }).timing.painted > 0);
  return page.evaluate(() => {
    const { timing } = window as unknown as { timing: { lastInput: number; painted: number } };
    return timing.painted - timing.lastInput;
  });
}

/** Milliseconds from the end of the hover delay (the show event) to the painted preview. */
async function hoverAndTime(page: Page, selector: string): Promise<number> {
  await page.evaluate(() => {
    const preview = document.querySelector('doclens-preview')!;
    const timing = { shown: 0, painted: 0 };
    (window as unknown as { previewTiming: typeof timing }).previewTiming = timing;
    preview.addEventListener('doclens-preview-show', () => (timing.shown = performance.now()), { once: true });
    new MutationObserver((_, observer) => {
      if (timing.shown && preview.shadowRoot!.querySelector('[part~="content"]')) {
        observer.disconnect();
        requestAnimationFrame(() => (timing.painted = performance.now()));
      }
    }).observe(preview.shadowRoot!, { subtree: true, childList: true });
  });
  await page.hover(selector);
  await page.waitForFunction(() => (window as unknown as { previewTiming: { painted: number } }).previewTiming.painted > 0);
  const elapsed = await page.evaluate(() => {
    const { previewTiming } = window as unknown as { previewTiming: { shown: number; painted: number } };
    return previewTiming.painted - previewTiming.shown;
  });
  await page.mouse.move(5, 790);
  await page.locator('doclens-preview [part~="popup"]:not(:popover-open)').waitFor({ state: 'attached' });
  await page.waitForTimeout(300);
  return elapsed;
}

interface HotkeyTiming {
  key: number;
  painted: number;
}

/** Serves the demo's pages without their doclens tag. */
async function stripDoclensTag(tab: Page, docs: (path: string) => string): Promise<void> {
  await tab.route(docs('**'), async (route) => {
    const response = await route.fetch();
    if (!(response.headers()['content-type'] ?? '').includes('text/html')) return route.fulfill({ response });
    await route.fulfill({
      response,
      body: (await response.text()).replace(/<script type="module" src="[^"]*doclens\.js"[^>]*><\/script>/, ''),
    });
  });
}

/**
 * Milliseconds from the search shortcut to the dialog painted with its field focused, on a cold cache
 * (a new browser context) with the dialog's code not loaded yet: the tag is added to a loaded page and
 * the key sent the moment the loader has run, before the browser is idle and fetches the code itself.
 * `cold` is false when the code was asked for before the key.
 */
async function hotkeyToDialog(browser: Browser, docs: (path: string) => string, proxy: string): Promise<{ ms: number; cold: boolean }> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await stripDoclensTag(tab, docs);
    await tab.goto(docs('architecture.html'), { waitUntil: 'load' });
    await tab.evaluate((proxyUrl) => {
      const timing = { key: 0, painted: 0 };
      (window as unknown as { hotkeyTiming: HotkeyTiming }).hotkeyTiming = timing;
      document.addEventListener(
        'focusin',
        (event) => {
          if ((event.target as Element).matches('doclens-search input'))
            requestAnimationFrame(() => (timing.painted ||= performance.now()));
        },
        { capture: true },
      );
      const tag = document.createElement('script');
      tag.type = 'module';
      tag.src = `${proxyUrl}/doclens.js`;
      tag.dataset.proxy = proxyUrl;
      tag.addEventListener('load', () => {
        timing.key = performance.now();
        window.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true, cancelable: true }));
      });
      document.head.append(tag);
    }, proxy);
    await tab.waitForFunction(() => (window as unknown as { hotkeyTiming: HotkeyTiming }).hotkeyTiming.painted > 0);
    return await tab.evaluate(() => {
      const timing = (window as unknown as { hotkeyTiming: HotkeyTiming }).hotkeyTiming;
      const searchCode = performance.getEntriesByType('resource').find((entry) => /\/doclens-search-[\w-]+\.js$/.test(entry.name));
      return { ms: timing.painted - timing.key, cold: !!searchCode && searchCode.startTime >= timing.key };
    });
  } finally {
    await context.close();
  }
}

/** In Chromium on the demo: search and preview latency, payload sizes, and what the loader costs the page. */
export async function benchWidget(): Promise<void> {
  table('Widget code, gzip -9 (until the load event only the first load; the rest on first use or when idle)', [
    ['what', 'files', 'gzip'],
    ...bundleSizes(),
  ]);
  table('Share of all the minified widget code by part (widget folder or package)', [
    ['part', 'minified', 'share'],
    ...(await bundleShares()),
  ]);
  const demo = await startDemo();
  const browser = await launchChromium();
  try {
    const docs = (path: string) => new URL(path, demo.url).href;
    const proxy = /doclens proxy\s+(http:\/\/127\.0\.0\.1:\d+)\/healthz/.exec(demo.output())![1]!;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const queries = ['scheduler', 'retry policy', 'lease', 'worker', 'configuration', 'trigger', 'store', 'timezone'];
    const cold: number[] = [];
    const warm: number[] = [];
    for (const pass of [cold, warm]) {
      for (const words of queries) {
        await page.goto(docs('quickstart.html'));
        await page.keyboard.press('/');
        await page.locator('doclens-search input[role="combobox"]').waitFor();
        pass.push(await typeAndTime(page, words));
      }
    }
    const debounce = 150;
    table('Search: last keystroke to painted results (debounce 150 ms included; proxy cache cold, then warm)', [
      ['cache', 'p50', 'max', 'after the debounce (target < 50 ms warm)'],
      ['cold', ms(median(cold)), ms(Math.max(...cold)), ms(median(cold) - debounce)],
      ['warm', ms(median(warm)), ms(Math.max(...warm)), ms(median(warm) - debounce)],
    ]);

    await page.goto(docs('quickstart.html'));
    const links = await page.$$eval('div[role="main"] p a.reference.internal:not([href^="#"])', (anchors) =>
      [...new Set(anchors.map((anchor) => anchor.getAttribute('href')!))].slice(0, 8),
    );
    const previewCold: number[] = [];
    const previewWarm: number[] = [];
    for (const href of links) previewCold.push(await hoverAndTime(page, `div[role="main"] a[href="${href}"] >> nth=0`));
    for (const href of links) previewWarm.push(await hoverAndTime(page, `div[role="main"] a[href="${href}"] >> nth=0`));
    const sizes = await Promise.all(
      links.map(async (href) => {
        const url = encodeURIComponent(new URL(href, docs('quickstart.html')).href);
        const [preview, full] = await Promise.all(
          ['&form=preview', ''].map(
            async (form) => (await (await fetch(`${proxy}/api/v3/embed/?url=${url}&doctool=sphinx${form}`)).arrayBuffer()).byteLength,
          ),
        );
        return { preview: preview!, full: full! };
      }),
    );
    const total = (key: 'preview' | 'full') => sizes.reduce((sum, size) => sum + size[key], 0) / sizes.length;
    table(`Previews: end of the hover delay to painted tooltip (${links.length} links on the demo)`, [
      ['case', 'p50', 'max', 'target'],
      ['cold (first hover, proxy cold)', ms(median(previewCold)), ms(Math.max(...previewCold)), '< 100 ms'],
      ['warm (hovered before)', ms(median(previewWarm)), ms(Math.max(...previewWarm)), '< 16 ms'],
      ['bytes per preview vs full embed', `${kb(total('preview'))} vs ${kb(total('full'))}`, '', ''],
    ]);

    const withTag: number[] = [];
    const withoutTag: number[] = [];
    const load = async (strip: boolean) => {
      const context = await browser.newContext();
      const tab = await context.newPage();
      if (strip) await stripDoclensTag(tab, docs);
      else await tab.route(docs('**'), (route) => route.fallback());
      await tab.goto(docs('architecture.html'), { waitUntil: 'load' });
      const loadEvent = await tab.evaluate(
        () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart,
      );
      await context.close();
      return loadEvent;
    };
    for (let round = 0; round < 20; round++) {
      withoutTag.push(await load(true));
      withTag.push(await load(false));
    }
    const opened: number[] = [];
    let coldRuns = 0;
    for (let round = 0; round < 10; round++) {
      const { ms: elapsed, cold } = await hotkeyToDialog(browser, docs, proxy);
      opened.push(elapsed);
      if (cold) coldRuns++;
    }
    table(
      'Search shortcut to an open, focused dialog, on a cold cache with its code fetched on the key ' +
        '(10 new browser contexts, the tag added to a loaded page)',
      [
        ['runs with the code fetched on the key', 'p50', 'max', 'target'],
        [`${coldRuns} of ${opened.length}`, ms(median(opened)), ms(Math.max(...opened)), '< 100 ms'],
      ],
    );

    table('Loader: time to the page load event, with and without the tag (20 loads each, alternating)', [
      ['page', 'load event p50', 'target'],
      ['without doclens', ms(median(withoutTag)), ''],
      ['with doclens', ms(median(withTag)), `adds ${ms(median(withTag) - median(withoutTag))} (target: none)`],
    ]);
  } finally {
    await browser.close();
    await demo.stop();
  }
}
