import { availableParallelism } from 'node:os';
import { MessageChannel, type TransferListItem, type Worker } from 'node:worker_threads';
import { startWorker } from '../runtime/worker.ts';
import type { BuilderHits, BuilderReply, BuilderRequest, WorkerData } from './index-worker.ts';

/** Helper threads at most: past a few, the builder adding pages in order is what takes the time. */
const MAX_HELPERS = 3;

function startIndexWorker(data: WorkerData, transfer: TransferListItem[]): Worker {
  return startWorker(new URL('./index-worker.ts', import.meta.url), { workerData: data, transferList: transfer as never[] });
}

/**
 * Threads that build the search indexes of versions off the main thread: one builder and helpers
 * that split pages for it, as many as the cores allow. The threads start with the first build and
 * stop once every index built has been loaded by the main thread (`release`).
 */
export class IndexPool {
  private threads: { builder: Worker; helpers: Worker[]; started: boolean } | undefined;
  /** Versions handed to the builder and not released yet. */
  private readonly builds = new Map<number, Build>();
  private readonly searches = new Map<number, (found: BuilderHits | undefined) => void>();
  private nextSearch = 0;

  /**
   * Indexes a version: `built` settles once the builder answers complete searches of it, `json` with
   * the index (`VersionIndex.fromJSON` loads it). Release it once loaded.
   */
  build(version: number, root: string, files: string[]): { built: Promise<void>; json: Promise<string> } {
    const build = new Build();
    this.builds.set(version, build);
    this.send({ type: 'build', version, root, files });
    return { built: build.built.promise, json: build.json.promise };
  }

  /** The builder no longer needs to keep the version's index; the threads stop when it keeps none. */
  release(version: number): void {
    if (!this.builds.delete(version)) return;
    this.threads?.builder.postMessage({ type: 'release', version } satisfies BuilderRequest);
    if (this.builds.size === 0) void this.close();
  }

  /** What the builder has of `version`: all of it or what it has indexed so far; undefined when it does not hold it. */
  search(version: number, text: string): Promise<BuilderHits | undefined> {
    if (!this.threads || !this.builds.has(version)) return Promise.resolve(undefined);
    // A builder still loading its code has indexed nothing yet, and would answer only once loaded.
    if (!this.threads.started) return Promise.resolve({ hits: [], complete: false });
    const id = this.nextSearch++;
    return new Promise((resolve) => {
      this.searches.set(id, resolve);
      this.send({ type: 'search', id, version, text });
    });
  }

  /** Stops the threads; builds under way fail. */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = undefined;
    for (const build of this.builds.values()) build.fail(new Error('the index threads were stopped'));
    this.builds.clear();
    // Searches in flight are answered by whoever holds the index now.
    for (const resolve of this.searches.values()) resolve(undefined);
    this.searches.clear();
    if (threads) await Promise.all([threads.builder, ...threads.helpers].map((worker) => worker.terminate()));
  }

  private send(request: BuilderRequest): void {
    this.threads ??= this.start();
    this.threads.builder.postMessage(request);
  }

  private start(): NonNullable<IndexPool['threads']> {
    const count = Math.max(0, Math.min(MAX_HELPERS, availableParallelism() - 1));
    const channels = Array.from({ length: count }, () => new MessageChannel());
    const helpers = channels.map(({ port1 }) => startIndexWorker({ role: 'helper', builder: port1 }, [port1]));
    const ports = channels.map(({ port2 }) => port2);
    const builder = startIndexWorker({ role: 'builder', helpers: ports }, ports);
    const threads = { builder, helpers, started: false };
    builder.on('message', (reply: BuilderReply) => this.receive(reply));
    const fail = (error: Error) => {
      if (this.threads !== threads) return;
      for (const build of this.builds.values()) build.fail(error);
      this.builds.clear();
      void this.close();
    };
    for (const worker of [builder, ...helpers]) {
      worker.on('error', fail);
      // The threads never end on their own (their ports stay open) but when the pool stops them.
      worker.on('exit', (code) => fail(new Error(`an index thread stopped (exit code ${code})`)));
    }
    return threads;
  }

  private receive(reply: BuilderReply): void {
    if (reply.type === 'started') {
      if (this.threads) this.threads.started = true;
      return;
    }
    if (reply.type === 'hits') {
      this.searches.get(reply.id)?.(reply.found);
      this.searches.delete(reply.id);
      return;
    }
    const build = this.builds.get(reply.version);
    if (reply.type === 'built') build?.built.resolve();
    else if (reply.type === 'saved') build?.json.resolve(reply.json);
    else {
      build?.fail(new Error(reply.message));
      this.release(reply.version);
    }
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

class Build {
  readonly built = new Deferred<void>();
  readonly json = new Deferred<string>();

  fail(error: Error): void {
    this.built.reject(error);
    this.json.reject(error);
  }
}
