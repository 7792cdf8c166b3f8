import { runEmbedJob, type EmbedJobKind, type EmbedJobs } from '../../extraction/jobs.ts';
import type { ErrorCode } from '../../contract/index.ts';
import { PARSED_BYTES_PER_HTML_BYTE } from '../../extraction/html/parse.ts';
import { etagOf } from '../http/cache.ts';
import { encodedBodiesNow } from '../http/encoding.ts';
import { ProxyError } from '../http/errors.ts';
import type { SearchReading } from '../upstream/api.ts';
import { SearchStream } from '../upstream/search-stream.ts';
import { resultFor, searchResponseShell, type SearchPage } from '../services/search-response.ts';

/** Bytes a thread hands back: its own buffer, so that it moves between threads rather than being copied. */
type Bytes = Uint8Array;

/**
 * The search endpoint's work on a large upstream answer: read as it came, in chunks, rebuilt for the
 * scope, serialized, compressed, tagged.
 */
export interface SearchJob {
  input: { chunks: Bytes[]; reading: SearchReading; inScope: string[]; asked: SearchPage };
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

/**
 * The memory a job may take while it runs, reserved before it is given a thread: a page's parse, see
 * `PARSED_BYTES_PER_HTML_BYTE`. A search answer is read one result at a time; its rebuilt body (at
 * most twice the upstream's, see `search`) is held as results and joined, then beside its two
 * compressed copies, and the largest result is parsed whole: 8 times the body covers them.
 */
export function workingBytes<K extends ThreadJobKind>(kind: K, input: ThreadJobInput<K>): number {
  const lengthOf = (value: string | Uint8Array) => (typeof value === 'string' ? value.length : value.byteLength);
  const job = { kind, input } as { [Kind in ThreadJobKind]: { kind: Kind; input: ThreadJobInput<Kind> } }[ThreadJobKind];
  switch (job.kind) {
    case 'search':
      return 8 * sizeOf(job.input.chunks);
    case 'section':
    case 'targetPreview':
      return PARSED_BYTES_PER_HTML_BYTE * lengthOf(job.input.page);
    case 'upstreamSection':
      return PARSED_BYTES_PER_HTML_BYTE * lengthOf(job.input.content);
  }
}

/** The bytes of a body's chunks. */
export const sizeOf = (chunks: Uint8Array[]): number => chunks.reduce((total, chunk) => total + chunk.byteLength, 0);

/** A copy with a buffer of its own, unless it has one already (a pooled Buffer's would take the pool along). */
export const ownBytes = (bytes: Uint8Array): Bytes =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);

const tooLarge = () =>
  new ProxyError(502, 'upstream_too_large', 'The hosting service sent a search answer too large for the proxy to read.');

/**
 * Each result serialized as it is read (those out of scope dropped), then put in the place of the
 * shell's empty list: the same bytes as the whole answer serialized at once. A body more than twice
 * the upstream's (results of mostly missing fields, each given every field) is refused.
 */
function search({ chunks, reading, inScope, asked }: SearchJob['input']): SearchJob['output'] {
  try {
    const scope = new Set(inScope);
    const limit = 2 * sizeOf(chunks);
    const results: Buffer[] = [];
    let size = 0;
    let dropped = 0;
    const answered = resultFor(asked);
    const stream = new SearchStream(reading, (result) => {
      if (!scope.has(result.project.slug)) return void dropped++;
      const serialized = Buffer.from((results.length ? ',' : '') + JSON.stringify(answered(result)));
      size += serialized.length;
      if (size > limit) throw tooLarge();
      results.push(serialized);
    });
    for (let i = 0; i < chunks.length; i++) {
      stream.write(chunks[i]!);
      // Read: let go of it.
      chunks[i] = new Uint8Array(0);
    }
    const answer = searchResponseShell(stream.end(), results.length, dropped, scope, asked);
    const shell = JSON.stringify(answer);
    const at = shell.indexOf('"results":[]') + '"results":['.length;
    const body = Buffer.concat([Buffer.from(shell.slice(0, at)), ...results.splice(0), Buffer.from(shell.slice(at))]);
    const { br, gzip } = encodedBodiesNow(body);
    return {
      body: ownBytes(body),
      ...(br && { br: ownBytes(br) }),
      ...(gzip && { gzip: ownBytes(gzip) }),
      etag: etagOf(body),
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
