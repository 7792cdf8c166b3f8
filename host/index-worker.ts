/**
 * A worker thread of the index pool (see `index-pool.ts`). The builder indexes one version after the
 * other, keeps every index it has and answers the searches of them: of a version being indexed with
 * what it has so far. The main thread never holds an index: it would need a second copy (the
 * builder's, until it is handed over) and the time to serialize and load it, while searches wait.
 * Helpers only split pages into sections, for the builder, which adds them in file order.
 */
import { join } from 'node:path';
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { splitSections } from '../extraction/sections.ts';
import type { SplitPage } from '../extraction/structure/split-page.ts';
import { fullCollection } from '../runtime/forced-gc.ts';
import { BetweenSearches } from './between-searches.ts';
import { IndexCache } from './index-cache.ts';
import { readParts } from './pages.ts';
import { type PageHit, SearchIndex } from '../search/index.ts';

export type WorkerData = { role: 'builder' } | { role: 'helper'; builder: MessagePort };

/** Where a version's index is saved across restarts, and the key it is built for (see `index-cache.ts`). */
export interface CacheEntry {
  dir: string;
  key: string;
}

/**
 * From the main thread to the builder: `index` loads a version's index from the cache, else builds
 * it (and saves it there) with the helpers whose ports come with it; `search` asks for the `limit` best pages.
 */
export type BuilderRequest =
  | { type: 'index'; version: number; root: string; files: string[]; cache: CacheEntry | undefined; helpers: MessagePort[] }
  | { type: 'search'; id: number; version: number; text: string; limit: number }
  | { type: 'summary'; id: number; version: number };

/** What the builder has of a version: the best hits of all of it or of what it has indexed so far, and how many there are. */
export interface BuilderHits {
  hits: PageHit[];
  count: number;
  complete: boolean;
}

/** What a version's complete index holds: its pages and sections, each page's title. */
export interface IndexSummary {
  pages: number;
  sections: number;
  titles: [path: string, title: string][];
}

/**
 * From the builder to the main thread: `ready` once the version's searches are complete (indexed in
 * full or loaded from the cache), then `saved` once it is in the cache (`error` when it could not be
 * written). `found` and `summary` are undefined for a version the builder does not hold.
 */
export type BuilderReply =
  | { type: 'started' }
  | { type: 'ready'; version: number; cached: boolean }
  | { type: 'saved'; version: number; error?: string }
  | { type: 'failed'; version: number; message: string }
  | { type: 'hits'; id: number; found: BuilderHits | undefined }
  | { type: 'summary'; id: number; summary: IndexSummary | undefined };

interface SplitRequest {
  batch: number;
  root: string;
  files: string[];
}

interface SplitFile {
  file: string;
  /** Undefined when the file could not be read (removed since it was listed). */
  split: SplitPage | undefined;
}

interface SplitReply {
  batch: number;
  pages: SplitFile[];
}

/** Pages handed out at once: enough to keep a helper busy between messages, few enough to share the work evenly. */
const BATCH_PAGES = 4;
/** Batches a helper holds at once, so that it never waits for the next one. */
const BATCHES_AHEAD = 2;

/**
 * Text of sections split in a thread between two full garbage collections. Left to V8, what pages
 * leave behind (the trees of their content, which outlive a young generation) grows a thread's heap
 * by a hundred megabytes and more, which it keeps. Counted in the content's text rather than in
 * HTML: a reference page is mostly navigation, which leaves nothing behind, a guide mostly content.
 * On pandas' site, the peak of indexing was 275 MB against 320–370 MB collecting every 32 MB of HTML,
 * in the same time; every 256K characters, 260 MB but a sixth slower (each collection goes over the
 * index built so far).
 */
const COLLECT_EVERY_CHARS = 512 * 1024;
/** Quiet time after a search before the builder collects its garbage. */
const IDLE_COLLECTION_MS = 1000;
/**
 * Time between that collection and a second one: V8 gives back the pages the first freed only at
 * the next (the builder of pandas' index, after the suite's 806 searches: 115 MB of heap instead of
 * 150–185 MB).
 */
const SECOND_COLLECTION_MS = 500;

const collectGarbage = fullCollection();

let splitSinceCollection = 0;

function splitFile(root: string, file: string): SplitFile {
  let html: string[];
  try {
    html = readParts(join(root, file));
  } catch {
    return { file, split: undefined };
  }
  const split = splitSections(html, file);
  for (const section of split.sections) splitSinceCollection += section.title.length + section.content.length + section.text.length;
  if (splitSinceCollection >= COLLECT_EVERY_CHARS) {
    splitSinceCollection = 0;
    collectGarbage();
  }
  return { file, split };
}

/**
 * Longest a search of a version being loaded from the cache waits for it: a restarted host answers
 * complete results once its saved index is loaded (a second or two for the largest sites) rather
 * than nothing at once; past this, it answers that the version is still being indexed.
 */
const LOAD_WAIT_MS = 5000;

type SearchRequest = Extract<BuilderRequest, { type: 'search' }>;

/** Lets the messages that arrived meanwhile (searches, split pages) be handled. */
const yieldToMessages = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Saving an index to the cache waits for this pause in searches before it makes each part, or at most
 * `SAVE_WAIT_MS`: a search that comes while a part is made waits for it (see `BetweenSearches`).
 */
export const SAVE_QUIET_MS = 500;
const SAVE_WAIT_MS = 10_000;

/** Pages whose titles are searched before the first reader's search (see `warmUp`). */
const WARM_UP_PAGES = 3;

/**
 * Searches before the first reader's, whole words and words cut short: the first searches in a
 * thread compile the engine's code, and were 2–5× slower than the next.
 */
function warmUp(index: SearchIndex): void {
  for (const title of [...index.pageTitles().values()].slice(0, WARM_UP_PAGES)) {
    index.search(title);
    index.search(title.slice(0, -2));
  }
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

function runHelper(builder: MessagePort): void {
  builder.on('message', ({ batch, root, files }: SplitRequest) => {
    builder.postMessage({ batch, pages: files.map((file) => splitFile(root, file)) } satisfies SplitReply);
  });
}

type IndexRequest = Extract<BuilderRequest, { type: 'index' }>;

export class Builder {
  private readonly queue: IndexRequest[] = [];
  /** The version being loaded or built, and what it holds so far (nothing while it is loaded from the cache). */
  private current: { version: number; index: SearchIndex | undefined; loading: boolean } | undefined;
  /** Searches of the version being loaded from the cache, answered once it is (or after `LOAD_WAIT_MS`). */
  private readonly waiting = new Map<SearchRequest, NodeJS.Timeout>();
  /** Versions whose searches are complete. */
  private readonly indexes = new Map<number, SearchIndex>();
  private running = false;
  /** Called when a helper's batch arrives. */
  private wake: () => void = () => {};
  private results: (SplitFile[] | undefined)[] = [];
  private handedOut = 0;
  private batches: string[][] = [];
  private root = '';
  private idle: NodeJS.Timeout | undefined;
  private readonly betweenSearches = new BetweenSearches(SAVE_QUIET_MS, SAVE_WAIT_MS);

  constructor(private readonly main: MessagePort) {
    main.on('message', (request: BuilderRequest) => this.handle(request));
    this.reply({ type: 'started' });
  }

  private reply(message: BuilderReply): void {
    this.main.postMessage(message);
  }

  private handle(request: BuilderRequest): void {
    if (request.type === 'search') {
      if (this.current?.loading && this.current.version === request.version)
        this.waiting.set(
          request,
          setTimeout(() => this.answer(request), LOAD_WAIT_MS),
        );
      else this.answer(request);
    } else if (request.type === 'summary') this.reply({ type: 'summary', id: request.id, summary: this.summary(request.version) });
    else {
      this.queue.push(request);
      if (!this.running) void this.run();
    }
  }

  /**
   * Full collections once searches pause: each leaves megabytes of garbage that, in a thread that
   * then idles, V8 would keep (a burst of searches doubled the thread's memory at rest).
   */
  private collectWhenIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      collectGarbage();
      this.idle = setTimeout(collectGarbage, SECOND_COLLECTION_MS).unref();
    }, IDLE_COLLECTION_MS).unref();
  }

  private answer(request: SearchRequest): void {
    clearTimeout(this.waiting.get(request));
    this.waiting.delete(request);
    this.reply({ type: 'hits', id: request.id, found: this.search(request) });
    this.betweenSearches.searched();
    this.collectWhenIdle();
  }

  private search({ version, text, limit }: SearchRequest): BuilderHits | undefined {
    const complete = this.indexes.get(version);
    const index = complete ?? (this.current?.version === version ? this.current.index : undefined);
    if (index) {
      const hits = index.search(text);
      // Only the hits asked for cross to the main thread: a common word matches thousands of pages.
      return { hits: hits.slice(0, limit), count: hits.length, complete: index === complete };
    }
    const pending = this.current?.version === version || this.queue.some((queued) => queued.version === version);
    return pending ? { hits: [], count: 0, complete: false } : undefined;
  }

  private summary(version: number): IndexSummary | undefined {
    const index = this.indexes.get(version);
    return index && { ...index.size, titles: [...index.pageTitles()] };
  }

  private async run(): Promise<void> {
    this.running = true;
    for (let request = this.queue.shift(); request; request = this.queue.shift()) {
      const { version, root, cache } = request;
      try {
        this.current = { version, index: undefined, loading: cache !== undefined };
        const saved = cache && (await this.loadSaved(root, cache));
        if (saved) this.indexes.set(version, saved);
        // Searches that waited for the saved index: complete now, or (none could be loaded) of what is built so far.
        this.current.loading = false;
        for (const request of [...this.waiting.keys()]) this.answer(request);
        const index = saved ?? (await this.build(request));
        this.indexes.set(version, index);
        this.current = undefined;
        warmUp(index);
        // What building left behind goes before searches come: the heap would stay at its peak size.
        collectGarbage();
        this.reply({ type: 'ready', version, cached: saved !== undefined });
        if (cache && !saved) {
          // Written a part at a time while searches pause (see `SearchIndex.savedParts`).
          const parts = this.betweenSearches.steps(index.savedParts());
          const error = await new IndexCache(cache.dir).save(root, cache.key, parts).then(() => undefined, errorMessage);
          // Collected once searches pause, not now: a full collection of a large index would hold one up.
          this.collectWhenIdle();
          this.reply({ type: 'saved', version, error });
        }
      } catch (error) {
        this.reply({ type: 'failed', version, message: errorMessage(error) });
      } finally {
        this.current = undefined;
        // A helper ends once its port is closed: its memory is given back while no version is built.
        for (const helper of request.helpers) helper.close();
      }
    }
    this.running = false;
  }

  /** The saved index, if the cache has one for this key that loads (one written by another version of the engine is built again). */
  private async loadSaved(root: string, { dir, key }: CacheEntry): Promise<SearchIndex | undefined> {
    const parts = await new IndexCache(dir).load(root, key);
    if (parts === undefined) return undefined;
    const index = new SearchIndex();
    try {
      for (const part of parts) {
        index.addPart(part);
        await yieldToMessages();
      }
    } catch {
      return undefined;
    }
    index.finish();
    return index;
  }

  private handOut(helper: MessagePort): void {
    if (this.handedOut >= this.batches.length) return;
    const batch = this.handedOut++;
    helper.postMessage({ batch, root: this.root, files: this.batches[batch]! } satisfies SplitRequest);
  }

  /** Splits the pages in batches shared with the helpers, and adds them in file order. */
  private async build({ version, root, files, helpers }: IndexRequest): Promise<SearchIndex> {
    const index = new SearchIndex();
    for (const helper of helpers) {
      helper.on('message', ({ batch, pages }: SplitReply) => {
        this.results[batch] = pages;
        this.handOut(helper);
        this.wake();
      });
    }
    this.current = { version, index, loading: false };
    this.root = root;
    this.batches = [];
    for (let start = 0; start < files.length; start += BATCH_PAGES) this.batches.push(files.slice(start, start + BATCH_PAGES));
    this.results = [];
    this.handedOut = 0;
    for (let round = 0; round < BATCHES_AHEAD; round++) for (const helper of helpers) this.handOut(helper);
    for (let next = 0; next < this.batches.length; next++) {
      while (!this.results[next]) {
        if (this.handedOut < this.batches.length) {
          // Nothing to add yet: split a batch here too.
          const mine = this.handedOut++;
          const pages: SplitFile[] = [];
          for (const file of this.batches[mine]!) {
            // A copy, as a helper's pages arrive: strings cut from a page (attribute values, text) would
            // keep its whole HTML alive as long as the index (pages split here held 6× the memory).
            pages.push(structuredClone(splitFile(root, file)));
            await yieldToMessages();
          }
          this.results[mine] = pages;
        } else {
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
      }
      for (const { file, split } of this.results[next]!) if (split) index.addPage(file, split);
      this.results[next] = undefined;
      await yieldToMessages();
    }
    // Every page is split: the helpers' memory is given back, and the builder's garbage collected,
    // before the engine takes its searchable form (the peak of indexing).
    for (const helper of helpers) helper.close();
    collectGarbage();
    index.finish();
    return index;
  }
}

// A thread of the pool; imported in the main thread (by its tests), it starts nothing.
if (!isMainThread) {
  const data = workerData as WorkerData;
  if (data.role === 'helper') runHelper(data.builder);
  else new Builder(parentPort!);
}
