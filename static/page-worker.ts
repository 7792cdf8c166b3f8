import { parentPort } from 'node:worker_threads';
import { fullCollection } from '../runtime/forced-gc.ts';
import { type PageJobInput, type PageJobKind, type PageJobOutput, workOn } from './page-work.ts';

/** A thread of `doclens build` that does the jobs on pages it is given (see `PagePool`). */

export type PageRequest = { id: number; kind: PageJobKind; input: PageJobInput<PageJobKind> };
export type PageReply = { id: number; output: PageJobOutput<PageJobKind> } | { id: number; error: string };

/**
 * A full collection after this much HTML parsed: V8 lets a dead page tree pile up to many times the
 * live heap (see `runtime/forced-gc.ts`), which would make the build's peak memory the garbage's.
 */
const COLLECT_EVERY_CHARS = 32 * 1024 * 1024;
const collectGarbage = fullCollection();
let sinceCollection = 0;

parentPort?.on('message', ({ id, kind, input }: PageRequest) => {
  let reply: PageReply;
  try {
    const output = workOn(kind, input);
    sinceCollection += output.chars;
    if (sinceCollection >= COLLECT_EVERY_CHARS) {
      sinceCollection = 0;
      collectGarbage();
    }
    reply = { id, output };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
