import { brotliCompressSync, gzipSync } from 'node:zlib';

import { brotliOptions, COMPRESS_MIN_BYTES, encodedBody, GZIP_OPTIONS, type Encoding } from '../../runtime/content-encoding.ts';

export { chosenEncoding, COMPRESS_MIN_BYTES, type Encoding } from '../../runtime/content-encoding.ts';

/** Compressed copies of an answer's body, made once when it is stored. */
export type EncodedBodies = Partial<Record<Encoding, Buffer>>;

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
  const [br, gz] = await Promise.all([encodedBody(body, 'br'), encodedBody(body, 'gzip')]);
  return smallerOnes(body, br, gz);
}

/** The same copies made at once, in a worker thread that has nothing else to do meanwhile. */
export function encodedBodiesNow(body: Uint8Array): EncodedBodies {
  if (body.length < COMPRESS_MIN_BYTES) return {};
  return smallerOnes(body, brotliCompressSync(body, brotliOptions(body)), gzipSync(body, GZIP_OPTIONS));
}
