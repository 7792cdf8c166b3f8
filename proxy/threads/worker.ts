import { serveJobs } from '../../runtime/thread-worker.ts';
import { runThreadJob, transferables, type ThreadJobKind } from './jobs.ts';

serveJobs((kind, input) => runThreadJob(kind as ThreadJobKind, input as never), transferables);
