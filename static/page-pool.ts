import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../runtime/worker.ts';
import type { PageJobInput, PageJobKind, PageJobOutput } from './page-work.ts';
import type { PageReply, PageRequest } from './page-worker.ts';

/** Threads at most: past a few, the main thread adding pages to the index in order is what takes the time. */
const MAX_THREADS = 4;
/** The young generation of each thread's heap: the pages' trees outlive a larger one anyway (see `page-worker.ts`). */
const YOUNG_GENERATION_MB = 8;

/** Worker threads that do the build's work on pages (`page-work.ts`), as many as the cores allow. */
export class PagePool {
  private readonly threads: { worker: Worker; busy: number }[];
  private readonly waiting = new Map<number, { resolve(output: PageJobOutput<PageJobKind>): void; reject(error: Error): void }>();
  private nextId = 0;

  constructor(size = Math.min(MAX_THREADS, availableParallelism())) {
    this.threads = Array.from({ length: size }, () => {
      const thread = {
        worker: startWorker(new URL('./page-worker.ts', import.meta.url), {
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        }),
        busy: 0,
      };
      thread.worker.on('message', (reply: PageReply) => {
        thread.busy--;
        const waiting = this.waiting.get(reply.id);
        this.waiting.delete(reply.id);
        if ('error' in reply) waiting?.reject(new Error(reply.error));
        else waiting?.resolve(reply.output);
      });
      // A thread that dies fails what it was given; the build stops with its error.
      thread.worker.on('error', (error) => this.failAll(error));
      thread.worker.on('exit', (code) => {
        if (code !== 0) this.failAll(new Error(`a page thread of doclens build stopped (exit code ${code})`));
      });
      return thread;
    });
  }

  /** A job on a page, by the least busy thread. */
  run<K extends PageJobKind>(kind: K, input: PageJobInput<K>): Promise<PageJobOutput<K>> {
    const thread = this.threads.reduce((least, candidate) => (candidate.busy < least.busy ? candidate : least));
    const id = this.nextId++;
    const done = new Promise<PageJobOutput<K>>((resolve, reject) =>
      this.waiting.set(id, { resolve: resolve as (output: PageJobOutput<PageJobKind>) => void, reject }),
    );
    thread.busy++;
    thread.worker.postMessage({ id, kind, input } satisfies PageRequest);
    return done;
  }

  get size(): number {
    return this.threads.length;
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map(({ worker }) => worker.terminate()));
  }
}
