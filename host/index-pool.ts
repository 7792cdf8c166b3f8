import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, type TransferListItem, type Worker } from 'node:worker_threads';
import { startWorker } from '../runtime/worker.ts';
import type { BuilderHits, BuilderReply, BuilderRequest, CacheEntry, IndexSummary, WorkerData } from './index-worker.ts';

/** Helper threads at most: past a few, the builder adding pages in order is what takes the time. */
const MAX_HELPERS = 3;
/**
 * Versions of fewer pages are split by the builder alone: starting a helper (loading its code) takes
 * longer than splitting that many pages itself (about 13 ms a page), so helpers would only slow them.
 */
const HELPED_FROM_PAGES = 200;

/** The young generation of each index thread's heap. */
const YOUNG_GENERATION_MB = 8;
/**
 * The builder's: a search of a large index makes tens of megabytes of objects that live as long as
 * it runs, which 16 MB lets die young more often than 8 MB. Those that outlive it are collected
 * once searches pause (see `index-worker.ts`); a larger young generation (32 MB) stayed as large
 * at rest.
 */
const BUILDER_YOUNG_GENERATION_MB = 16;

function startIndexWorker(data: WorkerData, transfer: TransferListItem[] = []): Worker {
  return startWorker(new URL('./index-worker.ts', import.meta.url), {
    workerData: data,
    transferList: transfer as never[],
    // A young generation of V8's default size (up to 48 MB a thread) adds that much to the peak; the
    // pages' trees outlive it anyway, and are collected by `index-worker.ts`.
    resourceLimits: { maxYoungGenerationSizeMb: data.role === 'builder' ? BUILDER_YOUNG_GENERATION_MB : YOUNG_GENERATION_MB },
  });
}

/**
 * Threads that build the search indexes of versions off the main thread, keep them and search them:
 * one builder, which holds the indexes, from the first version indexed until the pool is closed, and
 * for each version it builds, helpers that split pages for it, as many as the cores allow.
 */
export class IndexPool {
  /** `helpedFromPages`: versions of fewer pages are split by the builder alone (tests lower it). */
  constructor(private readonly helpedFromPages = HELPED_FROM_PAGES) {}

  private threads: { builder: Worker; helpers: Set<Worker>; started: boolean } | undefined;
  /** Versions handed to the builder, until it is ready with them. */
  private readonly pending = new Map<number, Indexing>();
  /** Versions the builder holds. */
  private readonly held = new Set<number>();
  private readonly answers = new Map<number, (reply: Extract<BuilderReply, { type: 'hits' | 'summary' }>) => void>();
  private nextId = 0;

  /**
   * Indexes a version, from the cache when it holds it: `ready` settles once searches of it are
   * complete (saying whether it came from the cache), `saved` once the cache holds it.
   */
  index(version: number, root: string, files: string[], cache?: CacheEntry): { ready: Promise<{ cached: boolean }>; saved: Promise<void> } {
    const indexing = new Indexing(cache !== undefined);
    this.pending.set(version, indexing);
    this.held.add(version);
    this.threads ??= this.start();
    const count = files.length < this.helpedFromPages ? 0 : Math.max(0, Math.min(MAX_HELPERS, availableParallelism() - 1));
    const helpers = Array.from({ length: count }, () => this.startHelper());
    this.threads.builder.postMessage({ type: 'index', version, root, files, cache, helpers } satisfies BuilderRequest, helpers);
    return { ready: indexing.ready.promise, saved: indexing.saved.promise };
  }

  /**
   * The `limit` best pages the builder has of `version` (of all of it or of what it has indexed so
   * far), and how many match; undefined when it does not hold the version.
   */
  async search(version: number, text: string, limit: number): Promise<BuilderHits | undefined> {
    if (!this.threads || !this.held.has(version)) return undefined;
    // A builder still loading its code has indexed nothing yet, and would answer only once loaded; but a
    // version it may load from the cache is asked all the same: it answers once loaded (see `index-worker.ts`).
    if (!this.threads.started && !this.pending.get(version)?.saving) return { hits: [], count: 0, complete: false };
    const reply = await this.ask((id) => ({ type: 'search', id, version, text, limit }));
    return reply?.type === 'hits' ? reply.found : undefined;
  }

  /** What the complete index of `version` holds; undefined when the builder does not hold it complete. */
  async summary(version: number): Promise<IndexSummary | undefined> {
    if (!this.threads?.started || !this.held.has(version)) return undefined;
    const reply = await this.ask((id) => ({ type: 'summary', id, version }));
    return reply?.type === 'summary' ? reply.summary : undefined;
  }

  /** Stops the threads, with the indexes they hold; indexing under way fails. */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = undefined;
    this.fail(new Error('the index threads were stopped'));
    if (threads) await Promise.all([threads.builder, ...threads.helpers].map((worker) => worker.terminate()));
  }

  private fail(error: Error): void {
    for (const indexing of this.pending.values()) indexing.fail(error);
    this.pending.clear();
    this.held.clear();
    // Questions in flight have no answer.
    for (const answer of this.answers.values()) answer({ type: 'hits', id: -1, found: undefined });
    this.answers.clear();
  }

  private ask(request: (id: number) => BuilderRequest): Promise<Extract<BuilderReply, { type: 'hits' | 'summary' }>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.answers.set(id, resolve);
      this.send(request(id));
    });
  }

  private send(request: BuilderRequest): void {
    this.threads ??= this.start();
    this.threads.builder.postMessage(request);
  }

  private start(): NonNullable<IndexPool['threads']> {
    const builder = startIndexWorker({ role: 'builder' });
    const threads = { builder, helpers: new Set<Worker>(), started: false };
    builder.on('message', (reply: BuilderReply) => this.receive(reply));
    builder.on('error', (error) => this.stopped(threads, error));
    // The builder never ends on its own (its port stays open) but when the pool stops it.
    builder.on('exit', (code) => this.stopped(threads, new Error(`the index builder stopped (exit code ${code})`)));
    return threads;
  }

  /** A helper for the next version built: its port goes to the builder, which closes it once the version is built. */
  private startHelper(): MessagePort {
    const threads = this.threads!;
    const { port1, port2 } = new MessageChannel();
    const helper = startIndexWorker({ role: 'helper', builder: port1 }, [port1]);
    threads.helpers.add(helper);
    helper.on('error', (error) => this.stopped(threads, error));
    helper.on('exit', (code) => {
      threads.helpers.delete(helper);
      // Stopped otherwise than by its port closing: the builder would wait for its pages.
      if (code !== 0) this.stopped(threads, new Error(`an index helper stopped (exit code ${code})`));
    });
    return port2;
  }

  private stopped(threads: NonNullable<IndexPool['threads']>, error: Error): void {
    if (this.threads !== threads) return;
    this.fail(error);
    void this.close();
  }

  private receive(reply: BuilderReply): void {
    if (reply.type === 'started') {
      if (this.threads) this.threads.started = true;
      return;
    }
    if (reply.type === 'hits' || reply.type === 'summary') {
      this.answers.get(reply.id)?.(reply);
      this.answers.delete(reply.id);
      return;
    }
    const indexing = this.pending.get(reply.version);
    if (!indexing) return;
    if (reply.type === 'ready') {
      indexing.ready.resolve({ cached: reply.cached });
      if (reply.cached || !indexing.saving) this.settled(reply.version);
    } else if (reply.type === 'saved') {
      if (reply.error) indexing.saved.reject(new Error(reply.error));
      else indexing.saved.resolve();
      this.settled(reply.version);
    } else {
      indexing.fail(new Error(reply.message));
      this.settled(reply.version);
      this.held.delete(reply.version);
    }
  }

  private settled(version: number): void {
    const indexing = this.pending.get(version);
    this.pending.delete(version);
    // Nothing to save without a cache or for an index that came from it.
    indexing?.saved.resolve();
  }
}

class Deferred<T> {
  resolve: (value: T) => void = () => {};
  reject: (error: Error) => void = () => {};
  readonly promise = new Promise<T>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}

class Indexing {
  readonly ready = new Deferred<{ cached: boolean }>();
  readonly saved = new Deferred<void>();

  /** Whether the builder loads the index from the cache if it has it, else saves it there once built. */
  constructor(readonly saving: boolean) {
    // Whoever waits for either sees the failure; nobody need wait for both.
    this.ready.promise.catch(() => {});
    this.saved.promise.catch(() => {});
  }

  fail(error: Error): void {
    this.ready.reject(error);
    this.saved.reject(error);
  }
}
