import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexCache, indexKey } from '../../host/index-cache.ts';
import { loadSaved, savedByThisCode } from './saved-indexes.ts';
import type { Site } from './sites.ts';

// `--saved` searches the indexes a run of the suite saved, only those it can trust.
describe('loadSaved', () => {
  let folder: string;
  let site: Site;
  const cache = () => join(folder, 'cache');
  const parts = [{ name: 'head', json: '{"part":"head"}' }];
  const halves = { tuning: { top3: 1, mrr: 0.9 }, heldOut: { top3: 0.8, mrr: 0.75 } };

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'realdocs-saved-'));
    site = { slug: 'site', name: 'Site', generator: 'sphinx', theme: 'alabaster', root: join(folder, 'html'), prepare: () => {} };
    mkdirSync(site.root);
    writeFileSync(join(site.root, 'index.html'), '<h1>Index</h1>');
    await new IndexCache(cache()).save(site.root, await indexKey(site.root, ['index.html']), parts);
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('gives the parts and the figures a run saved, and refuses a site no run stamped or whose pages changed since', async () => {
    expect((await loadSaved(cache(), site)).refused).toMatch(/no index of site saved by a run of the suite: run `npm run realdocs/);
    await savedByThisCode(cache(), site, ['index.html'], halves);
    expect(await loadSaved(cache(), site)).toEqual({ lines: [parts[0]!.json], searchChanged: false, halves });
    utimesSync(join(site.root, 'index.html'), new Date(), new Date(Date.now() + 60_000));
    expect((await loadSaved(cache(), site)).refused).toMatch(/site's pages changed since its index was saved/);
  });

  it('refuses an index the cache replaced after the run', async () => {
    await savedByThisCode(cache(), site, ['index.html'], halves);
    await new IndexCache(cache()).save(site.root, 'another key', parts);
    expect((await loadSaved(cache(), site)).refused).toMatch(/saved index was replaced or removed/);
  });
});
