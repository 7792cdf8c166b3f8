import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { largeSphinxPage, searchResults } from './corpus.ts';
import { percentile, table } from './stats.ts';

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
/** Distinct searches asked at once whose answers are 9.5 MB (50 results of about 190 KB), under --max-response-bytes. */
const LARGE_ANSWERS = 200;
/** What issue 30 asks of /healthz meanwhile. */
const TARGET_P99_MS = 100;

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
  // Serialized once, around the query each answer names: this process measures /healthz too.
  const largeResults = Buffer.from(JSON.stringify(searchResults(50, () => 'lease retry scheduler '.repeat(8600))));
  const upstream = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const q = url.searchParams.get('q') ?? '';
    if (url.pathname === '/api/v3/search/' && / large\d/.test(q)) {
      const head = Buffer.from(`{"count":50,"next":null,"previous":null,"projects":[],"query":${JSON.stringify(q)},"results":`);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(head.length + largeResults.length + 1) });
      return void res.end(Buffer.concat([head, largeResults, Buffer.from('}')]));
    }
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
    const afterPages = { ...peak };
    // Then the large answers at once, and /healthz asked one at a time meanwhile.
    const largeStarted = performance.now();
    let asking = true;
    const healthz: number[] = [];
    const asked = Promise.all(Array.from({ length: LARGE_ANSWERS }, (_, i) => get(`/api/v3/search/?q=large${i}`))).finally(
      () => (asking = false),
    );
    while (asking) {
      const sent = performance.now();
      await get('/healthz');
      healthz.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await asked;
    const largeSeconds = (performance.now() - largeStarted) / 1000;
    healthz.sort((a, b) => a - b);
    await new Promise((resolve) => setTimeout(resolve, 500));
    clearInterval(sampler);
    const after = await gauges();
    peak = { rss: Math.max(peak.rss, after.rss), cache: Math.max(peak.cache, after.cache), heap: Math.max(peak.heap, after.heap) };
    const bound = CACHE_BYTES + FIXED_OVERHEAD_BYTES;
    table(
      `Memory: ${SEARCHES.toLocaleString('en')} distinct ~1,000-character searches, ` +
        `then ${PAGES} distinct ${mb(html.length)} external pages, then ${LARGE_ANSWERS} distinct 9.5 MB answers at once, ` +
        `--cache-bytes ${CACHE_BYTES} ` +
        `(${searchSeconds.toFixed(0)} s + ${(totalSeconds - searchSeconds).toFixed(0)} s + ${largeSeconds.toFixed(0)} s)`,
      [
        ['measure', 'value'],
        ['resident memory, idle after start', mb(idle)],
        [
          'resident memory, peak during the searches / the pages / overall',
          `${mb(afterSearches.rss)} / ${mb(afterPages.rss)} / ${mb(peak.rss)}`,
        ],
        ['heap used, peak during the searches / overall', `${mb(afterSearches.heap)} / ${mb(peak.heap)}`],
        [
          `${LARGE_ANSWERS} distinct 9.5 MB answers at once: seconds, /healthz p50 / p99 / max`,
          `${largeSeconds.toFixed(0)} s, ${percentile(healthz, 50).toFixed(1)} / ${percentile(healthz, 99).toFixed(1)} / ` +
            `${(healthz.at(-1) ?? Number.NaN).toFixed(1)} ms (${healthz.length} asked; target p99 < ${TARGET_P99_MS} ms: ` +
            `${percentile(healthz, 99) < TARGET_P99_MS ? 'met' : 'MISSED'})`,
        ],
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
