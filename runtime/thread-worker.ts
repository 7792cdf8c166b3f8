import { readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { TooDeepError } from '../extraction/html/parse.ts';

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

/**
 * Serves a `ThreadPool`'s jobs in this thread (`thread-pool.ts`): `run` does one (the next comes once it settled), and `transferables`
 * names the buffers of its output that move to the thread that asked rather than being copied.
 */
export function serveJobs(
  run: (kind: string, input: unknown) => unknown | Promise<unknown>,
  transferables: (output: unknown) => ArrayBuffer[] = () => [],
): void {
  const port = parentPort!;
  const reply = (message: ExtractionReply) => port.postMessage(message);
  port.on('message', async ({ kind, input }: ExtractionRequest) => {
    try {
      const output = await run(kind, input);
      port.postMessage({ type: 'done', output } satisfies ExtractionReply, transferables(output));
    } catch (error) {
      const tooDeep = error instanceof TooDeepError || (error instanceof RangeError && /call stack/i.test(error.message));
      reply({ type: 'failed', tooDeep, message: error instanceof Error ? error.message : String(error) });
    }
  });
  reply({ type: 'ready', tid: kernelThreadId() });
}
