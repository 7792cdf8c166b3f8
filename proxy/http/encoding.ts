import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

import type { Encoding } from '../../runtime/content-encoding.ts';

export { chosenEncoding, type Encoding } from '../../runtime/content-encoding.ts';

/** Compressed copies of an answer's body, made once when it is stored. */
export type EncodedBodies = Partial<Record<Encoding, Buffer>>;

/** Below this, compression saves less than its headers and time cost. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The body in brotli and gzip, made on libuv's thread pool (not the main thread) once per stored answer:
 * brotli at quality 5, which on JSON answers comes close to its best ratio at a fraction of the time.
 * Nothing for small bodies, and no encoding that would not make the body smaller.
 */
export async function encodedBodies(body: Buffer): Promise<EncodedBodies> {
  if (body.length < COMPRESS_MIN_BYTES) return {};
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipped(body, { level: 6 }),
  ]);
  const bodies: EncodedBodies = {};
  if (br.length < body.length) bodies.br = br;
  if (gz.length < body.length) bodies.gzip = gz;
  return bodies;
}
