// Child process of the isolation suite: one hostile client doing one attack of issues 20 and 30 against
// the proxy until it is killed, in a process of its own so that its work is not counted in the latency
// the suite measures from a second client. It writes a "." for each unit of its work done (a request
// answered or refused, a connection held, closed by the proxy, or a batch of pipelined requests sent),
// so that the suite measures for as long as the attack takes to bite rather than for a fixed time.
import { connect, type Socket } from 'node:net';
import { Agent, fetch } from 'undici';
import { resettingClient, silentClient } from '../fixtures/raw-http.ts';

interface AttackTarget {
  proxy: string;
  /** `host:port` of the allowlisted external documentation host. */
  externalHost: string;
  upstream: string;
  /** Fragments of distinct sections of `/large.html`. */
  largeFragments: string[];
}

type Attack =
  | 'reset'
  | 'hold'
  | 'selector'
  | 'hostile-pages'
  | 'large-sections'
  | 'reconnect'
  | 'pipeline'
  | 'pipeline-4'
  | 'unrouted'
  | 'metrics'
  | 'large-answers';

/** Told apart from the measuring client (127.0.0.1) by its address: another client to the proxy. */
const HOSTILE_ADDRESS = '127.0.0.2';
const dispatcher = new Agent({ connect: { localAddress: HOSTILE_ADDRESS }, connections: 256 });
const HOSTILE_PAGES = ['/deep.html', '/spans.html', '/misnested.html', '/rows.html'];
const UPGRADE = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
const CONNECT = 'CONNECT docs.example.org:443 HTTP/1.1\r\nHost: docs.example.org:443\r\n\r\n';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const did = () => process.stdout.write('.');
const PIPELINED = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(200);

/** Opens connections from the hostile address one after another, each as soon as the one before is closed. */
async function reopening(port: number, use: (socket: Socket) => void, pauseMs: number): Promise<never> {
  for (;;) {
    await new Promise<void>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: HOSTILE_ADDRESS });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        did();
        resolve();
      });
      use(socket);
    });
    await sleep(pauseMs);
  }
}

/** A connection holding its slot with half-sent headers, opened again as soon as the proxy closes it. */
const reconnecting = (port: number) =>
  reopening(port, (socket) => socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Half: ')), 10);

/** One connection writing 200 pipelined /healthz at a time, the next 200 as soon as answers come; reopened when closed. */
const pipelining = (port: number) =>
  reopening(
    port,
    (socket) => {
      const batch = () => socket.write(PIPELINED, (error) => error || did());
      socket.on('data', () => {
        if (socket.writableLength === 0) batch();
      });
      socket.on('connect', batch);
    },
    5,
  );

/**
 * Keeps `parallel` requests going, each lane pausing `pauseMs` between its requests: one client's
 * pace (a few hundred requests a second at most), not a flood of requests any server spends its
 * time answering, whatever they ask.
 */
async function flood(parallel: number, request: (index: number) => Promise<unknown>, pauseMs = 10): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (;;) {
        await request(next++).catch(() => undefined);
        did();
        if (pauseMs) await sleep(pauseMs);
      }
    }),
  );
}

async function run(attack: Attack, target: AttackTarget): Promise<void> {
  const port = Number(new URL(target.proxy).port);
  const get = (path: string, method = 'GET') =>
    fetch(`${target.proxy}${path}`, { method, dispatcher }).then((response) => response.arrayBuffer());
  const embed = (url: string, extra = '') => get(`/api/v3/embed/?url=${encodeURIComponent(url)}${extra}`);
  switch (attack) {
    case 'reset':
      return flood(4, (i) => resettingClient(port, i % 2 ? UPGRADE : CONNECT, HOSTILE_ADDRESS));
    case 'hold':
      // Twenty more every half second, none ever closed by the client.
      for (;;) {
        for (let i = 0; i < 20; i++) {
          await silentClient(port, i % 4 ? 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Half: ' : UPGRADE, HOSTILE_ADDRESS);
          did();
        }
        await sleep(500);
      }
    case 'selector':
      return flood(4, (i) =>
        embed(
          i % 2 ? `http://${target.externalHost}/ordinary.html` : `${target.upstream}/en/latest/page.html`,
          `&maincontent=${encodeURIComponent('*:has(~ * ~ * ~ * ~ * ~ *)')}`,
        ),
      );
    case 'hostile-pages':
      return flood(4, (i) =>
        embed(
          i % 5 === 4
            ? `${target.upstream}/en/latest/deep.html?v=${i}#s`
            : `http://${target.externalHost}${HOSTILE_PAGES[i % HOSTILE_PAGES.length]}?v=${i}#s`,
          '&form=preview',
        ),
      );
    case 'large-sections':
      return flood(16, (i) =>
        embed(
          `http://${target.externalHost}/large.html?v=${i}#${target.largeFragments[i % target.largeFragments.length]}`,
          '&form=preview',
        ),
      );
    case 'reconnect':
      return void (await Promise.all(Array.from({ length: 200 }, () => reconnecting(port))));
    case 'pipeline':
      return pipelining(port);
    case 'pipeline-4':
      return void (await Promise.all(Array.from({ length: 4 }, () => pipelining(port))));
    case 'unrouted':
      return flood(16, (i) => (i % 2 ? get(`/wp-admin/${i}`) : get('/healthz', 'POST')), 0);
    case 'metrics':
      return flood(16, () => get('/metrics'), 0);
    case 'large-answers':
      return flood(200, (i) => get(`/api/v3/search/?q=large${i}`), 0);
  }
}

process.stdout.write('started\n');
await run(process.argv[2] as Attack, JSON.parse(process.argv[3]!) as AttackTarget);
