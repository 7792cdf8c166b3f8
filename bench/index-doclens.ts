/**
 * Indexes one folder of documentation as the docs host does (worker threads, then the index cache)
 * and prints its figures as one line of JSON. `bench/index.ts` runs it in a fresh process per round,
 * so that its memory figures are the index's alone.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { IndexCache } from '../host/index-cache.ts';
import { singleFolderManifest } from '../host/manifest.ts';
import { PageStore } from '../host/pages.ts';
import { Registry } from '../host/registry.ts';
import { SearchService } from '../host/search.ts';
import { fullCollection } from '../proxy/upstream/forced-gc.ts';
import { DJANGO_QUERIES, SEARCH_ROUNDS } from './django-queries.ts';

const collectGarbage = fullCollection();

export interface DoclensIndexFigures {
  pages: number;
  sections: number;
  /** Until searches are complete (answered by the thread that built the index). */
  indexMs: number;
  /** Until the main thread holds the index (it searches without the thread from then on). */
  loadedMs: number;
  /** Processor time of every thread of the process while indexing (on a busy machine, steadier than the time). */
  cpuMs: number;
  bytesOnDisk: number;
  /** Resident memory at rest after indexing (threads stopped, garbage collected) minus before. */
  residentBytes: number;
  peakResidentBytes: number;
  /** In-process search latencies, sorted, in milliseconds. */
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

const registry = new Registry(singleFolderManifest({ docs, project: 'bench', version: 'latest', language: 'en' }));
const version = registry.projects[0]!.versions[0]!;
const cache = new IndexCache(cacheDir);

collectGarbage();
const residentBefore = process.memoryUsage().rss;
const service = new SearchService(registry, new PageStore(), cache);
const start = performance.now();
const cpuBefore = process.cpuUsage();
await service.warm();
const indexMs = performance.now() - start;
const index = await service.index(version);
const loadedMs = performance.now() - start;
const cpu = process.cpuUsage(cpuBefore);
await service.close();
const residentBytes = (await residentAtRest()) - residentBefore;

const searchMs: number[] = [];
// The first round only warms the code up.
for (let round = 0; round <= SEARCH_ROUNDS; round++) {
  for (const query of DJANGO_QUERIES) {
    const begin = performance.now();
    index.search(query);
    if (round > 0) searchMs.push(performance.now() - begin);
  }
}

const restarted = new SearchService(registry, new PageStore(), cache);
const reloadStart = performance.now();
await restarted.index(version);
const reloadMs = performance.now() - reloadStart;
await restarted.close();

const figures: DoclensIndexFigures = {
  ...index.size,
  indexMs,
  loadedMs,
  cpuMs: (cpu.user + cpu.system) / 1000,
  bytesOnDisk: readdirSync(cacheDir).reduce((sum, name) => sum + statSync(join(cacheDir, name)).size, 0),
  residentBytes,
  peakResidentBytes: process.resourceUsage().maxRSS * 1024,
  searchMs: searchMs.sort((a, b) => a - b),
  reloadMs,
};
console.log(JSON.stringify(figures));
