import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { largeSphinxPage, searchResults } from '../../bench/corpus.ts';
import { percentile } from '../../bench/stats.ts';
import { auroraProject, json, startFakeServer } from '../fixtures/proxy.ts';

/**
 * The proxy run as its own process (`doclens proxy`, so that a crash is a dead process and SIGTERM a
 * real signal), one hostile client doing one attack of issue 20 or 30 at a time (hostile-client.ts, in
 * a process of its own, from 127.0.0.2), and a second client (from 127.0.0.1) measuring /healthz and a
 * cache hit meanwhile. Used by the isolation and fairness suites (test/reliability/) and benchmarks.
 */
export const ATTACKS = [
  ['reset', '1. resets connections while upgrades and CONNECTs are refused'],
  ['hold', '2. holds connections with half-sent requests and unread refusals, never reading nor closing'],
  ['selector', '3. asks for sections with selectors of unbounded cost'],
  ['hostile-pages', '4. asks for sections of hostile pages, external and from the upstream, under ever new query strings'],
  ['large-sections', '5. bursts previews of distinct sections of a large page'],
] as const;

/** The attacks of issue 30: one client taking more than its share of connections, turns, or memory. */
export const FAIRNESS_ATTACKS = [
  ['reconnect', '1. holds 200 connections with half-sent requests, reopening each as it is closed'],
  ['pipeline', '2. pipelines 200 /healthz at a time on one connection'],
  ['pipeline-4', '2. pipelines 200 /healthz at a time on four connections'],
  ['unrouted', '2. floods unknown paths (404) and other methods (405), 16 at once'],
  ['metrics', '3. scrapes /metrics on the public port, 16 at once'],
  ['large-answers', '6. asks 200 distinct searches at once whose answers are 9.5 MB'],
] as const;
export type Attack = (typeof ATTACKS)[number][0] | (typeof FAIRNESS_ATTACKS)[number][0];

/** The end of a test's measurement: once the attack has done `units` of its work and the second client had `answers`. */
export interface Bite {
  units: number;
  answers: number;
}

export interface Measured {
  /** Answers the second client got. */
  count: number;
  /** Units of work the attack did meanwhile (hostile-client.ts writes one "." each). */
  units: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200, and requests that failed. */
  failures: string[];
  /** The proxy process's largest resident memory seen meanwhile, in bytes (sampled every 250 ms). */
  peakRss: number;
}

export interface IsolationRun {
  /**
   * Measures the second client while `attack` runs (none: the baseline) for `ms` (benchmarks), or
   * (tests) until the attack has bitten as `until` says, `ms` at most.
   */
  measure(attack: Attack | undefined, ms: number, until?: Bite): Promise<Measured>;
  alive(): boolean;
  /** Sends SIGTERM and resolves with the exit code. */
  terminate(): Promise<number | null>;
  close(): Promise<void>;
}

const TOKEN = 'isolation-suite-token-4e1f';
const cli = fileURLToPath(new URL('../../bin/doclens.js', import.meta.url));
const hostileClient = fileURLToPath(new URL('./hostile-client.ts', import.meta.url));

const body = (inner: string) => `<html><body><main><section id="s"><h1>S</h1><p>Text.</p>${inner}</section></main></body></html>`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Search results of about 190 KB each: 50 of them make an answer of 9.5 MB, under the default
 * --max-response-bytes. Serialized once, around the query each answer names: this process measures the
 * second client too, and serializing 9.5 MB per request would hold up its measuring.
 */
const largeResults = Buffer.from(JSON.stringify(searchResults(50, () => 'lease retry scheduler '.repeat(8600))));
const writeLargeAnswer = (res: ServerResponse, query: string) => {
  const head = Buffer.from(`{"count":50,"next":null,"previous":null,"projects":[],"query":${JSON.stringify(query)},"results":`);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(head.length + largeResults.length + 1) });
  res.write(head);
  res.write(largeResults);
  res.end('}');
};

export async function startIsolationRun(): Promise<IsolationRun> {
  const large = largeSphinxPage(1536 * 1024);
  const pages: Record<string, string> = {
    '/ordinary.html': body('<p>An ordinary page.</p>'.repeat(2000)),
    '/deep.html': body(`${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`),
    '/spans.html': body('<span>x'.repeat(100_000)),
    '/misnested.html': body('<b><i>x</b></i>'.repeat(20_000)),
    '/rows.html': body(`<table>${'<tr><td>x</td><td>y</td></tr>'.repeat(50_000)}</table>`),
    '/large.html': large.html,
  };
  const external = await startFakeServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  const externalHost = new URL(external.url).host.replace('127.0.0.1', 'localhost');
  const deepSection = `<section id="s"><h1>S</h1>${'<div>'.repeat(100_000)}x</section>`;
  const upstream = await startFakeServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname === '/api/v3/projects/aurora/') return json(res, 200, auroraProject(upstream.url));
    if (url.pathname.startsWith('/api/v3/projects/aurora/')) return json(res, 200, { count: 0, next: null, previous: null, results: [] });
    if (url.pathname === '/api/v3/search/') {
      const query = url.searchParams.get('q') ?? '';
      if (/^project:\S+ large/.test(query)) return writeLargeAnswer(res, query);
      return json(res, 200, { count: 0, next: null, previous: null, projects: [], query, results: [] });
    }
    if (url.pathname === '/api/v3/embed/') {
      const content = url.searchParams.get('url')?.includes('/deep.html') ? deepSection : '<section id="s"><h1>S</h1><p>x</p></section>';
      return json(res, 200, { url: url.searchParams.get('url'), fragment: 's', content, external: false });
    }
    json(res, 404, { detail: 'Not found.' });
  });
  const proxy: ChildProcessByStdio<null, Readable, Readable> = spawn(
    process.execPath,
    [
      cli,
      'proxy',
      ...['--upstream', upstream.url, '--project', 'aurora', '--external-domain', externalHost, '--allow-private-network'],
      // Clients are told apart by their addresses, each with its own limits: a high rate, for the measuring
      // client asks as fast as answers come (a quiet machine answers hundreds a second).
      ...['--port', '0', '--ops-port', '0', '--max-connections', '150', '--header-timeout', '500', '--extract-timeout', '2000'],
      ...['--rate-limit', '1000000'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DOCLENS_UPSTREAM_TOKEN: TOKEN } },
  );
  const exited = () => proxy.exitCode !== null || proxy.signalCode !== null;
  let output = '';
  const [proxyUrl, opsUrl] = await new Promise<[string, string]>((resolve, reject) => {
    // Log lines are read and dropped, so that the proxy never waits on a full pipe.
    proxy.stdout.on('data', (chunk: Buffer) => {
      if (output.length > 10_000) return;
      output += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)","ops_url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (match) resolve([match[1]!, match[2]!]);
    });
    proxy.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proxy.once('exit', (code) => reject(new Error(`the proxy exited with ${code}: ${output}`)));
  });

  const get = async (path: string) => {
    const response = await fetch(`${proxyUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.status;
  };
  if ((await get('/api/v3/search/?q=cached')) !== 200) throw new Error('the search to keep in the cache failed');

  /** Starts the hostile client on `attack` behind everything else: it stands for a machine elsewhere. */
  const startAttack = async (attack: Attack) => {
    const largeFragments = [...large.html.matchAll(/<dt class="sig[^>]* id="(r\d+-[^"]+)"/g)].map((match) => match[1]!);
    const target = { proxy: proxyUrl, externalHost, upstream: upstream.url, largeFragments };
    const client = spawn('nice', ['-n', '10', process.execPath, '--import', 'tsx', hostileClient, attack, JSON.stringify(target)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let units = 0;
    const count = (chunk: Buffer) => (units += chunk.toString().split('.').length - 1);
    count(...((await once(client.stdout, 'data')) as [Buffer]));
    client.stdout.on('data', count);
    return {
      units: () => units,
      stop: async () => {
        // It may have ended by itself (a failure of its own): then there is nothing to wait for.
        if (client.exitCode !== null || client.signalCode !== null) return;
        const exit = once(client, 'exit');
        client.kill('SIGKILL');
        await exit;
      },
    };
  };

  return {
    async measure(attack, ms, until) {
      const hostile = attack ? await startAttack(attack) : undefined;
      const units = () => hostile?.units() ?? 0;
      let peakRss = 0;
      const sampler = setInterval(() => {
        void fetch(`${opsUrl}/metrics`)
          .then((response) => response.text())
          .then((text) => (peakRss = Math.max(peakRss, Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1] ?? 0))))
          .catch(() => undefined);
      }, 250);
      const latencies: number[] = [];
      const failures: string[] = [];
      const bitten = () => until !== undefined && units() >= until.units && latencies.length >= until.answers;
      // One request at a time, alternating /healthz and the cached search.
      for (let i = 0, end = performance.now() + ms; performance.now() < end && !bitten(); i++) {
        const path = i % 2 ? '/api/v3/search/?q=cached' : '/healthz';
        const started = performance.now();
        try {
          const status = await get(path);
          latencies.push(performance.now() - started);
          if (status !== 200) failures.push(`${path}: ${status}`);
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
        await sleep(5);
      }
      clearInterval(sampler);
      const done = units();
      await hostile?.stop();
      latencies.sort((a, b) => a - b);
      return {
        peakRss,
        units: done,
        count: latencies.length,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? Number.NaN,
        failures,
      };
    },
    alive: () => !exited(),
    async terminate() {
      const exit = once(proxy, 'exit');
      proxy.kill('SIGTERM');
      const [code] = (await exit) as [number | null];
      return code;
    },
    async close() {
      if (!exited()) proxy.kill('SIGKILL');
      await Promise.all([upstream.close(), external.close()]);
    },
  };
}
