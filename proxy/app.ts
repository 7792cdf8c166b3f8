import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import type { ProxyConfig } from './config.ts';
import { clientAddress, type ProxyContext } from './context.ts';
import type { ProxyError } from './http/errors.ts';
import { createLogger, type Logger } from './http/log.ts';
import { RouteTable } from './http/route-table.ts';
import { proxyRoutes } from './routes/table.ts';
import { accessLog } from './app/access-log.ts';
import { HotPath } from './app/hot-path.ts';
import { answerErrors, routeRequests } from './app/router.ts';
import { createContext } from './app/create-context.ts';
import { packagePath } from '../runtime/package-files.ts';

export interface ProxyOptions {
  /** Where log lines go (default: JSON lines on stdout at `--log-level`). */
  logger?: Logger;
  now?: () => number;
}

/** The proxy as an Express app, plus what a standalone server needs. */
export type ProxyApp = Express & {
  /** Serves fresh cache hits without Express, then hands everything else to the app. */
  listener: RequestListener;
  context: ProxyContext;
  /** Stops upstream connections, extraction threads and the Redis connection. */
  close(): Promise<void>;
};

/**
 * Builds the doclens proxy for `config` (validated by `parseConfig`): read-only forwarding of the
 * embed, search and project-listing endpoints to the upstream with server-held credentials, caching,
 * and extraction from allowlisted external documentation. Nothing listens here: mount the app in an
 * Express app, or give `listener` to `http.createServer`.
 */
/** The status logged for a request whose client closed the connection before the answer was sent (nginx's). */
const CLIENT_CLOSED_REQUEST = 499;

export function createApp(config: ProxyConfig, options: ProxyOptions = {}): ProxyApp {
  const logger = options.logger ?? createLogger(config.logLevel);
  const context = createContext(config, options.now ?? Date.now, logger);
  const routes = new RouteTable(proxyRoutes(context, config.widgetDir ?? packagePath('dist/')));
  const logRequest = accessLog(context, (path) => routes.nameOf(path));
  const hotPath = new HotPath(context, logRequest);

  const app = express() as unknown as ProxyApp;
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  app.use((req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      logRequest(req, res.statusCode, started, res.locals.error as ProxyError | undefined);
      hotPath.learn(req, res.statusCode);
    });
    // A client that left before its answer was sent is logged as nginx logs it (499), not as a failure of the proxy.
    res.once('close', () => {
      if (!res.writableFinished) logRequest(req, CLIENT_CLOSED_REQUEST, started);
    });
    next();
  });
  app.use(
    routeRequests(
      routes,
      context.cors,
      (req) => context.notes.get(req)?.rateWait ?? context.rateLimiter.take(clientAddress(req, config.trustProxy)),
    ),
  );
  app.use(answerErrors(routes, context.cors, logger));

  app.context = context;
  app.listener = hotPath.listener(app as unknown as RequestListener);
  app.close = async () => {
    context.redis?.close();
    await Promise.all([context.fetcher.close(), context.threads.close(), context.answerThreads.close()]);
  };
  return app;
}
