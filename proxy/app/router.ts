import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Cors } from '../http/cors.ts';
import { ProxyError } from '../http/errors.ts';
import type { Logger } from '../http/log.ts';
import { asProxyError, sendError } from '../http/respond.ts';
import { decodedParams, type RouteTable } from '../http/route-table.ts';

/**
 * Routes by the table alone: a path it does not have is a 404 before anything else runs, a preflight
 * gets CORS headers, another method than GET or HEAD a 405, and rate-limited routes a 429 once the
 * client has none left. Unknown paths and other methods use up the client's rate too, so that a
 * flood of them is refused as cheaply as any other.
 */
export function routeRequests(table: RouteTable, cors: Cors, rateWait: (req: Request) => number | Promise<number>): RequestHandler {
  return async (req, res, next) => {
    res.setHeader('x-content-type-options', 'nosniff');
    const match = table.match(req.path);
    const reading = req.method === 'GET' || req.method === 'HEAD';
    if (!match || (match.route.rateLimited && reading) || (!reading && req.method !== 'OPTIONS')) {
      const wait = await rateWait(req);
      if (wait > 0)
        return next(new ProxyError(429, 'rate_limited', `Too many requests; try again in ${wait} s.`, { 'retry-after': String(wait) }));
    }
    if (!match) return next(new ProxyError(404, 'not_found', 'No such endpoint on the doclens proxy.'));
    if (req.method === 'OPTIONS') return void res.status(204).set(cors.preflight(req.headers.origin)).end();
    if (!reading) {
      return next(
        new ProxyError(405, 'method_not_allowed', `${req.method} is not allowed here: the proxy is read-only.`, { allow: 'GET, HEAD' }),
      );
    }
    await match.route.handle(req, res, decodedParams(match));
  };
}

/** Every failure as a JSON error, never a stack trace; failures of the proxy's own code are logged. */
export function answerErrors(table: RouteTable, cors: Cors, logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const proxyError = asProxyError(error);
    if (proxyError.status >= 500 && !(error instanceof ProxyError)) {
      logger.error(
        { route: table.nameOf(req.path), error: (error as Error)?.name, detail: String((error as Error)?.message ?? error).slice(0, 300) },
        'unexpected error',
      );
    }
    res.locals.error = proxyError;
    sendError(res, proxyError, cors.headers(req.headers.origin));
  };
}
