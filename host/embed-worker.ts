import { isTooDeep } from '../extraction/html/parse.ts';
import { serveJobs } from '../runtime/thread-worker.ts';
import { runHostEmbedJob, type HostEmbedJobKind } from './embed-jobs.ts';

serveJobs({ run: (kind, input) => runHostEmbedJob(kind as HostEmbedJobKind, input as never), tooDeep: isTooDeep });
