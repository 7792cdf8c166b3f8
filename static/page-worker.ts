import { parentPort } from 'node:worker_threads';
import { fullCollection } from '../runtime/forced-gc.ts';
import { type PageJob, type PageWork, workOn } from './page-work.ts';

/** A thread of `doclens build` that reads, previews and splits the pages it is given (see `PagePool`). */

export type PageRequest = { id: number; job: PageJob };
export type PageReply = { id: number; work: PageWork } | { id: number; error: string };

/**
 * A full collection after this much HTML parsed: V8 lets a dead page tree pile up to many times the
 * live heap (see `runtime/forced-gc.ts`), which would make the build's peak memory the garbage's.
 */
const COLLECT_EVERY_CHARS = 32 * 1024 * 1024;
const collectGarbage = fullCollection();
let sinceCollection = 0;

parentPort?.on('message', ({ id, job }: PageRequest) => {
  workOn(job).then(
    (work) => {
      sinceCollection += work.chars;
      if (sinceCollection >= COLLECT_EVERY_CHARS) {
        sinceCollection = 0;
        collectGarbage();
      }
      parentPort!.postMessage({ id, work } satisfies PageReply);
    },
    (error: unknown) => parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies PageReply),
  );
});
