import { readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { ExtractionReply, ExtractionRequest } from './thread-worker.ts';
import { startWorker } from './worker.ts';

export interface ExtractionLimits {
  /** Threads at most, each running one job at a time. */
  threads: number;
  /** Milliseconds a job may run; the thread is stopped past it. */
  timeLimitMs: number;
  /** Milliseconds a job may wait for a busy thread; it is refused as `busy` past it. */
  maxWaitMs: number;
  /** Jobs waiting for a thread at most; more are refused at once. */
  maxQueued: number;
  /**
   * Bytes the running jobs may take together: each reserves its estimate (the pool's `workingBytes`)
   * before it is given a thread, and waits for room as for a thread. With `THREAD_BASE_BYTES` it is
   * also each thread's heap (V8's old generation): a job needing more stops its thread.
   */
  workingBytes: number;
  /**
   * Whether the threads run in the background from their start (10 nice levels below the main thread,
   * on Linux), rather than for the jobs that run long: for work no reader waits on at once.
   */
  background?: boolean;
}

/** Why a job was not done: the HTML nests too deep, took too long or too much memory, or every thread is busy. */
export type ExtractionRefusal = 'too_deep' | 'too_slow' | 'out_of_memory' | 'busy';

export class JobRefused extends Error {
  override name = 'JobRefused';
  constructor(readonly reason: ExtractionRefusal) {
    super(`extraction refused: ${reason.replace(/_/g, ' ')}`);
  }
}

interface Job {
  request: ExtractionRequest;
  /** Its working memory, reserved while it runs. */
  bytes: number;
  /** Buffers of the request that move to the thread (the sender no longer reads them). */
  transfer: ArrayBuffer[];
  resolve(output: unknown): void;
  reject(error: Error): void;
  /** Refuses the job while it waits for a thread (set once the pool has a thread that loaded its code). */
  expiry?: NodeJS.Timeout;
}

/**
 * Milliseconds a thread may take to load its code (seconds on a busy machine, the first time tsx
 * compiles the sources): past it, the jobs waiting for it fail, rather than wait without end.
 */
const STARTUP_MS = 60_000;

/**
 * What a thread holds besides its jobs' working memory: its own copy of Node and of the code it loads
 * (the proxy's threads: about 10 MB of heap at rest). Its heap is given this much beside the jobs':
 * without it, a job within its reservation could still run out of heap, more often as the code grew.
 */
export const THREAD_BASE_BYTES = 32 * 2 ** 20;

/**
 * Milliseconds of CPU time a job runs at the main thread's priority: past them, its thread drops 10
 * nice levels below the main thread (a tenth of its share), so that a hostile page does not slow health
 * checks and cache hits. A thread cannot raise its priority again unprivileged: it is replaced after that
 * job. CPU time, not time on the clock: on a busy machine a reader's preview waits for a core, and
 * lowered for that wait it waited behind all other work, in a new thread each time (first previews of
 * SQLAlchemy's pages with two busy processes beside the proxy: p95 5.5 s). Every job in the background
 * made a reader's first preview wait behind other work on a busy machine (Kombu's reference pages:
 * median 192 ms, p95 374 ms with two busy processes, against 31 and 84 ms).
 */
const FOREGROUND_MS = 500;
const BACKGROUND_NICE = 10;
const LOWEST_NICE = 19;

/** Lowers a thread's priority, for good: a thread cannot raise it again unprivileged. */
function lower(thread: Thread): void {
  if (thread.tid === undefined) return;
  try {
    setPriority(thread.tid, Math.min(LOWEST_NICE, getPriority() + BACKGROUND_NICE));
  } catch {
    // The thread has just exited: nothing to lower.
  }
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** The kernel's id of the thread (Linux), whose priority alone is lowered. */
  tid?: number;
  /** Lowered to the background by a long job: replaced once that job is over. */
  demoted: boolean;
  job?: Job & { timer: NodeJS.Timeout; demotion: NodeJS.Timeout | undefined; cpuAtStart: number };
}

/** CPU milliseconds a thread of this process has run (Linux's scheduler statistics); NaN where there are none. */
function cpuMsOf(tid: number | undefined): number {
  if (tid === undefined) return Number.NaN;
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** The jobs a pool's threads do, by kind: what each takes and gives back. */
export type JobKinds<Jobs> = { [K in keyof Jobs]: { input: unknown; output: unknown } };

/** The memory a job may take while it runs (its input's size times what its work makes of it). */
export type WorkingBytes<Jobs extends JobKinds<Jobs>> = <K extends keyof Jobs & string>(kind: K, input: Jobs[K]['input']) => number;

/**
 * Worker threads for work whose cost others choose (a page's author, the upstream, a reader asking for
 * a large page: the proxy's, the docs host's), so that it never holds up the main thread: each job
 * has a time limit (its thread is stopped past it), each thread a heap limit, and jobs beyond the
 * threads wait in a bounded queue. Threads start with the first jobs (the first with the server:
 * `warm`) and stay; a stopped one is replaced when a job needs it. The threads run `worker`, a module
 * that serves its jobs with `serveJobs` (`thread-worker.ts`).
 */
export class ThreadPool<Jobs extends JobKinds<Jobs>> {
  private readonly threads = new Set<Thread>();
  private readonly queue: Job[] = [];
  private closed = false;
  /** Whether a thread has loaded its code: until then, jobs wait for that, not for a busy thread. */
  private loaded = false;
  /** Working memory of the jobs running. */
  private reserved = 0;

  constructor(
    private readonly worker: URL,
    private readonly limits: ExtractionLimits,
    private readonly workingBytes: WorkingBytes<Jobs>,
  ) {}

  /** Runs a job in a thread; the buffers of `transfer` move there with it, and are not to be read again. */
  run<K extends keyof Jobs & string>(kind: K, input: Jobs[K]['input'], transfer: ArrayBuffer[] = []): Promise<Jobs[K]['output']> {
    if (this.closed) return Promise.reject(new Error('the extraction threads were stopped'));
    if (this.queue.length >= this.limits.maxQueued) return Promise.reject(new JobRefused('busy'));
    return new Promise((resolve, reject) => {
      const bytes = Math.min(this.workingBytes(kind, input), this.limits.workingBytes);
      const job: Job = { request: { kind, input }, bytes, transfer, resolve: resolve as (output: unknown) => void, reject };
      if (this.loaded) this.expire(job);
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Working memory reserved by the jobs running now. */
  get reservedBytes(): number {
    return this.reserved;
  }

  /** Threads busy for long, or no room for the job's memory, answer `busy` rather than keep the request waiting. */
  private expire(job: Job): void {
    job.expiry = setTimeout(() => {
      const index = this.queue.indexOf(job);
      if (index === -1) return;
      this.queue.splice(index, 1);
      job.reject(new JobRefused('busy'));
    }, this.limits.maxWaitMs);
  }

  /** Fails every job waiting: no thread will take them. */
  private failWaiting(error: Error): void {
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.expiry);
      job.reject(error);
    }
  }

  /** Starts a thread before any job needs one, so that a reader's first preview does not wait for it to load its code. */
  warm(): void {
    if (this.threads.size === 0 && !this.closed) this.start();
  }

  /** Jobs running or waiting. */
  get pending(): number {
    return this.queue.length + [...this.threads].filter((thread) => thread.job).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failWaiting(new Error('the extraction threads were stopped'));
    await Promise.all([...this.threads].map((thread) => this.stop(thread, new Error('the extraction threads were stopped'))));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = [...this.threads].find((thread) => thread.ready && !thread.job);
      if (!idle) {
        if (this.threads.size < this.limits.threads) this.start();
        return;
      }
      // In turn: a large job first in line is not overtaken by smaller ones until there is room for it.
      if (this.reserved + this.queue[0]!.bytes > this.limits.workingBytes) return;
      const job = this.queue.shift()!;
      clearTimeout(job.expiry);
      this.reserved += job.bytes;
      idle.job = {
        ...job,
        timer: setTimeout(() => void this.stop(idle, new JobRefused('too_slow')), this.limits.timeLimitMs),
        demotion: this.limits.background ? undefined : setTimeout(() => this.demote(idle), FOREGROUND_MS),
        cpuAtStart: cpuMsOf(idle.tid),
      };
      idle.worker.postMessage(job.request, job.transfer);
    }
  }

  /** Lowers the priority of a thread whose job has run long (see FOREGROUND_MS), or looks again when it will have. */
  private demote(thread: Thread): void {
    if (thread.tid === undefined || !thread.job) return;
    const used = cpuMsOf(thread.tid) - thread.job.cpuAtStart;
    if (used < FOREGROUND_MS) {
      // Not before the job can have used the rest (and not at once again for a few microseconds).
      thread.job.demotion = setTimeout(() => this.demote(thread), Math.max(10, FOREGROUND_MS - used));
      return;
    }
    thread.demoted = true;
    lower(thread);
  }

  private start(): void {
    const worker = startWorker(this.worker, {
      resourceLimits: { maxOldGenerationSizeMb: Math.ceil((this.limits.workingBytes + THREAD_BASE_BYTES) / 2 ** 20) },
    });
    // Idle threads do not keep the process alive.
    worker.unref();
    const thread: Thread = { worker, ready: false, demoted: false };
    this.threads.add(thread);
    // A thread that cannot load its code (or not in time) would fail every job the same way.
    const failStartup = (error: Error) => {
      this.failWaiting(error);
      void this.stop(thread, error);
    };
    const startup = setTimeout(() => failStartup(new Error('an extraction thread did not start in time')), STARTUP_MS);
    worker.on('message', (reply: ExtractionReply) => {
      if (reply.type === 'ready') {
        clearTimeout(startup);
        thread.ready = true;
        thread.tid = reply.tid;
        if (this.limits.background) lower(thread);
        if (!this.loaded) for (const job of this.queue) this.expire(job);
        this.loaded = true;
      } else {
        this.finish(thread, reply);
      }
      this.dispatch();
    });
    worker.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(startup);
      if (!thread.ready) return failStartup(error);
      void this.stop(thread, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new JobRefused('out_of_memory') : error);
    });
    worker.on('exit', (code) => {
      clearTimeout(startup);
      void this.stop(thread, new Error(`an extraction thread stopped (exit code ${code})`));
    });
  }

  private finish(thread: Thread, reply: Exclude<ExtractionReply, { type: 'ready' }>): void {
    const job = thread.job;
    if (!job) return;
    thread.job = undefined;
    this.reserved -= job.bytes;
    clearTimeout(job.timer);
    clearTimeout(job.demotion);
    if (reply.type === 'done') job.resolve(reply.output);
    else job.reject(reply.tooDeep ? new JobRefused('too_deep') : new Error(reply.message));
    if (!thread.demoted) return;
    // The next job runs at the main thread's priority, in a new thread loaded now rather than when a reader waits for it.
    void this.stop(thread, new Error('an extraction thread was replaced'));
    if (!this.closed) this.start();
  }

  /** Stops a thread, failing its job with `error`; the next job that needs a thread starts another. */
  private async stop(thread: Thread, error: Error): Promise<void> {
    if (!this.threads.delete(thread)) return;
    if (thread.job) {
      this.reserved -= thread.job.bytes;
      clearTimeout(thread.job.timer);
      clearTimeout(thread.job.demotion);
      thread.job.reject(error);
      thread.job = undefined;
    }
    await thread.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}
