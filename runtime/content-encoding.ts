import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/** Encodings doclens sends besides identity, best first: stored answers' copies and the widget files' built ones. */
export type Encoding = 'br' | 'gzip';

/** Below this, compression saves less than its headers and time cost. */
export const COMPRESS_MIN_BYTES = 1024;

/** Brotli at quality 5, which on JSON answers and HTML pages comes close to its best ratio at a fraction of the time. */
export const brotliOptions = (body: Uint8Array): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 5,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});
export const GZIP_OPTIONS: ZlibOptions = { level: 6 };

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The body in one encoding, made on libuv's thread pool (not the main thread). */
export function encodedBody(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, brotliOptions(body)) : gzipped(body, GZIP_OPTIONS);
}

/** The `q` of one `Accept-Encoding` item (1 when absent, 0 when unreadable). */
function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'q') {
      const quality = Number(value?.trim());
      return Number.isFinite(quality) ? quality : 0;
    }
  }
  return 1;
}

/**
 * The encoding to send among those available (an answer's stored copies, a file's built ones), by the
 * request's `Accept-Encoding` (RFC 9110 §12.5.3):
 * the one with the highest weight, brotli before gzip at equal weight; `*` stands for any not named;
 * `q=0` refuses. Undefined means identity.
 */
export function chosenEncoding(header: string | undefined, available: Partial<Record<Encoding, unknown>>): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...parameters] = item.split(';');
    const coding = name?.trim().toLowerCase();
    if (coding) weights.set(coding, qualityOf(parameters));
  }
  let best: Encoding | undefined;
  // Identity stays acceptable unless refused, and wins only when weighted above every encoding.
  let bestWeight = 0;
  const identityWeight = weights.get('identity') ?? (weights.has('*') ? weights.get('*')! : 1);
  for (const encoding of ['br', 'gzip'] as const) {
    if (!available[encoding]) continue;
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best && bestWeight >= identityWeight ? best : identityWeight > 0 ? undefined : best;
}
