import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

// The pages of a folder of built HTML, apart from the parser (`pages.ts`): `doclens build`'s main thread
// lists a site before its page threads start and never parses a page itself.

/** Generated pages with no content of their own: never search results. */
const NON_CONTENT_PAGES = new Set(['genindex.html', 'search.html', 'py-modindex.html', '404.html', 'search/index.html']);

/**
 * The HTML files below `folder`, relative to `root`: folders named `_…` or `.…` left out (themes' assets, doclens' own
 * files), and hidden files; pages named `_…` are pages (fontTools' `tables/_g_l_y_f.html`, one per font table).
 */
export async function listHtml(root: string, folder = root): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const pages: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('_')) pages.push(...(await listHtml(root, path)));
    } else if (entry.isFile() && entry.name.endsWith('.html')) pages.push(relative(root, path).split(sep).join('/'));
  }
  return pages;
}

/** The content pages of a folder of built HTML (what the host indexes), relative to it, sorted. */
export async function contentPagesIn(root: string): Promise<string[]> {
  return (await listHtml(root)).filter((page) => !NON_CONTENT_PAGES.has(page)).sort();
}
