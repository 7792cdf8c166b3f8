/**
 * The host's saved indexes, read by the suite: after a run that indexed a site (`savedByThisCode`), and by
 * `--saved` (`loadSaved`), which searches them in process in seconds instead of indexing every site
 * again after each change to `search/`, whose hash is in the index cache's key.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashIndexer, hashPages, IndexCache, INDEXER, indexKey } from '../../host/index-cache.ts';
import { contentPagesIn } from '../../host/listing.ts';
import type { Ranked } from './metrics.ts';
import type { Site } from './sites.ts';

const SEARCH = fileURLToPath(new URL('../../search/', import.meta.url));

/**
 * What a site's saved index was built by and from, written beside it when a run of the suite indexed
 * it: the cache's key for it (the file's first line), the hash of the indexer without `search/` (the
 * saved index's `FORMAT_VERSION`, `extraction/` and the libraries), of `search/`, and of the pages.
 */
interface Stamp {
  key: string;
  indexer: string;
  search: string;
  pages: string;
  /** The run's figures on each half, which `--saved` compares its own with. */
  halves: Halves;
}

/** Top-3 share and MRR of a site's tuning and held-out halves. */
export type Halves = { tuning: Ranked; heldOut: Ranked };

const figures = ({ top3, mrr }: Ranked): Ranked => ({ top3, mrr });

const stampFile = (cacheDir: string, site: Site) => join(cacheDir, `${site.slug}.stamp.json`);

async function currentStamp(root: string, files: string[], key: string, { tuning, heldOut }: Halves): Promise<Stamp> {
  return {
    key,
    halves: { tuning: figures(tuning), heldOut: figures(heldOut) },
    indexer: await hashIndexer({ folders: INDEXER.folders.filter((folder) => folder !== SEARCH), packages: INDEXER.packages }),
    search: await hashIndexer({ folders: [SEARCH], packages: [] }),
    pages: await hashPages(root, files),
  };
}

/** The parts of the index the host saved for a site's pages with this code; its stamp written for `--saved`. */
export async function savedByThisCode(cacheDir: string, site: Site, files: string[], halves: Halves): Promise<string[]> {
  const key = await indexKey(site.root, files);
  const lines = await new IndexCache(cacheDir).load(site.root, key);
  if (!lines) throw new Error(`the index cache holds no index of ${site.root} built by this code`);
  await writeFile(stampFile(cacheDir, site), JSON.stringify(await currentStamp(site.root, files, key, halves)));
  return lines;
}

export type SavedIndex =
  | { lines: string[]; searchChanged: boolean; halves: Halves; refused?: undefined }
  | { refused: string; lines?: undefined; halves?: undefined; searchChanged?: undefined };

/**
 * A site's saved index for `--saved`, refused unless a run of the suite saved it for the pages as
 * they are, with the saved index's `FORMAT_VERSION`, `extraction/` and libraries of now. Code in
 * `search/` may differ (`searchChanged`): a change there that changes what an index saves bumps
 * `FORMAT_VERSION` (docs/real-docs.md).
 */
export async function loadSaved(cacheDir: string, site: Site): Promise<SavedIndex> {
  const rerun = `run \`npm run realdocs -- --search-only ${site.slug}\` to index it again`;
  const text = await readFile(stampFile(cacheDir, site), 'utf8').catch(() => undefined);
  if (text === undefined) return { refused: `no index of ${site.slug} saved by a run of the suite: ${rerun}` };
  const saved = JSON.parse(text) as Stamp;
  const files = await contentPagesIn(site.root).catch(() => []);
  const now = await currentStamp(site.root, files, saved.key, saved.halves);
  if (now.indexer !== saved.indexer)
    return { refused: `${site.slug}'s saved index was built by another FORMAT_VERSION, extraction/ or libraries: ${rerun}` };
  if (now.pages !== saved.pages) return { refused: `${site.slug}'s pages changed since its index was saved: ${rerun}` };
  const lines = await new IndexCache(cacheDir).load(site.root, saved.key);
  if (!lines) return { refused: `${site.slug}'s saved index was replaced or removed since the suite's run: ${rerun}` };
  return { lines, searchChanged: now.search !== saved.search, halves: saved.halves };
}
