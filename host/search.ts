import { setTimeout as delay } from 'node:timers/promises';
import { indexKey, type IndexCache } from './index-cache.ts';
import { IndexPool } from './index-pool.ts';
import type { PageStore } from './pages.ts';
import type { Project, Registry, Version } from './registry.ts';
import type { PageHit } from '../search/index.ts';
import { pageUrlPath, resultBlocks, titleHighlights } from '../search/results.ts';

/** A page hit together with the version it was found in. */
export interface VersionedHit {
  version: Version;
  hit: PageHit;
}

/**
 * What a search found: the best hits (as many as asked for), how many there are in all, and whether
 * some version it covers is still being indexed (then the hits are what is indexed so far).
 */
export interface SearchAnswer {
  hits: VersionedHit[];
  count: number;
  indexing: boolean;
}

/** How long a search waits for its version's index before answering with what is indexed so far. */
const PARTIAL_AFTER_MS = 500;
/** Longest the host waits for the indexes the cache holds before it says it is ready (see `cacheLoaded`). */
const CACHE_LOAD_WAIT_MS = 5000;
/** Results of the search that warms the query path (see `warmQueryPath`): a page of them, as readers ask. */
const WARM_UP_RESULTS = 10;

/** What the index threads were handed for a version: promises of it being searchable in full and saved. */
interface Indexing {
  /** Whether the index cache held the version's index when it was handed over. */
  inCache: boolean;
  ready: Promise<{ cached: boolean }>;
  saved: Promise<void>;
}

/** What a version's complete index holds (the benchmarks and the real-docs suite report it). */
export interface IndexContents {
  size: { pages: number; sections: number };
  pageTitles(): Map<string, string>;
}

class VersionState {
  /** Whether it came from the index cache. */
  cached = false;
  /** Whether the index threads have the version (its pages are listed first). */
  handedOver = false;
  /**
   * Settles once searches of the version are complete if the cache held its index (with true), else
   * once it is handed over (with false).
   */
  readonly loaded: Promise<boolean>;
  /** Whether searches of the version are complete. */
  isComplete = false;
  /** Settles once searches of the version are complete. */
  readonly complete: Promise<void>;
  /** Settles once the index cache holds the version (at once without a cache). */
  readonly saved: Promise<void>;

  constructor(indexing: Promise<Indexing>) {
    void indexing.then(
      () => (this.handedOver = true),
      () => {},
    );
    this.complete = indexing
      .then(({ ready }) => ready)
      .then(({ cached }) => {
        this.cached = cached;
        this.isComplete = true;
      });
    this.saved = indexing.then(({ saved }) => saved);
    this.loaded = indexing.then(({ inCache }) => (inCache ? this.complete.then(() => true) : false));
    // Failures reach whoever waits; nobody need wait.
    this.complete.catch(() => {});
    this.loaded.catch(() => {});
    this.saved.catch(() => {});
  }
}

/**
 * Indexes each version on first use (the default versions at start), in worker threads or from the
 * index cache, and searches across versions. The indexes stay in the thread that built or loaded
 * them, which answers their searches (see `index-worker.ts`): the main thread only asks.
 */
export class SearchService {
  private readonly states = new Map<Version, VersionState>();
  private readonly pool = new IndexPool();
  /** Settles once a search warmed the query path (see `warmQueryPath`): once, by a restart's or the first complete index. */
  private queryPathWarmed: Promise<void> | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly pages: PageStore,
    /** Where indexes are kept across restarts; none when undefined. */
    private readonly cache?: IndexCache,
  ) {}

  /** What the version's complete index holds, once it is complete. */
  async index(version: Version): Promise<IndexContents> {
    await this.state(version).complete;
    const summary = version.root ? await this.pool.summary(version.id) : undefined;
    if (version.root && !summary) throw new Error('the index threads were stopped');
    const titles = new Map(summary?.titles);
    return { size: { pages: summary?.pages ?? 0, sections: summary?.sections ?? 0 }, pageTitles: () => new Map(titles) };
  }

  private state(version: Version): VersionState {
    let state = this.states.get(version);
    if (!state) {
      state = new VersionState(this.startIndexing(version));
      this.states.set(version, state);
    }
    return state;
  }

  private async startIndexing(version: Version): Promise<Indexing> {
    const root = version.root;
    if (!root) return { inCache: false, ready: Promise.resolve({ cached: false }), saved: Promise.resolve() };
    const files = await this.pages.contentPages(version);
    const cache = this.cache;
    const entry = cache ? { dir: cache.dir, key: await indexKey(root, files) } : undefined;
    const inCache = cache && entry ? await cache.holds(root, entry.key) : false;
    const indexing = { inCache, ...this.pool.index(version.id, root, files, entry) };
    indexing.saved.catch((error: unknown) => {
      // Without a cache nothing was to be saved: a failure here is the indexing's own, reported with it.
      if (!cache) return;
      console.error(
        `doclens host: the search index could not be saved in ${cache?.dir}: ${error instanceof Error ? error.message : error}`,
      );
    });
    return indexing;
  }

  /**
   * Indexes every version a search can cover (active and built) now, the default versions first, so
   * that searches are complete soon after start; says how many indexes came from the cache.
   */
  async warm(): Promise<{ versions: number; cached: number }> {
    const versions = this.searchable();
    await Promise.all(versions.map((version) => this.state(version).complete));
    await this.warmQueryPath(versions[0]);
    return { versions: versions.length, cached: versions.filter((version) => this.state(version).cached).length };
  }

  /**
   * Settles once the indexes the cache holds of those versions are loaded and the query path is warm
   * (see `warmQueryPath`), or after `CACHE_LOAD_WAIT_MS`:
   * a restarted host that waits for it before saying it is ready answers complete results from its first
   * search, rather than making that search wait for the load.
   */
  async cacheLoaded(): Promise<void> {
    const versions = this.searchable();
    const loaded = Promise.all(versions.map((version) => this.state(version).loaded)).then(async ([first]) => {
      if (first) await this.warmQueryPath(versions[0]);
    });
    // A failure is reported by `warm`.
    await Promise.race([loaded.catch(() => {}), delay(CACHE_LOAD_WAIT_MS, undefined, { ref: false })]);
  }

  /**
   * One real search (of the version's first page title) through this thread's part of the query path,
   * the results and their highlights: the first run compiles that code, which made a reader's first
   * search several times slower than the next (the index thread warms its own part, `index-worker.ts`).
   */
  private warmQueryPath(version: Version | undefined): Promise<void> {
    this.queryPathWarmed ??= this.warmUpSearch(version);
    return this.queryPathWarmed;
  }

  private async warmUpSearch(version: Version | undefined): Promise<void> {
    if (!version) return;
    const [title] = (await this.index(version)).pageTitles().values();
    if (title) for (const found of (await this.search([version], title, WARM_UP_RESULTS)).hits) this.resultV3(found);
  }

  /** The versions a search can cover (active and built), the default versions first. */
  private searchable(): Version[] {
    const defaults = new Set(this.registry.projects.map(defaultVersionOf));
    return this.registry.projects
      .flatMap((project) => project.versions)
      .filter((version) => version.active && version.root !== undefined)
      .sort((a, b) => Number(defaults.has(b)) - Number(defaults.has(a)));
  }

  /** The `limit` best hits across `versions`, and how many there are. */
  async search(versions: Version[], text: string, limit: number): Promise<SearchAnswer> {
    const found = await Promise.all(versions.map((version) => this.searchVersion(version, text, limit)));
    const hits = found.flatMap(({ hits }, index) => hits.map((hit) => ({ version: versions[index]!, hit })));
    return {
      hits: hits.sort((a, b) => b.hit.score - a.hit.score).slice(0, limit),
      count: found.reduce((sum, { count }) => sum + count, 0),
      indexing: found.some(({ partial }) => partial),
    };
  }

  private async searchVersion(
    version: Version,
    text: string,
    limit: number,
  ): Promise<{ hits: PageHit[]; count: number; partial: boolean }> {
    if (!version.root) return { hits: [], count: 0, partial: false };
    const state = this.state(version);
    if (!state.isComplete) await Promise.race([state.complete, delay(PARTIAL_AFTER_MS)]);
    if (!state.handedOver) return { hits: [], count: 0, partial: true };
    const found = await this.pool.search(version.id, text, limit);
    if (!found) throw new Error('the index threads were stopped');
    return { hits: found.hits, count: found.count, partial: !found.complete };
  }

  /** Stops the index threads (indexing under way is dropped) once the indexes built are saved. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.states.values()].filter((state) => state.isComplete).map((state) => state.saved));
    await this.pool.close();
  }

  /** One result in the Search API v3 shape. */
  resultV3({ version, hit }: VersionedHit): Record<string, unknown> {
    const project = version.project;
    return {
      type: 'page',
      project: { slug: project.slug, alias: this.registry.aliasOf(project) ?? null },
      version: { slug: version.slug },
      title: hit.title,
      domain: project.site.origin,
      path: `${this.registry.basePath(project)}/${project.language}/${version.slug}/${pageUrlPath(hit.path)}`,
      highlights: { title: titleHighlights(hit.title, hit.matchedWords) },
      blocks: resultBlocks(hit),
    };
  }

  /** One result in the Search API v2 shape: project and version as slugs. */
  resultV2(found: VersionedHit): Record<string, unknown> {
    const result = this.resultV3(found);
    return {
      ...result,
      project: found.version.project.slug,
      version: found.version.slug,
      project_alias: this.registry.aliasOf(found.version.project) ?? null,
    };
  }
}

export function defaultVersionOf(project: Project): Version | undefined {
  return project.versions.find((version) => version.slug === project.defaultVersion);
}
