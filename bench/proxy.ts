import { spawn } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { ms, percentile, table } from './stats.ts';

interface Servers {
  host: string;
  proxy: string;
  bare: string;
  hotPath: string;
  token: string;
  bytes: number;
}

async function load(url: string, seconds: number): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({ url, connections: 50, duration: seconds, pipelining: 1 });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const start = process.hrtime.bigint();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Cache-hit throughput against a bare node:http server, and the latency a cache miss adds. */
export async function benchProxy(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./servers.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const servers = JSON.parse(line.toString()) as Servers;
    const seconds = Number(process.env.BENCH_SECONDS ?? 5);
    // Alternating runs, so that neither side gets the quieter half of the machine.
    const bare = [];
    const proxy = [];
    for (let round = 0; round < 2; round++) {
      bare.push(await load(`${servers.bare}${servers.hotPath}`, seconds));
      proxy.push(await load(`${servers.proxy}${servers.hotPath}`, seconds));
    }
    const mean = (runs: { rps: number }[]) => runs.reduce((sum, run) => sum + run.rps, 0) / runs.length;
    const worst = (runs: { p99: number }[]) => Math.max(...runs.map((run) => run.p99));
    table(`Proxy cache hits (${servers.bytes} B search answer, 50 connections, ${2 * seconds} s each, autocannon)`, [
      ['server', 'req/s', 'p50', 'p99', 'errors', 'target'],
      [
        'bare node:http, same bytes',
        mean(bare).toFixed(0),
        `${bare[1]!.p50} ms`,
        `${worst(bare)} ms`,
        String(bare.reduce((n, run) => n + run.errors, 0)),
        '',
      ],
      [
        'doclens proxy, cache hit',
        mean(proxy).toFixed(0),
        `${proxy[1]!.p50} ms`,
        `${worst(proxy)} ms`,
        String(proxy.reduce((n, run) => n + run.errors, 0)),
        `${(mean(proxy) / mean(bare)).toFixed(2)}× bare (target ≥ 0.5×)`,
      ],
    ]);

    const direct: number[] = [];
    const through: number[] = [];
    const auth = { authorization: `Token ${servers.token}` };
    for (let i = 0; i < 300; i++) {
      // Distinct queries, so every proxy request is a miss; the upstream sees the same query both ways.
      const words = `retry${i} policy`;
      const viaProxy = () => timed(`${servers.proxy}/api/v3/search/?q=${encodeURIComponent(words)}`, {});
      const viaHost = () => timed(`${servers.host}/api/v3/search/?q=${encodeURIComponent(`project:aurora ${words}`)}`, auth);
      if (i % 2) {
        direct.push(await viaHost());
        through.push(await viaProxy());
      } else {
        through.push(await viaProxy());
        direct.push(await viaHost());
      }
    }
    const sorted = (values: number[]) => values.slice(30).sort((a, b) => a - b);
    const [d, t] = [sorted(direct), sorted(through)];
    table('Proxy cache misses (300 distinct searches, sequential, same upstream query)', [
      ['path', 'p50', 'p99', 'target'],
      ['upstream directly', ms(percentile(d, 50)), ms(percentile(d, 99)), ''],
      ['through the proxy (miss)', ms(percentile(t, 50)), ms(percentile(t, 99)), ''],
      ['added by the proxy', ms(percentile(t, 50) - percentile(d, 50)), '', 'target < 2 ms p50'],
    ]);
  } finally {
    child.kill('SIGTERM');
  }
}
