import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type ProxyApp, type ProxyOptions } from './app.ts';
import type { ProxyConfig } from './config.ts';

export interface RunningProxy {
  app: ProxyApp;
  server: Server;
  /** `http://HOST:PORT` the proxy answers at. */
  url: string;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes upstream connections. */
  close(graceMs?: number): Promise<void>;
}

/** Starts the proxy as a standalone HTTP server. */
export async function startProxy(config: ProxyConfig, options: ProxyOptions = {}): Promise<RunningProxy> {
  const app = createApp(config, options);
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, maxHeaderSize: 16 * 1024 }, app.listener);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    app,
    server,
    url: `http://${host}:${port}`,
    close: async (graceMs = 10_000) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      await app.close();
    },
  };
}
