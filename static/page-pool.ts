import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../runtime/worker.ts';
import type { PageJobInput, PageJobKind, PageJobOutput } from './page-work.ts';
import type { PageReply, PageRequest } from './page-worker.ts';

/** Threads at most: past a few, the main thread adding pages to the index in order is what takes the time. */
const MAX_THREADS = 4;
/**
 * The young generation of each thread's heap: large enough that a page's tree and previews die in it.
 * With 8 MB every tree outlived two scavenges and was copied into the old generation (on pandas 10.6 s
 * of scavenges over the threads; 1.7 s with 128 MB, for 130–180 MB more at peak: docs/benchmarks.md).
 */
const YOUNG_GENERATION_MB = 128;

/**
 * Jobs each thread holds at most: the one it works on and the next, which it starts without waiting
 * for the main thread to hand it over (the main thread may be adding a page to the index meanwhile).
 */
const JOBS_PER_THREAD = 2;

interface Job {
  kind: PageJobKind;
  /** Ahead of the others (see `run`). */
  first: boolean;
  input: () => PageJobInput<PageJobKind>;
  resolve(output: PageJobOutput<PageJobKind>): void;
  reject(error: Error): void;
}

/**
 * Worker threads that do the build's work on pages and write its search indexes (`page-work.ts`), as
 * many as the cores allow. Jobs wait in one queue and go to a thread as it comes free, their input
 * made then (so that it holds what the build has learnt meanwhile): a large page holds up its own thread only.
 */
export class PagePool {
  private readonly threads: { worker: Worker; jobs: Map<number, Job> }[];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed: Promise<void> | undefined;

  constructor(size = Math.min(MAX_THREADS, availableParallelism())) {
    this.threads = Array.from({ length: size }, () => {
      const thread = {
        worker: startWorker(new URL('./page-worker.ts', import.meta.url), {
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        }),
        jobs: new Map<number, Job>(),
      };
      thread.worker.on('message', (reply: PageReply) => {
        const job = thread.jobs.get(reply.id);
        thread.jobs.delete(reply.id);
        if ('error' in reply) job?.reject(new Error(reply.error));
        else job?.resolve(reply.output);
        this.dispatch();
      });
      // A thread that dies fails what it was given; the build stops with its error.
      thread.worker.on('error', (error) => this.failAll(error));
      thread.worker.on('exit', (code) => {
        if (code !== 0) this.failAll(new Error(`a page thread of doclens build stopped (exit code ${code})`));
      });
      return thread;
    });
  }

  /**
   * A job on a page, by the first thread free; `input` is made when it starts. `first`: ahead of the
   * jobs queued, for a job the main thread waits on before it can go on.
   */
  run<K extends PageJobKind>(kind: K, input: () => PageJobInput<K>, first = false): Promise<PageJobOutput<K>> {
    const done = new Promise<PageJobOutput<K>>((resolve, reject) => {
      const job = { kind, first, input, resolve: resolve as (output: PageJobOutput<PageJobKind>) => void, reject };
      // Behind the jobs queued first before it, ahead of the others.
      const at = first ? this.queue.findIndex((queued) => !queued.first) : -1;
      this.queue.splice(at < 0 ? this.queue.length : at, 0, job);
    });
    this.dispatch();
    return done;
  }

  get size(): number {
    return this.threads.length;
  }

  /** Hands queued jobs to the threads with room for them, the least busy first. */
  private dispatch(): void {
    for (;;) {
      const thread = this.threads.reduce((least, candidate) => (candidate.jobs.size < least.jobs.size ? candidate : least));
      const job = thread.jobs.size < JOBS_PER_THREAD ? this.queue.shift() : undefined;
      if (!job) return;
      const id = this.nextId++;
      thread.jobs.set(id, job);
      thread.worker.postMessage({ id, kind: job.kind, input: job.input() } satisfies PageRequest);
    }
  }

  private failAll(error: Error): void {
    for (const job of [...this.queue, ...this.threads.flatMap((thread) => [...thread.jobs.values()])]) job.reject(error);
    this.queue.length = 0;
    for (const thread of this.threads) thread.jobs.clear();
  }

  /** Stops the threads, once however often it is called. */
  close(): Promise<void> {
    this.closed ??= Promise.all(this.threads.map(({ worker }) => worker.terminate())).then(() => undefined);
    return this.closed;
  }
}
