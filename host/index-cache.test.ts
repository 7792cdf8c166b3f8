import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'oxc-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { importsOf } from '../scripts/import-cycles.ts';
import { SearchIndex } from '../search/index.ts';
import { hashIndexer, INDEXER, IndexCache } from './index-cache.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The modules the index thread builds an index with (`index-worker.ts`: the engine and the page splitter), and all they import. */
function indexerModules(): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [here('../search/index.ts'), here('../extraction/sections.ts')];
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const { to } of importsOf(file, source)) pending.push(to);
    for (const { moduleRequest } of parseSync(file, source).module.staticImports) {
      const specifier = moduleRequest.value;
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      // A package's name: its first segment, two for a scoped one.
      packages.add(
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    }
  }
  return { files, packages };
}

describe('index cache key', () => {
  const work = mkdtempSync(join(tmpdir(), 'doclens-index-key-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('covers every module and library the index is built with', () => {
    const { files, packages } = indexerModules();
    const outside = [...files].filter((file) => !INDEXER.folders.some((folder) => !relative(folder, file).startsWith('..')));
    expect(outside).toEqual([]);
    expect(new Set(INDEXER.packages)).toEqual(packages);
  });

  it("changes when the engine's tokenizer changes, so that the index is built again", async () => {
    const copies = INDEXER.folders.map((folder, at) => {
      const copy = join(work, `copy-${at}`);
      cpSync(folder, copy, { recursive: true });
      return copy;
    });
    const indexer = { folders: copies, packages: INDEXER.packages };
    const before = await hashIndexer(indexer);
    expect(await hashIndexer(indexer)).toBe(before);
    // The words the tokenizer drops (extraction/words, which the engine's terms.ts reads).
    const stopWords = join(copies[0]!, 'words/stop-words.ts');
    writeFileSync(stopWords, readFileSync(stopWords, 'utf8').replace("'a an and are ", "'a an and are about "));
    const after = await hashIndexer(indexer);
    expect(after).not.toBe(before);
    // A saved index is loaded for the key it was built for only.
    const cache = new IndexCache(join(work, 'cache'));
    const index = new SearchIndex();
    index.finish();
    await cache.save('/docs', before, index.savedParts());
    expect(await cache.load('/docs', before)).toEqual([...index.savedParts()].map(({ json }) => json));
    expect(await cache.load('/docs', after)).toBeUndefined();
    // Told from the file's first line, before a restarted host says it is ready (see `SearchService.cacheLoaded`).
    expect(await cache.holds('/docs', before)).toBe(true);
    expect(await cache.holds('/docs', after)).toBe(false);
    expect(await cache.holds('/other-docs', before)).toBe(false);
  });

  it("changes with a library's version", async () => {
    const base = await hashIndexer({ folders: [], packages: ['stemmer'] });
    expect(await hashIndexer({ folders: [], packages: ['minisearch'] })).not.toBe(base);
  });
});
