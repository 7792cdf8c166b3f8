import { runEmbedJob, type EmbedJobKind, type EmbedJobs } from '../../extraction/jobs.ts';
import type { ErrorCode } from '../../contract/index.ts';
import { etagOf } from '../http/cache.ts';
import { encodedBodiesNow } from '../http/encoding.ts';
import { ProxyError } from '../http/errors.ts';
import type { SearchReading } from '../upstream/api.ts';
import { readSearch } from '../upstream/read-search.ts';
import { searchResponse, type SearchPage } from '../services/search-response.ts';

/** Bytes a thread hands back: its own buffer, so that it moves between threads rather than being copied. */
type Bytes = Uint8Array;

/** The search endpoint's work on a large upstream answer: read, rebuilt for the scope, serialized, compressed, tagged. */
export interface SearchJob {
  input: { body: Bytes; reading: SearchReading; inScope: string[]; asked: SearchPage };
  output:
    | { body: Bytes; br?: Bytes; gzip?: Bytes; etag: string; indexing: boolean }
    /** The answer is not one the proxy can use (the `ProxyError` to answer with). */
    | { refused: { status: number; code: ErrorCode; message: string } };
}

/** Every job the proxy's worker threads do. */
export interface ThreadJobs extends EmbedJobs {
  search: SearchJob;
}

export type ThreadJobKind = keyof ThreadJobs;
export type ThreadJobInput<K extends ThreadJobKind> = ThreadJobs[K]['input'];
export type ThreadJobOutput<K extends ThreadJobKind> = ThreadJobs[K]['output'];

/** A copy with a buffer of its own, unless it has one already (a pooled Buffer's would take the pool along). */
export const ownBytes = (bytes: Uint8Array): Bytes =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);

function search({ body, reading, inScope, asked }: SearchJob['input']): SearchJob['output'] {
  try {
    const answer = searchResponse(readSearch(body, reading), new Set(inScope), asked);
    const serialized = Buffer.from(JSON.stringify(answer));
    const { br, gzip } = encodedBodiesNow(serialized);
    return {
      body: ownBytes(serialized),
      ...(br && { br: ownBytes(br) }),
      ...(gzip && { gzip: ownBytes(gzip) }),
      etag: etagOf(serialized),
      indexing: answer.indexing,
    };
  } catch (error) {
    if (!(error instanceof ProxyError)) throw error;
    return { refused: { status: error.status, code: error.code, message: error.message } };
  }
}

/** Runs one job; the buffers of its output are to be moved to the thread that asked. */
export function runThreadJob<K extends ThreadJobKind>(kind: K, input: ThreadJobInput<K>): ThreadJobOutput<K> {
  if (kind === 'search') return search(input as SearchJob['input']) as ThreadJobOutput<K>;
  return runEmbedJob(kind as EmbedJobKind, input as never) as ThreadJobOutput<K>;
}

/** The buffers among an output's values (one level down: outputs are flat), each once. */
export function transferables(output: unknown): ArrayBuffer[] {
  if (!output || typeof output !== 'object') return [];
  const buffers = Object.values(output).filter((value): value is Uint8Array => value instanceof Uint8Array);
  return [...new Set(buffers.map((bytes) => bytes.buffer as ArrayBuffer))];
}
