import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddress } from '../context.ts';
import { ProxyError } from './errors.ts';
import { sendError } from './respond.ts';

/**
 * Requests parsed from one connection and waiting for their turn; one more and the connection is
 * closed. Browsers and HTTP libraries never pipeline, so only a flood reaches this.
 */
export const MAX_PIPELINED = 16;

interface Turns {
  answering: boolean;
  waiting: [IncomingMessage, ServerResponse][];
}

/**
 * Shares the proxy between clients: connections are capped in all and per client address, and the requests of
 * one connection are handled one at a time, each next one after the event loop has served everyone
 * else (`setImmediate`), so a connection writing hundreds of pipelined requests at once gets one
 * answer per turn, as any other connection. Behind trusted reverse proxies, whose connections carry
 * many clients, the cap counts each forwarded client's requests in flight instead (429 beyond it).
 */
export class FairShare {
  private readonly connections = new Map<string, number>();
  private open = 0;
  private readonly inFlight = new Map<string, number>();
  private readonly turns = new WeakMap<Socket, Turns>();

  constructor(
    private readonly maxConnections: number,
    private readonly perClient: number,
    private readonly trustedHops: number,
  ) {}

  /**
   * Counts a new connection; false (and the socket destroyed) when all connections are taken, or its
   * address has its share. Counted here rather than by Node's `maxConnections`, which also counts the
   * connections refused a moment ago until they are closed: a client reopening them as fast as they
   * are refused would take the slots of everyone else.
   */
  admit(socket: Socket): boolean {
    const address = this.trustedHops > 0 ? undefined : (socket.remoteAddress ?? 'unknown');
    const ofAddress = address === undefined ? 0 : (this.connections.get(address) ?? 0);
    if (this.open >= this.maxConnections || ofAddress >= this.perClient) {
      socket.destroy();
      return false;
    }
    this.open++;
    if (address !== undefined) this.connections.set(address, ofAddress + 1);
    socket.once('close', () => {
      this.open--;
      if (address !== undefined) release(this.connections, address);
    });
    return true;
  }

  /** `listener`, called for one request of a connection at a time, in turn with other connections. */
  listener(listener: RequestListener): RequestListener {
    const answer: RequestListener = (req, res) => {
      if (this.trustedHops === 0) return listener(req, res);
      const client = clientAddress(req, this.trustedHops);
      const running = this.inFlight.get(client) ?? 0;
      if (running >= this.perClient) {
        const message = 'Too many requests at once from this client; wait for the answers.';
        return sendError(res, new ProxyError(429, 'rate_limited', message, { 'retry-after': '1' }));
      }
      this.inFlight.set(client, running + 1);
      res.once('close', () => release(this.inFlight, client));
      listener(req, res);
    };
    const next = (socket: Socket, turns: Turns) => {
      const waiting = turns.waiting.shift();
      // A closed connection's waiting requests are not answered (nor told: Node closes only the current one).
      if (!waiting || socket.destroyed) {
        turns.waiting.length = 0;
        turns.answering = false;
        return;
      }
      const [req, res] = waiting;
      res.once('close', () => setImmediate(next, socket, turns));
      answer(req, res);
    };
    return (req, res) => {
      const socket = req.socket;
      let turns = this.turns.get(socket);
      if (!turns) {
        const created: Turns = { answering: false, waiting: [] };
        socket.once('close', () => (created.waiting.length = 0));
        this.turns.set(socket, created);
        turns = created;
      }
      if (turns.waiting.length >= MAX_PIPELINED) return void socket.destroy();
      turns.waiting.push([req, res]);
      if (turns.answering) return;
      turns.answering = true;
      next(socket, turns);
    };
  }
}

function release(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 1) - 1;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
