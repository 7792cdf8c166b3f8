import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../contract/index.ts';
import { startHost, type RunningHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { buildStatic } from '../../static/build.ts';
import { StaticSource } from '../../widget/shared/static-source.ts';
import { demoBuild } from '../fixtures/demo.ts';
import { serveFolders, type StaticFiles } from '../static-files.ts';

const TOKEN = 'test-token-0123456789';
const QUERIES = [
  'scheduler',
  'retry',
  'retr',
  'cron trigger',
  'job store',
  'configure logging',
  'sheduler',
  'async jobs',
  'Scheduler.job',
  'exception',
];
let work: string;
let host: RunningHost;
let files: StaticFiles;
let source: StaticSource;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'doclens-static-search-'));
  const docs = join(work, 'aurora');
  cpSync(`${demoBuild}aurora/en/latest`, docs, { recursive: true });
  host = await startHost({
    manifest: singleFolderManifest({ docs, project: 'aurora', version: 'latest', language: 'en' }),
    token: TOKEN,
    port: 0,
  });
  await host.searchComplete;
  await buildStatic({ docs });
  files = await serveFolders({ '/': docs });
  source = new StaticSource(`${files.url}/_doclens/`);
});
afterAll(async () => {
  await Promise.all([host?.close(), files?.close()]);
  rmSync(work, { recursive: true, force: true });
});

/** The pages of an answer, as paths below the version's folder, and each page's first sections with their texts. */
const pages = (answer: SearchResponse, prefix: string) =>
  answer.results.map((result) => [result.path.slice(prefix.length), result.blocks.slice(0, 3).map((block) => [block.id, block.content])]);

describe('static mode’s search', () => {
  it.each(QUERIES)('finds the top 10 pages doclens host finds, in the same order, for "%s"', async (query) => {
    const q = `project:aurora/latest ${query}`;
    const response = await fetch(`${host.apiUrl}/api/v3/search/?q=${encodeURIComponent(q)}&page_size=10`, {
      headers: { authorization: `Token ${TOKEN}` },
    });
    const hosted = (await response.json()) as SearchResponse;
    const found = await source.search({ q, page: '1', page_size: '10' });
    expect(hosted.results.length).toBeGreaterThan(0);
    expect(pages(found, '/')).toEqual(pages(hosted, '/en/latest/'));
    expect(found.count).toBe(hosted.count);
  });

  it('fetches the index’s head and the parts a query names, each once for the page’s life', async () => {
    const before = files.requests.length;
    const fresh = new StaticSource(`${files.url}/_doclens/`);
    await fresh.search({ q: 'scheduler', page: '1', page_size: '10' });
    const fetched = files.requests.slice(before).filter((path) => path.includes('/search/'));
    expect(fetched[0]).toBe('/_doclens/data/search/head.json.gz');
    expect(fetched.some((path) => /\/terms-\d+\.json\.gz$/.test(path))).toBe(true);
    expect(new Set(fetched).size).toBe(fetched.length);
    const after = files.requests.length;
    await fresh.search({ q: 'schedulers', page: '1', page_size: '10' });
    expect(files.requests.slice(after).filter((path) => path.includes('/search/'))).toEqual([]);
  });
});
