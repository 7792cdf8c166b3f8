import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseDemoArgs, startDemo, type RunningDemo } from '../cli/demo.ts';
import { demoBuild } from '../test/fixtures/demo.ts';
import { startHost, type RunningHost } from './app.ts';
import { singleFolderManifest } from './manifest.ts';
import { SearchService } from './search.ts';

const TOKEN = 'test-token-0123456789';
const work = mkdtempSync(join(tmpdir(), 'doclens-search-'));
const running: { close(): Promise<void> }[] = [];

afterAll(async () => {
  await Promise.all(running.map((server) => server.close()));
  rmSync(work, { recursive: true, force: true });
});

/** `copies` copies of the Aurora demo's pages (29 real Sphinx pages each), in folders of their own. */
function docsFolder(name: string, copies: number): string {
  const folder = join(work, name);
  for (let copy = 0; copy < copies; copy++) {
    cpSync(`${demoBuild}aurora/en/latest`, join(folder, `copy${copy}`), { recursive: true, filter: (source) => !source.includes('/_') });
  }
  return folder;
}

async function host(docs: string, indexCache?: string): Promise<RunningHost> {
  const started = await startHost({
    manifest: singleFolderManifest({ docs, project: 'aurora', version: 'latest', language: 'en' }),
    token: TOKEN,
    port: 0,
    indexCache,
  });
  running.push(started);
  return started;
}

interface SearchBody {
  count: number;
  indexing: boolean;
  results: { path: string }[];
}

async function search(started: RunningHost, q: string): Promise<SearchBody> {
  const response = await fetch(`${started.apiUrl}/api/v3/search/?q=${encodeURIComponent(q)}&page_size=100`, {
    headers: { authorization: `Token ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as SearchBody;
}

describe('indexing off the main thread', () => {
  // About 600 pages: indexing them takes seconds, a page or a search is answered in milliseconds.
  const docs = docsFolder('large', 20);

  it('serves pages and embeds at once, and answers searches with what is indexed so far, saying so', async () => {
    const started = await host(docs);
    let complete = false;
    void started.searchComplete.then(() => (complete = true));
    const page = await fetch(`${started.sites[0]!.origin}/en/latest/copy0/glossary.html`);
    expect(page.status).toBe(200);
    const embed = await fetch(
      `${started.apiUrl}/api/v3/embed/?url=${encodeURIComponent(`${started.sites[0]!.origin}/en/latest/copy0/glossary.html#term-lease`)}`,
      {
        headers: { authorization: `Token ${TOKEN}` },
      },
    );
    expect(embed.status).toBe(200);
    const partial = await search(started, 'lease');
    expect(complete).toBe(false);
    expect(partial.indexing).toBe(true);
    await started.searchComplete;
    const full = await search(started, 'lease');
    expect(full.indexing).toBe(false);
    // Every copy of the glossary has the term.
    expect(full.results.filter((result) => result.path.endsWith('/glossary.html'))).toHaveLength(20);
    expect(full.count).toBeGreaterThan(partial.count);
  });

  it('passes the partial answer through the proxy without keeping it', async () => {
    const demo: RunningDemo = await startDemo(
      parseDemoArgs(['--docs', docs, '--project', 'aurora', '--port', '0', '--index-cache', join(work, 'demo-cache')]),
    );
    running.push(demo);
    const ask = async () => (await (await fetch(`${demo.proxyUrl}/api/v3/search/?q=lease`)).json()) as SearchBody;
    const partial = await ask();
    expect(partial.indexing).toBe(true);
    await demo.host.searchComplete;
    const full = await ask();
    expect(full, JSON.stringify(full).slice(0, 300)).toMatchObject({ indexing: false });
    expect(full.count).toBeGreaterThan(partial.count);
  });
});

describe('the first search', () => {
  it('finds the query path warm: a real search ran through it before "search complete"', async () => {
    const results = vi.spyOn(SearchService.prototype, 'resultV3');
    try {
      const started = await host(docsFolder('warm', 1));
      await started.searchComplete;
      expect(results).toHaveBeenCalled();
    } finally {
      results.mockRestore();
    }
  });
});

describe('the index cache', () => {
  const docs = docsFolder('cached', 1);
  const cache = join(work, 'cache');

  // Three hosts one after the other, each starting its index threads: slow on a busy machine.
  it('loads an unchanged version from the cache and indexes it again after a page changes', { timeout: 90_000 }, async () => {
    const first = await host(docs, cache);
    expect(await first.searchComplete).toMatchObject({ versions: 1, cached: 0 });
    await first.close();
    expect(readdirSync(cache)).toHaveLength(1);

    const again = await host(docs, cache);
    // Loaded before the host says it is ready: its first search is answered in full, at once.
    const complete = await Promise.race([again.searchComplete, Promise.resolve(undefined)]);
    expect(complete).toMatchObject({ versions: 1, cached: 1 });
    expect((await search(again, 'lease')).count).toBeGreaterThan(0);
    await again.close();

    const faq = join(docs, 'copy0/faq.html');
    writeFileSync(faq, readFileSync(faq, 'utf8').replace('</h1>', '</h1><p>Quokkas are welcome here.</p>'));
    const changed = await host(docs, cache);
    expect(await changed.searchComplete).toMatchObject({ versions: 1, cached: 0 });
    expect((await search(changed, 'quokkas')).results.map((result) => result.path)).toEqual(['/en/latest/copy0/faq.html']);
  });
});
