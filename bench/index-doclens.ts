/**
 * Indexes one folder of documentation as the docs host does (worker threads, then the index cache)
 * and prints its figures as one line of JSON. `bench/index.ts` runs it in a fresh process per round,
 * so that its memory figures are the index's alone.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { IndexCache } from '../host/index-cache.ts';
import { startHost } from '../host/app.ts';
import { singleFolderManifest } from '../host/manifest.ts';
import { PageStore } from '../host/pages.ts';
import { Registry } from '../host/registry.ts';
import { SearchService } from '../host/search.ts';
import { fullCollection } from '../proxy/upstream/forced-gc.ts';
import { SUITE_QUERIES } from './suite-queries.ts';

const collectGarbage = fullCollection();

export interface DoclensIndexFigures {
  pages: number;
  sections: number;
  /** Until the host says search is complete. */
  indexMs: number;
  /** Processor time of every thread of the process while indexing (on a busy machine, steadier than the time). */
  cpuMs: number;
  bytesOnDisk: number;
  /** Resident memory at rest after indexing and searching (the host running, its index in its thread) minus before. */
  residentBytes: number;
  /** Peak resident memory until the host says search is complete: indexing alone. */
  peakIndexingBytes: number;
  /** Peak resident memory over the whole round: indexing, the searches, the restart. */
  peakResidentBytes: number;
  /**
   * Search latencies over HTTP, sorted, in milliseconds: every suite query from "search complete" on
   * (the first answer included), then again.
   */
  searchMs: number[];
  /** A restart: the index loaded from the cache. */
  reloadMs: number;
}

/**
 * Resident memory once the process is at rest: V8 gives back the heap that indexing grew a few
 * seconds after the last allocations, stopped threads theirs once their exit is handled.
 */
async function residentAtRest(): Promise<number> {
  let resident = Number.POSITIVE_INFINITY;
  for (let second = 0; second < 15; second++) {
    await delay(1000);
    collectGarbage();
    const now = process.memoryUsage().rss;
    if (now >= resident - 1024 * 1024 && second >= 5) return Math.min(now, resident);
    resident = Math.min(now, resident);
  }
  return resident;
}

const [docs, cacheDir] = process.argv.slice(2);
if (!docs || !cacheDir) throw new Error('usage: index-doclens.ts DOCS CACHE_DIR');

const token = 'bench-token-0123456789';
const manifest = singleFolderManifest({ docs, project: 'bench', version: 'latest', language: 'en' });

/** One search over HTTP, as the proxy asks the host: milliseconds until the whole answer is read. */
async function timedSearch(apiUrl: string, query: string): Promise<number> {
  const begin = performance.now();
  const params = new URLSearchParams({ q: `project:bench/latest ${query}`, page_size: '10' });
  const response = await fetch(`${apiUrl}/api/v3/search/?${params}`, { headers: { authorization: `Token ${token}` } });
  if (!response.ok) throw new Error(`search "${query}" answered ${response.status}`);
  await response.arrayBuffer();
  return performance.now() - begin;
}

collectGarbage();
const residentBefore = process.memoryUsage().rss;
const cpuBefore = process.cpuUsage();
const host = await startHost({ manifest, token, port: 0, indexCache: cacheDir });
const version = host.registry.projects[0]!.versions[0]!;
const { seconds } = await host.searchComplete;
const indexMs = seconds * 1000;
const peakIndexingBytes = process.resourceUsage().maxRSS * 1024;
// Every query of the suite right after "search complete", the first answer included: no warm-up round.
const searchMs: number[] = [];
for (const query of SUITE_QUERIES) searchMs.push(await timedSearch(host.apiUrl, query));
const cpu = process.cpuUsage(cpuBefore);
// A second round, once the index is saved in the cache.
for (const query of SUITE_QUERIES) searchMs.push(await timedSearch(host.apiUrl, query));
const { size } = await host.search.index(version);
const residentBytes = (await residentAtRest()) - residentBefore;
await host.close();

const registry = new Registry(manifest);
const restarted = new SearchService(registry, new PageStore(), new IndexCache(cacheDir));
const reloadStart = performance.now();
await restarted.index(registry.projects[0]!.versions[0]!);
const reloadMs = performance.now() - reloadStart;
await restarted.close();

const figures: DoclensIndexFigures = {
  ...size,
  indexMs,
  cpuMs: (cpu.user + cpu.system) / 1000,
  bytesOnDisk: readdirSync(cacheDir).reduce((sum, name) => sum + statSync(join(cacheDir, name)).size, 0),
  residentBytes,
  peakIndexingBytes,
  peakResidentBytes: process.resourceUsage().maxRSS * 1024,
  searchMs: searchMs.sort((a, b) => a - b),
  reloadMs,
};
console.log(JSON.stringify(figures));
