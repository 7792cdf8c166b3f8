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
  // CONNECT and upgrades never reach request handlers; they get a JSON refusal too.
  const refuse = (_req: unknown, socket: import('node:stream').Duplex) => {
    const body = JSON.stringify({ error: { code: 'method_not_allowed', message: 'The proxy is read-only: GET and HEAD only.' } });
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nallow: GET, HEAD\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  };
  server.on('connect', refuse);
  server.on('upgrade', refuse);
  // Requests Node rejects before Express sees them (oversized headers, malformed request lines) still get JSON.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ error: { code: 'bad_request', message: status === 431 ? 'The request headers are too large.' : 'The request could not be read.' } });
    socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
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
