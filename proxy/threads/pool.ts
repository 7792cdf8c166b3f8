import { ThreadPool, type ExtractionLimits } from '../../runtime/thread-pool.ts';
import type { ThreadJobs } from './jobs.ts';

/** The proxy's threads (`worker.ts`): pages parsed and sections extracted, large search answers read. */
export const extractionThreads = (limits: ExtractionLimits) => new ThreadPool<ThreadJobs>(new URL('./worker.ts', import.meta.url), limits);

export type ExtractionThreads = ReturnType<typeof extractionThreads>;
