import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { largeSphinxPage, searchResults } from './corpus.ts';
import { BASE_RSS_BYTES, bodyBytesInFlight, threadsBytes } from '../proxy/app/create-context.ts';
import { parseConfig } from '../proxy/config.ts';
import { percentile, table } from './stats.ts';

/** The `--cache-bytes` of the run. */
const CACHE_BYTES = 16 * 1024 * 1024;
/** The memory bound's terms for the run's configuration (docs/operators.md, "Memory"). */
const CONFIG = parseConfig({ upstream: 'http://upstream', token: 'bench', projects: ['aurora'], cacheBytes: CACHE_BYTES });
const TERMS: [string, number][] = [
  ['base', BASE_RSS_BYTES],
  ['cache', CACHE_BYTES],
  ['bodies in flight', bodyBytesInFlight(CONFIG)],
  ['threads', threadsBytes(CONFIG)],
];
const SEARCHES = 20_000;
const PAGES = 100;
/** Distinct searches asked at once whose answers are 9.5 MB (50 results of about 190 KB), under --max-response-bytes. */
const LARGE_ANSWERS = 200;
/** How long /healthz is measured at rest before the large answers, as a baseline. */
const BASELINE_MS = 10_000;
/** What issue 30 asks of /healthz meanwhile. */
const TARGET_P99_MS = 100;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs `count` tasks, `parallel` at a time. */
async function inParallel(count: number, parallel: number, task: (index: number) => Promise<unknown>): Promise<void> {
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
      // Written in parts, not joined: 200 copies of 9.5 MB would hold up this process, which measures /healthz.
      res.write(head);
      res.write(largeResults);
      return void res.end('}');
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
      return {
        rss: value('process_resident_memory_bytes'),
        cache: value('doclens_cache_bytes'),
        heap: value('nodejs_heap_size_used_bytes'),
        // The longest the proxy's event loop was held since the last scrape.
        lag: value('nodejs_eventloop_lag_max_seconds') * 1000,
      };
    };
    const idle = (await gauges()).rss;
    let peak = { rss: 0, cache: 0, heap: 0, lag: 0 };
    const higher = (sample: typeof peak) =>
      (peak = {
        rss: Math.max(peak.rss, sample.rss),
        cache: Math.max(peak.cache, sample.cache),
        heap: Math.max(peak.heap, sample.heap),
        lag: Math.max(peak.lag, sample.lag),
      });
    const sampler = setInterval(() => void gauges().then(higher), 200);
    const failures: string[] = [];
    const get = async (path: string) => {
      const response = await fetch(`${proxy}${path}`);
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${response.status} ${path.slice(0, 80)}`);
      return response.status;
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
    /** /healthz asked one at a time until `done` settles: its latencies, sorted. */
    const healthzUntil = async (done: Promise<unknown>) => {
      let asking = true;
      void done.finally(() => (asking = false));
      const latencies: number[] = [];
      while (asking) {
        const sent = performance.now();
        await get('/healthz');
        latencies.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return latencies.sort((a, b) => a - b);
    };
    // A baseline on the same machine, its load as it is now: the proxy at rest for as long as the large answers take.
    const baseline = await healthzUntil(new Promise((resolve) => setTimeout(resolve, BASELINE_MS)));
    // Then the large answers at once, and /healthz asked one at a time meanwhile.
    const largeStarted = performance.now();
    const large = Promise.all(Array.from({ length: LARGE_ANSWERS }, (_, i) => get(`/api/v3/search/?q=large${i}`)));
    const healthz = await healthzUntil(large);
    const answered = (await large).filter((status) => status === 200).length;
    const largeSeconds = (performance.now() - largeStarted) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
    clearInterval(sampler);
    const after = await gauges();
    higher(after);
    const bound = TERMS.reduce((total, [, bytes]) => total + bytes, 0);
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
        ["main thread's heap used, peak during the searches / overall", `${mb(afterSearches.heap)} / ${mb(peak.heap)}`],
        [
          '/healthz at rest for 10 s before them (the baseline): p50 / p99 / max',
          `${percentile(baseline, 50).toFixed(1)} / ${percentile(baseline, 99).toFixed(1)} / ${baseline.at(-1)?.toFixed(1)} ms`,
        ],
        [
          `${LARGE_ANSWERS} distinct 9.5 MB answers at once: seconds, /healthz p50 / p99 / max`,
          `${largeSeconds.toFixed(0)} s, ${percentile(healthz, 50).toFixed(1)} / ${percentile(healthz, 99).toFixed(1)} / ` +
            `${(healthz.at(-1) ?? Number.NaN).toFixed(1)} ms (${healthz.length} asked; target p99 < ${TARGET_P99_MS} ms: ` +
            `${percentile(healthz, 99) < TARGET_P99_MS ? 'met' : 'MISSED'}); ${answered} answered`,
        ],
        [
          'resident memory, peak',
          `${mb(peak.rss)} (bound: ${TERMS.map(([term, bytes]) => `${term} ${mb(bytes)}`).join(' + ')} = ${mb(bound)}: ` +
            `${peak.rss <= bound ? 'within' : 'EXCEEDED'})`,
        ],
        [
          "the proxy's event loop held at most, during the searches / the pages / overall",
          `${afterSearches.lag.toFixed(0)} / ${afterPages.lag.toFixed(0)} / ${peak.lag.toFixed(0)} ms`,
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
