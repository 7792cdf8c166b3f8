import { stat } from 'node:fs/promises';
import { chosenEncoding, type Encoding } from './content-encoding.ts';

/** The suffix of a file's compressed copy beside it, made when the file is built (`doclens.js.br`). */
export const ENCODED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** A static file as one request gets it: which file on disk to send, and the headers that describe it. */
export interface FileRepresentation {
  /** The file itself, or its compressed copy. */
  path: string;
  headers: Record<string, string>;
}

/**
 * The file at `path` in the encoding the request's `Accept-Encoding` prefers among the copies built
 * beside it (`.br`, `.gz`), as nginx's `gzip_static` does: the build that writes a file writes its copies
 * (and `vite build` empties `dist/` first). Their times say nothing, as npm installs files in any order.
 * Nothing is compressed here: a request costs a few `stat` calls. The ETag is weak, from the file's
 * size and time as static file servers make it, with the encoding appended as the JSON answers'
 * are (`W/"…-br"`). Undefined when `path` is not a file.
 */
export async function fileRepresentation(path: string, acceptEncoding: string | undefined): Promise<FileRepresentation | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const copies: Partial<Record<Encoding, string>> = {};
  for (const encoding of ['br', 'gzip'] as const) {
    const copy = `${path}${ENCODED_SUFFIX[encoding]}`;
    const copyInfo = await stat(copy).catch(() => undefined);
    if (copyInfo?.isFile()) copies[encoding] = copy;
  }
  const tag = `${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}`;
  const encoding = chosenEncoding(acceptEncoding, copies);
  const headers: Record<string, string> = { etag: encoding ? `W/"${tag}-${encoding}"` : `W/"${tag}"` };
  if (copies.br || copies.gzip) headers.vary = 'Accept-Encoding';
  if (encoding) headers['content-encoding'] = encoding;
  return { path: encoding ? copies[encoding]! : path, headers };
}
