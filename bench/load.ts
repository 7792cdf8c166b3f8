import { spawn } from 'node:child_process';
import { once } from 'node:events';
import autocannon, { type Request } from 'autocannon';
import { table } from './stats.ts';

interface Servers {
  host: string;
  proxy: string;
  ops: string;
}

/** A gauge from the proxy's /metrics (on its operations listener). */
async function gauge(ops: string, name: string): Promise<number> {
  const text = await (await fetch(`${ops}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Sustained mixed traffic at 100 connections: cache hits, misses, searches, previews, page contexts
 * and bad requests, with peak memory and the cache's size against its bound.
 */
export async function benchLoad(): Promise<void> {
  const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./servers.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_CACHE_BYTES: String(8 * 1024 * 1024) },
  });
  try {
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const servers = JSON.parse(line.toString()) as Servers;
    const page = (path: string) => encodeURIComponent(`${servers.host}/en/latest/${path}`);
    let miss = 0;
    const requests: Request[] = [
      { path: '/api/v3/search/?q=scheduler&page_size=5' },
      { path: '/api/v3/search/?q=retry' },
      { path: `/api/v3/embed/?url=${page('glossary.html#term-lease')}&doctool=sphinx&form=preview` },
      { path: `/api/v3/embed/?url=${page('api/scheduler.html#aurora.Scheduler.add_job')}&doctool=sphinx&form=preview` },
      { path: `/api/v3/page-context/?url=${page('installation.html')}` },
      { path: '/api/v3/projects/aurora/versions/' },
      { path: '/api/v3/search/?q=x', setupRequest: (request: Request) => ({ ...request, path: `/api/v3/search/?q=lease+w${++miss}` }) },
      { path: '/api/v3/search/?page=0' },
      { path: `/api/v3/embed/?url=${encodeURIComponent('http://169.254.169.254/')}` },
      { path: '/api/v3/projects/aurora/builds/' },
    ];
    let peak = 0;
    let cachePeak = 0;
    const sampler = setInterval(() => {
      void gauge(servers.ops, 'process_resident_memory_bytes').then((value) => (peak = Math.max(peak, value)));
      void gauge(servers.ops, 'doclens_cache_bytes').then((value) => (cachePeak = Math.max(cachePeak, value)));
    }, 500);
    const result = await autocannon({ url: servers.proxy, connections: 100, duration: seconds, requests, timeout: 10 });
    clearInterval(sampler);
    const cacheMax = await gauge(servers.ops, 'doclens_cache_max_bytes');
    table(`Load: mixed traffic, 100 connections, ${seconds} s (hits, misses, previews, page contexts, bad requests)`, [
      ['measure', 'value'],
      ['requests', `${result.requests.total} (${result.requests.average.toFixed(0)}/s)`],
      ['2xx / 4xx (intended) / 5xx', `${result['2xx']} / ${result['4xx']} / ${result['5xx']}`],
      ['errors and timeouts', `${result.errors} / ${result.timeouts}`],
      ['latency p50 / p99 / max', `${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms`],
      ['peak resident memory of the proxy process', mb(peak)],
      ['cache bytes, peak / bound', `${mb(cachePeak)} / ${mb(cacheMax)}`],
    ]);
  } finally {
    child.kill('SIGTERM');
  }
}
