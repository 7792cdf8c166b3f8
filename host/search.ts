import { setTimeout as delay } from 'node:timers/promises';
import { indexKey, type IndexCache } from './index-cache.ts';
import { IndexPool } from './index-pool.ts';
import type { PageStore } from './pages.ts';
import type { Project, Registry, Version } from './registry.ts';
import { highlight, highlightExcerpts, VersionIndex, type PageHit, type SectionHit } from './search-index.ts';

/** A page hit together with the version it was found in. */
export interface VersionedHit {
  version: Version;
  hit: PageHit;
}

/** Longest section text a search result carries; highlights point into the rest. */
const MAX_BLOCK_CONTENT = 1000;

/** The URL path of a page: `guide/index.html` is served as `guide/`. */
export function pageUrlPath(file: string): string {
  return file === 'index.html' ? '' : file.replace(/(^|\/)index\.html$/, '$1');
}

/** What a search found, and whether some version it covers is still being indexed (then the hits are what is indexed so far). */
export interface SearchAnswer {
  hits: VersionedHit[];
  indexing: boolean;
}

/** How long a search waits for its version's index before answering with what is indexed so far. */
const PARTIAL_AFTER_MS = 500;

class VersionState {
  /** The complete index, once it is loaded here. */
  ready: VersionIndex | undefined;
  /** Whether it came from the index cache. */
  cached = false;
  /** Whether searches of the version are complete: the builder holds all of it, or this thread does. */
  isComplete = false;
  readonly complete: Promise<void>;
  readonly loaded: Promise<VersionIndex>;
  private markComplete: () => void = () => {};

  constructor(load: (state: VersionState) => Promise<{ index: VersionIndex; cached: boolean }>) {
    let failed: (error: unknown) => void = () => {};
    this.complete = new Promise<void>((resolve, reject) => {
      this.markComplete = () => {
        this.isComplete = true;
        resolve();
      };
      failed = reject;
    });
    this.loaded = load(this).then(({ index, cached }) => {
      this.ready = index;
      this.cached = cached;
      this.markComplete();
      return index;
    });
    this.loaded.catch(failed);
    // Failures reach whoever waits for the index; nobody need wait.
    this.complete.catch(() => {});
  }

  /** The builder answers complete searches of the version from now on. */
  built(): void {
    this.markComplete();
  }
}

/**
 * Indexes each version on first use (the default versions at start), in worker threads or from the
 * index cache, and searches across versions. The main thread only loads finished indexes.
 */
export class SearchService {
  private readonly states = new Map<Version, VersionState>();
  private readonly pool = new IndexPool();
  /** Indexes being written to the cache: closing waits for them. */
  private readonly saving = new Set<Promise<void>>();

  constructor(
    private readonly registry: Registry,
    private readonly pages: PageStore,
    /** Where indexes are kept across restarts; none when undefined. */
    private readonly cache?: IndexCache,
  ) {}

  /** The version's complete index. */
  index(version: Version): Promise<VersionIndex> {
    return this.state(version).loaded;
  }

  private state(version: Version): VersionState {
    let state = this.states.get(version);
    if (!state) {
      state = new VersionState((created) => this.load(version, created));
      this.states.set(version, state);
    }
    return state;
  }

  private async load(version: Version, state: VersionState): Promise<{ index: VersionIndex; cached: boolean }> {
    const root = version.root;
    const files = await this.pages.contentPages(version);
    if (!root) return { index: new VersionIndex(), cached: false };
    const cache = this.cache;
    const key = cache ? await indexKey(root, files) : undefined;
    const saved = cache && key ? await cache.load(root, key) : undefined;
    // A saved index that does not load (written by another version of the engine) is built again.
    const loaded = saved === undefined ? undefined : await VersionIndex.fromJSON(saved).catch(() => undefined);
    if (loaded) return { index: loaded, cached: true };
    const build = this.pool.build(version.id, root, files);
    void build.built.then(
      () => state.built(),
      () => {},
    );
    const json = await build.json;
    if (cache && key) {
      const saving = cache.save(root, key, json).catch((error: unknown) => {
        console.error(
          `doclens host: the search index could not be saved in ${cache.dir}: ${error instanceof Error ? error.message : error}`,
        );
      });
      this.saving.add(saving);
      void saving.then(() => this.saving.delete(saving));
    }
    try {
      return { index: await VersionIndex.fromJSON(json), cached: false };
    } finally {
      this.pool.release(version.id);
    }
  }

  /**
   * Indexes every version a search can cover (active and built) now, the default versions first, so
   * that searches are complete soon after start; says how many indexes came from the cache.
   */
  async warm(): Promise<{ versions: number; cached: number }> {
    const defaults = new Set(this.registry.projects.map(defaultVersionOf));
    const versions = this.registry.projects
      .flatMap((project) => project.versions)
      .filter((version) => version.active && version.root !== undefined)
      .sort((a, b) => Number(defaults.has(b)) - Number(defaults.has(a)));
    await Promise.all(versions.map((version) => this.state(version).complete));
    return { versions: versions.length, cached: versions.filter((version) => this.state(version).cached).length };
  }

  async search(versions: Version[], text: string): Promise<SearchAnswer> {
    const found = await Promise.all(versions.map((version) => this.searchVersion(version, text)));
    const hits = found.flatMap(({ hits }, index) => hits.map((hit) => ({ version: versions[index]!, hit })));
    return { hits: hits.sort((a, b) => b.hit.score - a.hit.score), indexing: found.some(({ partial }) => partial) };
  }

  private async searchVersion(version: Version, text: string): Promise<{ hits: PageHit[]; partial: boolean }> {
    const state = this.state(version);
    if (!state.ready) await Promise.race([state.complete, delay(PARTIAL_AFTER_MS)]);
    if (state.ready) return { hits: state.ready.search(text), partial: false };
    const found = await this.pool.search(version.id, text);
    if (found) return { hits: found.hits, partial: !found.complete };
    // Not in the builder's hands: being loaded here, which takes less than building.
    return { hits: (await state.loaded).search(text), partial: false };
  }

  /** Stops the index threads (a build under way is dropped) once the indexes built are loaded and saved. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.states.values()].filter((state) => state.isComplete).map((state) => state.loaded));
    await Promise.all(this.saving);
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
      blocks: hit.sections.map(blockOf),
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

function titleHighlights(title: string, words: ReadonlySet<string>): string[] {
  const highlighted = highlight(title, words);
  return highlighted.includes('<span>') ? [highlighted] : [];
}

function blockOf({ section, matchedWords }: SectionHit): Record<string, unknown> {
  const content = section.content.length > MAX_BLOCK_CONTENT ? `${section.content.slice(0, MAX_BLOCK_CONTENT)}…` : section.content;
  const contentHighlights = highlightExcerpts(section.content, matchedWords);
  if (section.role) {
    return {
      type: 'domain',
      role: section.role,
      name: section.title,
      id: section.anchor,
      content,
      highlights: { name: titleHighlights(section.title, matchedWords), content: contentHighlights },
    };
  }
  return {
    type: 'section',
    id: section.anchor,
    title: section.title,
    content,
    highlights: { title: titleHighlights(section.title, matchedWords), content: contentHighlights },
  };
}
