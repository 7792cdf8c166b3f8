import { serveJobs } from '../runtime/thread-worker.ts';
import { runHostEmbedJob, type HostEmbedJobKind } from './embed-jobs.ts';

serveJobs((kind, input) => runHostEmbedJob(kind as HostEmbedJobKind, input as never));
