import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf } from '../../scripts/import-cycles.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The modules a folder's code imports (its tests aside), by their paths in the repository. */
function importsFrom(folder: string): { from: string; to: string }[] {
  const files = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !/\.(node-)?test\.ts$/.test(file) && !file.includes('fixtures'),
  );
  return files.flatMap((file) => {
    const path = join(root, folder, file);
    return importsOf(path, readFileSync(path, 'utf8')).map((edge) => ({ from: relative(root, path), to: relative(root, edge.to) }));
  });
}

/** What each layer may not import: the ones above it or beside it. */
const FORBIDDEN: Record<string, string[]> = {
  'host/': ['proxy/', 'widget/', 'cli/'],
  'proxy/': ['host/', 'widget/', 'cli/'],
  'static/': ['proxy/', 'widget/', 'cli/'],
  'search/': ['proxy/', 'host/', 'static/', 'widget/', 'cli/'],
  'extraction/': ['proxy/', 'host/', 'static/', 'widget/', 'cli/'],
  'versions/': ['proxy/', 'host/', 'static/', 'widget/', 'cli/', 'extraction/'],
  'contract/': ['proxy/', 'host/', 'widget/', 'cli/', 'extraction/'],
  'runtime/': ['proxy/', 'host/', 'widget/', 'cli/', 'extraction/'],
};

describe('the layers', () => {
  it.each(Object.entries(FORBIDDEN))('%s imports nothing of %j', (layer, forbidden) => {
    const crossing = importsFrom(layer).filter(({ to }) => forbidden.some((folder) => to.startsWith(folder)));
    expect(crossing).toEqual([]);
  });
});

/** The modules a module loads as it runs, itself included: its imports that are not type-only, and theirs. */
function loadedBy(module: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const edge of importsOf(path, readFileSync(path, 'utf8'))) if (!edge.typeOnly) visit(edge.to);
  };
  visit(join(root, module));
  return new Set([...loaded].map((path) => relative(root, path)));
}

describe('doclens build', () => {
  it('loads no HTML parser in its main thread, which starts the page threads that parse only once its code is loaded', () => {
    const loaded = loadedBy('static/build.ts');
    expect(loaded).toContain('static/page-pool.ts');
    expect(loaded).not.toContain('extraction/html/parse.ts');
  });
});
