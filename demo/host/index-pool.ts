import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { BuilderReply, BuilderRequest, WorkerData } from './index-worker.ts';
import type { PageHit } from './search-index.ts';

/** Helper threads at most: past a few, the builder adding pages in order is what takes the time. */
const MAX_HELPERS = 3;

/**
 * Worker threads run the TypeScript sources as the main thread does: through tsx, registered in the
 * thread before the worker module is imported (a `--import` in a worker's `execArgv` comes too late
 * for its entry module in Node 20).
 */
function startWorker(data: WorkerData, transfer: Transferable[]): Worker {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./index-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: data, transferList: transfer as never[] });
}

/**
 * Threads that build the search indexes of versions off the main thread: one builder and helpers
 * that split pages for it, as many as the cores allow. The threads start with the first build and
 * stop once every build has been handed over.
 */
export class IndexPool {
  private threads: { builder: Worker; helpers: Worker[]; started: boolean } | undefined;
  private readonly builds = new Map<number, { resolve: (json: string) => void; reject: (error: Error) => void }>();
  private readonly searches = new Map<number, (hits: PageHit[] | undefined) => void>();
  private nextSearch = 0;

  /** The version's index, as JSON (`VersionIndex.fromJSON` loads it). */
  build(version: number, root: string, files: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      this.builds.set(version, { resolve, reject });
      this.send({ type: 'build', version, root, files });
    });
  }

  /** The hits of what the builder has indexed of `version` so far; undefined once it has handed the version over. */
  search(version: number, text: string): Promise<PageHit[] | undefined> {
    if (!this.threads || !this.builds.has(version)) return Promise.resolve(undefined);
    // A builder still loading its code has indexed nothing yet, and would answer only once loaded.
    if (!this.threads.started) return Promise.resolve([]);
    const id = this.nextSearch++;
    return new Promise((resolve) => {
      this.searches.set(id, resolve);
      this.send({ type: 'search', id, version, text });
    });
  }

  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = undefined;
    if (threads) await Promise.all([threads.builder, ...threads.helpers].map((worker) => worker.terminate()));
  }

  private send(request: BuilderRequest): void {
    (this.threads ??= this.start()).builder.postMessage(request);
  }

  private start(): NonNullable<IndexPool['threads']> {
    const count = Math.max(0, Math.min(MAX_HELPERS, availableParallelism() - 1));
    const channels = Array.from({ length: count }, () => new MessageChannel());
    const helpers = channels.map(({ port1 }) => startWorker({ role: 'helper', builder: port1 }, [port1]));
    const ports = channels.map(({ port2 }) => port2);
    const builder = startWorker({ role: 'builder', helpers: ports }, ports);
    const threads = { builder, helpers, started: false };
    builder.on('message', (reply: BuilderReply) => this.receive(reply));
    const fail = (error: Error) => {
      if (this.threads !== threads) return;
      for (const { reject } of this.builds.values()) reject(error);
      this.builds.clear();
      for (const resolve of this.searches.values()) resolve(undefined);
      this.searches.clear();
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
      this.searches.get(reply.id)?.(reply.hits);
      this.searches.delete(reply.id);
      return;
    }
    const build = this.builds.get(reply.version);
    this.builds.delete(reply.version);
    if (reply.type === 'built') build?.resolve(reply.json);
    else build?.reject(new Error(reply.message));
    if (this.builds.size === 0) void this.close();
  }
}
