import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { clientAddress, publicOrigin, type ProxyContext } from '../context.ts';
import { sendStored } from '../http/respond.ts';
import type { RequestLogger } from './access-log.ts';

/**
 * Fresh cache hits answered before Express, by the raw request URL alone (no parsing, no routing).
 * Only in token mode, where answers are shared; URLs are remembered under the origin asked for too,
 * since answers with absolute links differ by it.
 */
export class HotPath {
  private readonly enabled: boolean;

  constructor(
    private readonly context: ProxyContext,
    private readonly logRequest: RequestLogger,
  ) {
    this.enabled = context.config.credentials === 'token';
  }

  /** Remembers the raw URL of a request answered 200 from the response cache, for the next one. */
  learn(req: IncomingMessage & { originalUrl: string }, status: number): void {
    const key = this.context.notes.get(req)?.key;
    const origin = publicOrigin(req, this.context.config.trustProxy);
    if (this.enabled && key && origin && status === 200) this.context.responses.rememberUrl(origin + req.originalUrl, key);
  }

  /** Serves fresh cache hits within the client's rate, and hands everything else to `app`. */
  listener(app: RequestListener): RequestListener {
    const { context } = this;
    return (req: IncomingMessage, res: ServerResponse) => {
      const origin =
        this.enabled && (req.method === 'GET' || req.method === 'HEAD') ? publicOrigin(req, context.config.trustProxy) : undefined;
      const entry = origin === undefined ? undefined : context.responses.freshForUrl(origin + (req.url ?? ''));
      if (entry && context.clients.take(clientAddress(req, context.config.trustProxy)) === 0) {
        const started = performance.now();
        context.notes.set(req, { cache: 'hit' });
        context.metrics.count('doclens_cache_requests_total', { result: 'hit' });
        sendStored(req, res, entry, 'hit', context.cors.headers(req.headers.origin), context.now());
        this.logRequest(req, res.statusCode, started);
        return;
      }
      app(req, res);
    };
  }
}
