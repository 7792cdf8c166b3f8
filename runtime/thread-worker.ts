import { readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** A job for the thread: one at a time, the next only once it answered. */
export interface ExtractionRequest {
  kind: string;
  input: unknown;
}

export type ExtractionReply =
  /** `tid`: the thread's id in the kernel (Linux only), by which the pool lowers its priority. */
  | { type: 'ready'; tid: number | undefined }
  | { type: 'done'; output: unknown }
  /** `tooDeep`: the HTML nests too deep to walk (refused while parsing, or a walk ran out of stack). */
  | { type: 'failed'; tooDeep: boolean; message: string };

/** `/proc/thread-self` links to `<pid>/task/<tid>`. */
const kernelThreadId = () => (process.platform === 'linux' ? Number(readlinkSync('/proc/thread-self').split('/').pop()) : undefined);

/** A thread's jobs, as `serveJobs` serves them. */
export interface JobServer {
  /** Does one job (the next comes once it settled). */
  run(kind: string, input: unknown): unknown;
  /** Whether a job's error means its input nests too deep to walk (refused as `too_deep`). */
  tooDeep(error: unknown): boolean;
  /** The buffers of an output that move to the thread that asked rather than being copied. */
  transferables?(output: unknown): ArrayBuffer[];
}

/** Serves a `ThreadPool`'s jobs in this thread (`thread-pool.ts`). */
export function serveJobs({ run, tooDeep, transferables = () => [] }: JobServer): void {
  const port = parentPort!;
  const reply = (message: ExtractionReply) => port.postMessage(message);
  port.on('message', async ({ kind, input }: ExtractionRequest) => {
    try {
      const output = await run(kind, input);
      port.postMessage({ type: 'done', output } satisfies ExtractionReply, transferables(output));
    } catch (error) {
      reply({ type: 'failed', tooDeep: tooDeep(error), message: error instanceof Error ? error.message : String(error) });
    }
  });
  reply({ type: 'ready', tid: kernelThreadId() });
}
