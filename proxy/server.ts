import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp, type ProxyApp, type ProxyOptions } from './app.ts';
import type { ProxyConfig } from './config.ts';
import { ProxyError } from './http/errors.ts';
import { FairShare } from './http/fair-share.ts';
import { opsListener } from './app/ops-listener.ts';
import { sendError } from './http/respond.ts';
import { headerTimeoutOptions } from '../runtime/connection-limits.ts';

export interface RunningProxy {
  app: ProxyApp;
  server: Server;
  /** `http://HOST:PORT` the proxy answers at. */
  url: string;
  /** `http://HOST:PORT` of the operations listener (`/metrics`), with `--ops-port`. */
  opsUrl?: string;
  /**
   * Stops accepting, closes connections with no request being answered (idle or half-sent), lets
   * requests in flight finish for up to `graceMs` (default: `--timeout`, the longest an upstream call
   * takes), answers those still running then with a 503, and closes upstream connections.
   */
  close(graceMs?: number): Promise<void>;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * How long a client has to read an error written straight to its socket before the socket is
 * destroyed: `end()` alone leaves the connection (and its slot under `--max-connections`) open for as
 * long as a client that never reads keeps its end open.
 */
export const SOCKET_ANSWER_GRACE_MS = 1000;

/** Socket errors (a client resetting its connection) end that connection only. */
const ignoreSocketError = () => undefined;

/** A JSON error written straight to a socket, for what never reaches a request handler; the socket is then closed. */
function answerSocket(socket: Duplex, error: ProxyError): void {
  if (!socket.listeners('error').includes(ignoreSocketError)) socket.on('error', ignoreSocketError);
  const body = JSON.stringify(error.body);
  const headers = {
    ...error.headers,
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Error'}\r\n${head}\r\n${body}`);
  const destroy = setTimeout(() => socket.destroy(), SOCKET_ANSWER_GRACE_MS).unref();
  socket.once('close', () => clearTimeout(destroy));
}

/** Starts the proxy as a standalone HTTP server. */
export async function startProxy(config: ProxyConfig, options: ProxyOptions = {}): Promise<RunningProxy> {
  const app = createApp(config, options);
  const fairShare = new FairShare(config.maxConnections, config.maxClientConnections, config.trustProxy);
  const server = createServer(
    {
      ...headerTimeoutOptions(config.headerTimeout),
      maxHeaderSize: 16 * 1024,
      // A request without Host gets the proxy's JSON answer instead of Node's bare 400.
      requireHostHeader: false,
    },
    fairShare.listener(app.listener),
  );
  server.keepAliveTimeout = 5_000;
  // The cap is FairShare's; Node's, counting refused connections until they are closed, only bounds sockets at twice it.
  server.maxConnections = 2 * config.maxConnections;

  // Responses being written per connection, so that shutdown knows which connections to wait for.
  const answering = new Map<Socket, Set<ServerResponse>>();
  const sockets = new Set<Socket>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (!fairShare.admit(socket)) return;
    // Node drops its own listener when it hands the socket to 'upgrade' or 'connect' handlers: this
    // one stays, so an error there (a reset while the refusal is written) never reaches the process.
    socket.on('error', ignoreSocketError);
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      // Responses to pipelined requests still waiting for their turn never close: forgotten with their connection.
      answering.delete(socket);
    });
  });
  server.on('request', (req, res: ServerResponse) => {
    const socket = req.socket;
    const responses = answering.get(socket) ?? new Set();
    responses.add(res);
    answering.set(socket, responses);
    res.once('close', () => {
      responses.delete(res);
      if (responses.size > 0) return;
      answering.delete(socket);
      if (closing) socket.end();
    });
  });

  // CONNECT and upgrades never reach request handlers; they get a JSON refusal too.
  const refuse = (_req: unknown, socket: Duplex) =>
    answerSocket(socket, new ProxyError(405, 'method_not_allowed', 'The proxy is read-only: GET and HEAD only.', { allow: 'GET, HEAD' }));
  server.on('connect', refuse);
  server.on('upgrade', refuse);
  // Requests Node rejects before Express sees them (oversized headers, malformed request lines, too slow) still get JSON.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431
        ? 'The request headers are too large.'
        : status === 408
          ? 'The request took too long to arrive.'
          : 'The request could not be read.';
    answerSocket(socket, new ProxyError(status, 'bad_request', message));
  });
  const ops = config.opsPort === undefined ? undefined : createServer({ headersTimeout: config.headerTimeout }, opsListener(app.context));
  const listening = async (listener: Server, port: number, address: string) => {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, address, () => resolve());
    });
    const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address.includes(':') ? `[${address}]` : address;
    return `http://${host}:${(listener.address() as AddressInfo).port}`;
  };
  const url = await listening(server, config.port, config.host);
  app.context.threads.warm();
  const opsUrl = ops && (await listening(ops, config.opsPort ?? 0, config.opsHost));

  let stopped: Promise<void> | undefined;
  const stop = async (graceMs: number) => {
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) if (!answering.has(socket)) socket.destroy();
    const timer = setTimeout(() => {
      for (const [socket, responses] of answering) {
        for (const res of responses) sendError(res, new ProxyError(503, 'shutting_down', 'The proxy is shutting down; try again.'));
        socket.destroySoon();
      }
    }, graceMs);
    ops?.closeAllConnections();
    await Promise.all([closed, ops && new Promise((resolve) => ops.close(resolve))]);
    clearTimeout(timer);
    await app.close();
  };
  return {
    app,
    server,
    url,
    opsUrl,
    close: (graceMs = config.timeout) => (stopped ??= stop(graceMs)),
  };
}
