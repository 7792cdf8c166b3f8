import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { splitSections } from '../extraction/sections.ts';
import { demoPage } from '../test/fixtures/demo.ts';

describe('the search engine', () => {
  it("runs where neither Node's nor the DOM's globals are: bundled for a browser, in a bare context", async () => {
    const { outputFiles } = await build({
      entryPoints: [new URL('./index.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'engine',
      write: false,
      logLevel: 'silent',
    });
    const bundle = outputFiles[0]!.text;
    const pages = ['index.html', 'tutorial/retries.html', 'glossary.html'].map((path) => ({
      path,
      page: splitSections(demoPage(`aurora/en/latest/${path}`), path),
    }));
    // JSON in, JSON out: nothing of this realm (no process, Buffer, window or document) reaches the bundle.
    const found = runInNewContext(
      `${bundle}
      const index = new engine.SearchIndex();
      for (const { path, page } of JSON.parse(pages)) index.addPage(path, page);
      index.finish();
      const loaded = new engine.SearchIndex();
      for (const part of index.savedParts()) loaded.addPart(part.json);
      JSON.stringify(loaded.search('retry polcy').map((hit) => hit.path));`,
      { pages: JSON.stringify(pages) },
    ) as string;
    expect(JSON.parse(found)[0]).toBe('tutorial/retries.html');
  });
});
