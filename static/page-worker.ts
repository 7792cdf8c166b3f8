import { parentPort } from 'node:worker_threads';
import { type PageJobInput, type PageJobKind, type PageJobOutput, workOn } from './page-work.ts';

/**
 * A thread of `doclens build` that does the jobs on pages it is given (see `PagePool`). It forces no
 * collections: a page's tree dies in the thread's young generation (see `YOUNG_GENERATION_MB`), and
 * each full collection freed dead hidden classes that optimized code depended on, which V8 then
 * compiled again (on pandas twice the compilations, a fifth of the build's processor time).
 */

export type PageRequest = { id: number; kind: PageJobKind; input: PageJobInput<PageJobKind> };
export type PageReply = { id: number; output: PageJobOutput<PageJobKind> } | { id: number; error: string };

parentPort?.on('message', ({ id, kind, input }: PageRequest) => {
  let reply: PageReply;
  try {
    reply = { id, output: workOn(kind, input) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
