import type { RequestListener, ServerResponse } from 'node:http';
import type { ProxyContext } from '../context.ts';
import { ProxyError } from '../http/errors.ts';
import { sendError } from '../http/respond.ts';

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

/**
 * What only operators see, on the listener of `--ops-port` (loopback by default): `/metrics`, and
 * `/readyz` with the reason it is not ready (it names the upstream's and Redis' addresses). The public
 * `/readyz` says ready or not only.
 */
export function opsListener(context: ProxyContext): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(res, new ProxyError(405, 'method_not_allowed', `${req.method} is not allowed here.`, { allow: 'GET, HEAD' }));
    }
    if (path === '/metrics') {
      void context.metrics.render().then((text) => send(res, 200, context.metrics.contentType, text));
    } else if (path === '/readyz') {
      void context.readiness.check().then((answer) => {
        const body = answer.ready ? { status: 'ready' } : { status: 'not_ready', reason: answer.reason };
        send(res, answer.ready ? 200 : 503, 'application/json; charset=utf-8', JSON.stringify(body));
      });
    } else {
      sendError(res, new ProxyError(404, 'not_found', 'The operations listener serves /metrics and /readyz.'));
    }
  };
}
