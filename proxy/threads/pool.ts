import { ThreadPool, type ExtractionLimits } from '../../runtime/thread-pool.ts';
import { workingBytes, type ThreadJobs } from './jobs.ts';

export type ProxyThreads = ThreadPool<ThreadJobs>;

/** The proxy's threads (`worker.ts`): pages parsed and sections extracted, large search answers read. */
export const proxyThreads = (limits: ExtractionLimits): ProxyThreads =>
  new ThreadPool<ThreadJobs>(new URL('./worker.ts', import.meta.url), limits, workingBytes);
