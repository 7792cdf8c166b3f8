import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CacheResult, StoredResponse } from './cache.ts';
import { chosenEncoding } from './encoding.ts';
import { ProxyError } from './errors.ts';

/** Whether the client already has this representation (`If-None-Match`, weak comparison). */
function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Writes a stored response (or `304 Not Modified`) with its caching headers, in the encoding the
 * client prefers among those stored (each with an ETag of its own). Used by the hot path and by the
 * routes alike, so both answer the same bytes.
 */
export function sendStored(
  req: IncomingMessage,
  res: ServerResponse,
  entry: StoredResponse,
  result: CacheResult,
  headers: Record<string, string>,
  now: number,
): void {
  const encoding = entry.encoded.br || entry.encoded.gzip ? chosenEncoding(req.headers['accept-encoding'], entry.encoded) : undefined;
  const etag = encoding ? `${entry.etag.slice(0, -1)}-${encoding}"` : entry.etag;
  const body = encoding ? entry.encoded[encoding]! : entry.body;
  const common: Record<string, string> = {
    ...headers,
    'x-content-type-options': 'nosniff',
    etag,
    'cache-control': entry.cacheControl,
    'x-doclens-cache': result,
    age: String(Math.max(0, Math.floor((now - entry.storedAt) / 1000))),
  };
  if (entry.encoded.br || entry.encoded.gzip) common.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  if (notModified(req, etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const representation: Record<string, string> = { 'content-type': entry.contentType, 'content-length': String(body.length) };
  if (encoding) representation['content-encoding'] = encoding;
  res.writeHead(entry.status, { ...common, ...representation });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The JSON error body, never a stack trace. */
export function sendError(res: ServerResponse, error: ProxyError, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(JSON.stringify(error.body));
  res.writeHead(error.status, {
    ...headers,
    ...error.headers,
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': String(body.length),
    'cache-control': 'no-store',
  });
  res.end(body);
}

export function asProxyError(error: unknown): ProxyError {
  if (error instanceof ProxyError) return error;
  const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
  // Express's own body and URI errors carry a 4xx status; anything else is our fault.
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new ProxyError(status, 'bad_request', 'The request could not be read.');
  return new ProxyError(500, 'internal_error', 'The proxy failed to answer; the error was logged.');
}
