import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { largeSphinxPage } from './corpus.ts';
import { table } from './stats.ts';

/** The `--cache-bytes` of the run. */
const CACHE_BYTES = 16 * 1024 * 1024;
/**
 * What the proxy process takes beyond `--cache-bytes`, as the operators' guide states it (measured with this
 * benchmark): Node and the proxy's code at rest (about 115 MB resident), two pages being parsed
 * beyond the cache, and what V8 and the allocator hold between collections (up to about 210 MB).
 */
export const FIXED_OVERHEAD_BYTES = 352 * 1024 * 1024;
const SEARCHES = 20_000;
const PAGES = 100;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs `count` tasks, `parallel` at a time. */
async function inParallel(count: number, parallel: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/**
 * Peak resident memory of the proxy after 20,000 distinct large searches and 100 distinct 1 MB
 * external pages with `--cache-bytes 16777216`, against the bound the operators' guide states.
 */
export async function benchMemory(): Promise<void> {
  const { html, fragments } = largeSphinxPage(1024 * 1024);
  const results = Array.from({ length: 10 }, (_, i) => ({
    type: 'page',
    project: { slug: 'aurora', alias: null },
    version: { slug: 'latest' },
    title: `Result ${i}`,
    domain: '',
    path: `/en/latest/r${i}.html`,
    highlights: { title: [] },
    blocks: [{ type: 'section', id: `s${i}`, title: 'Section', content: 'x'.repeat(300), highlights: { title: [], content: [] } }],
  }));
  const upstream = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const body =
      url.pathname === '/api/v3/projects/aurora/'
        ? {
            slug: 'aurora',
            name: 'Aurora',
            language: { code: 'en', name: 'English' },
            default_version: 'latest',
            urls: { documentation: 'https://docs.example.org/en/latest/' },
          }
        : url.pathname.startsWith('/api/v3/projects/')
          ? { count: 0, next: null, previous: null, results: [] }
          : {
              count: results.length,
              next: null,
              previous: null,
              projects: [{ slug: 'aurora', versions: [{ slug: 'latest' }] }],
              query: url.searchParams.get('q'),
              results,
            };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  const external = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  const upstreamHost = await listen(upstream);
  const externalHost = (await listen(external)).replace('127.0.0.1', 'localhost');
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./memory-proxy.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BENCH_UPSTREAM: `http://${upstreamHost}`,
      BENCH_EXTERNAL_HOST: externalHost,
      BENCH_CACHE_BYTES: String(CACHE_BYTES),
    },
  });
  try {
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const { proxy, ops } = JSON.parse(line.toString()) as { proxy: string; ops: string };
    const gauges = async () => {
      const text = await (await fetch(`${ops}/metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
      return { rss: value('process_resident_memory_bytes'), cache: value('doclens_cache_bytes'), heap: value('nodejs_heap_used_bytes') };
    };
    const idle = (await gauges()).rss;
    let peak = { rss: 0, cache: 0, heap: 0 };
    const sampler = setInterval(() => {
      void gauges().then(
        ({ rss, cache, heap }) =>
          (peak = { rss: Math.max(peak.rss, rss), cache: Math.max(peak.cache, cache), heap: Math.max(peak.heap, heap) }),
      );
    }, 200);
    const failures: string[] = [];
    const get = async (path: string) => {
      const response = await fetch(`${proxy}${path}`);
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${response.status} ${path.slice(0, 80)}`);
    };
    const started = performance.now();
    // As long as the proxy accepts once it adds the project term (the upstream takes 1,000 characters).
    const words = 'lease scheduler retry policy '.repeat(35).slice(0, 978);
    await inParallel(SEARCHES, 32, (i) => get(`/api/v3/search/?q=${encodeURIComponent(`${i} ${words}`.slice(0, 984))}`));
    const searchSeconds = (performance.now() - started) / 1000;
    const afterSearches = { ...peak };
    const pageUrl = (i: number) => encodeURIComponent(`http://${externalHost}/page${i}.html#${fragments[0]}`);
    await inParallel(PAGES, 8, (i) => get(`/api/v3/embed/?url=${pageUrl(i)}&form=preview`));
    const totalSeconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
    clearInterval(sampler);
    const after = await gauges();
    peak = { rss: Math.max(peak.rss, after.rss), cache: Math.max(peak.cache, after.cache), heap: Math.max(peak.heap, after.heap) };
    const bound = CACHE_BYTES + FIXED_OVERHEAD_BYTES;
    table(
      `Memory: ${SEARCHES.toLocaleString('en')} distinct ~1,000-character searches, ` +
        `then ${PAGES} distinct ${mb(html.length)} external pages, --cache-bytes ${CACHE_BYTES} ` +
        `(${searchSeconds.toFixed(0)} s + ${(totalSeconds - searchSeconds).toFixed(0)} s)`,
      [
        ['measure', 'value'],
        ['resident memory, idle after start', mb(idle)],
        ['resident memory, peak during the searches / overall', `${mb(afterSearches.rss)} / ${mb(peak.rss)}`],
        ['heap used, peak during the searches / overall', `${mb(afterSearches.heap)} / ${mb(peak.heap)}`],
        [
          'resident memory, peak',
          `${mb(peak.rss)} (bound: cache ${mb(CACHE_BYTES)} + fixed ${mb(FIXED_OVERHEAD_BYTES)} = ${mb(bound)}: ` +
            `${peak.rss <= bound ? 'within' : 'EXCEEDED'})`,
        ],
        ['resident memory at the end', mb(after.rss)],
        ['cache bytes, peak / bound', `${mb(peak.cache)} / ${mb(CACHE_BYTES)}`],
        ['answers other than 200', failures.length ? `${failures.length}: ${failures.slice(0, 3).join('; ')}` : '0'],
      ],
    );
  } finally {
    child.kill('SIGTERM');
    upstream.close();
    external.close();
  }
}
