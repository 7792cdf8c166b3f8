import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

import type { Encoding } from '../../runtime/content-encoding.ts';

export { chosenEncoding, type Encoding } from '../../runtime/content-encoding.ts';

/** Compressed copies of an answer's body, made once when it is stored. */
export type EncodedBodies = Partial<Record<Encoding, Buffer>>;

/** Below this, compression saves less than its headers and time cost. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Brotli at quality 5, which on JSON answers comes close to its best ratio at a fraction of the time. */
const brotliOptions = (body: Uint8Array): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 5,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});
const GZIP_OPTIONS: ZlibOptions = { level: 6 };

/** The copies that make the body smaller. */
function smallerOnes(body: Uint8Array, br: Buffer, gz: Buffer): EncodedBodies {
  const bodies: EncodedBodies = {};
  if (br.length < body.length) bodies.br = br;
  if (gz.length < body.length) bodies.gzip = gz;
  return bodies;
}

/**
 * The body in brotli and gzip, made on libuv's thread pool (not the main thread) once per stored answer.
 * Nothing for small bodies, and no encoding that would not make the body smaller.
 */
export async function encodedBodies(body: Buffer): Promise<EncodedBodies> {
  if (body.length < COMPRESS_MIN_BYTES) return {};
  const [br, gz] = await Promise.all([brotli(body, brotliOptions(body)), gzipped(body, GZIP_OPTIONS)]);
  return smallerOnes(body, br, gz);
}

/** The same copies made at once, in a worker thread that has nothing else to do meanwhile. */
export function encodedBodiesNow(body: Uint8Array): EncodedBodies {
  if (body.length < COMPRESS_MIN_BYTES) return {};
  return smallerOnes(body, brotliCompressSync(body, brotliOptions(body)), gzipSync(body, GZIP_OPTIONS));
}
