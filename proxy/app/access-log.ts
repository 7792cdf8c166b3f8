import type { IncomingMessage } from 'node:http';
import { clientAddress, type ProxyContext } from '../context.ts';
import type { ProxyError } from '../http/errors.ts';

/** Writes the log line of one finished request. */
export type RequestLogger = (req: IncomingMessage, status: number, started: number, error?: ProxyError) => void;

/** The path of a raw request URL, without its query. */
function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

/**
 * One JSON line per request, timed in the metrics under the same route name: the path's shape from
 * the route table, never the query, a header or a credential.
 */
export function accessLog(context: ProxyContext, routeName: (path: string) => string): RequestLogger {
  const { logger, metrics } = context;
  return (req, status, started, error) => {
    const note = context.notes.get(req);
    const route = routeName(pathOf(req.url ?? '/'));
    const durationMs = performance.now() - started;
    metrics.request(route, status, durationMs / 1000);
    const line = {
      method: req.method,
      route,
      status,
      cache: note?.cache,
      upstream_ms: note?.upstreamMs,
      duration_ms: Math.round(durationMs * 10) / 10,
      client: clientAddress(req, context.config.trustProxy),
      error: error?.code,
    };
    if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
  };
}
