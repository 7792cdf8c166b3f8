import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { clientAddress, publicOrigin, type ProxyContext } from '../context.ts';
import type { StoredResponse } from '../http/cache.ts';
import { sendStored } from '../http/respond.ts';
import type { RequestLogger } from './access-log.ts';

/**
 * Fresh cache hits answered before Express, by the raw request URL alone (no parsing, no routing).
 * Only in token mode, where answers are shared; URLs are remembered under the origin asked for too,
 * since answers with absolute links differ by it. Only memory is looked in: a hit never waits on the
 * network, but for the client's rate when limits are counted in Redis.
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
      if (!entry) return app(req, res);
      const started = performance.now();
      const wait = context.rateLimiter.take(clientAddress(req, context.config.trustProxy));
      if (typeof wait === 'number') return this.answer(req, res, entry, wait, started, app);
      wait.then((shared) => this.answer(req, res, entry, shared, started, app));
    };
  }

  /** The hit, or (over the client's rate) the app's 429, told the answer so as not to ask again. */
  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    entry: StoredResponse,
    wait: number,
    started: number,
    app: RequestListener,
  ): void {
    const { context } = this;
    if (wait > 0) {
      context.notes.set(req, { rateWait: wait });
      return app(req, res);
    }
    context.notes.set(req, { cache: 'hit' });
    context.metrics.cacheLookup('memory', 'hit');
    sendStored(req, res, entry, 'hit', context.cors.headers(req.headers.origin), context.now());
    this.logRequest(req, res.statusCode, started);
  }
}
