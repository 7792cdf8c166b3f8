// Child process of the isolation suite: one hostile client doing one attack of issue 20 against the
// proxy until it is killed, in a process of its own so that its work is not counted in the latency
// the suite measures from a second client.
import { resettingClient, silentClient } from '../fixtures/raw-http.ts';

interface AttackTarget {
  proxy: string;
  /** `host:port` of the allowlisted external documentation host. */
  externalHost: string;
  upstream: string;
  /** Fragments of distinct sections of `/large.html`. */
  largeFragments: string[];
}

type Attack = 'reset' | 'hold' | 'selector' | 'hostile-pages' | 'large-sections';

/** Told apart from the measuring client by X-Forwarded-For: each has its own rate limit, the default one. */
const HOSTILE_CLIENT = '203.0.113.66';
const HOSTILE_PAGES = ['/deep.html', '/spans.html', '/misnested.html', '/rows.html'];
const UPGRADE = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
const CONNECT = 'CONNECT docs.example.org:443 HTTP/1.1\r\nHost: docs.example.org:443\r\n\r\n';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
        if (pauseMs) await sleep(pauseMs);
      }
    }),
  );
}

async function run(attack: Attack, target: AttackTarget): Promise<void> {
  const port = Number(new URL(target.proxy).port);
  const get = (path: string) =>
    fetch(`${target.proxy}${path}`, { headers: { 'x-forwarded-for': HOSTILE_CLIENT } }).then((response) => response.arrayBuffer());
  const embed = (url: string, extra = '') => get(`/api/v3/embed/?url=${encodeURIComponent(url)}${extra}`);
  switch (attack) {
    case 'reset':
      return flood(4, (i) => resettingClient(port, i % 2 ? UPGRADE : CONNECT));
    case 'hold':
      // Twenty more every half second, none ever closed by the client.
      for (;;) {
        for (let i = 0; i < 20; i++) await silentClient(port, i % 4 ? 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Half: ' : UPGRADE);
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
  }
}

process.stdout.write('started\n');
await run(process.argv[2] as Attack, JSON.parse(process.argv[3]!) as AttackTarget);
