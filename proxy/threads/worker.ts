import { isTooDeep } from '../../extraction/html/parse.ts';
import { serveJobs } from '../../runtime/thread-worker.ts';
import { runThreadJob, transferables, type ThreadJobKind } from './jobs.ts';

serveJobs({ run: (kind, input) => runThreadJob(kind as ThreadJobKind, input as never), tooDeep: isTooDeep, transferables });
