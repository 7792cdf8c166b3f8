import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { etagOf } from '../http/cache.ts';
import { searchResponse } from '../services/search-response.ts';
import { readSearch } from '../upstream/read-search.ts';
import { JobRefused, type ExtractionLimits } from '../../runtime/thread-pool.ts';
import { proxyThreads, type ProxyThreads } from './pool.ts';

const pools: ProxyThreads[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(limits: Partial<ExtractionLimits> = {}) {
  const created = proxyThreads({ threads: 1, timeLimitMs: 10_000, maxWaitMs: 30_000, maxQueued: 4, workingBytes: 64 * 2 ** 20, ...limits });
  pools.push(created);
  return created;
}

const asked = { words: 'retry', page: 1, pageSize: 2, base: 'https://proxy.example.org' };

const page = (html: string) => ({
  page: new TextEncoder().encode(html),
  pageUrl: 'https://docs.example.org/a.html',
  fragment: 's',
  doctool: null,
  maincontent: null,
  preview: false,
});

describe('ThreadPool', () => {
  it('extracts in a thread, and refuses HTML nested too deep as too_deep', async () => {
    const extraction = pool();
    expect(await extraction.run('section', page('<html><body><section id="s"><p>x</p></section></body></html>'))).toEqual({
      content: '<section id="s"><p>x</p></section>',
    });
    const refused = await extraction.run('section', page(`<html><body>${'<div>'.repeat(5000)}</body></html>`)).catch((error) => error);
    expect(refused).toBeInstanceOf(JobRefused);
    expect(refused.reason).toBe('too_deep');
  });

  it('refuses jobs beyond its queue, and jobs that wait too long for a busy thread, as busy', async () => {
    const extraction = pool({ maxQueued: 2, maxWaitMs: 1, timeLimitMs: 120_000 });
    // Jobs wait for the thread to load its code, however long it takes.
    expect(await extraction.run('section', page('<p id="s">x</p>'))).toEqual({ content: '<p id="s">x</p>' });
    const rows = `<table>${'<tr><td>x</td></tr>'.repeat(10_000)}</table>`;
    const jobs = Array.from({ length: 4 }, () => extraction.run('section', page(`<p id="s">x</p>${rows}`)).catch((error) => error));
    const reasons = (await Promise.all(jobs)).map((outcome) => (outcome instanceof JobRefused ? outcome.reason : 'done'));
    // One runs, two wait past 1 ms, one finds the queue full.
    expect(reasons).toEqual(['done', 'busy', 'busy', 'busy']);
    expect(extraction.pending).toBe(0);
  });

  it("reserves each job's working memory before it runs: a job waits for room as for a thread", async () => {
    // A search answer reserves 8 times its body: room for one of these at a time.
    const answer = JSON.stringify({ results: [{ title: 'x'.repeat(4 * 2 ** 20) }] });
    const job = () => ({ chunks: [new TextEncoder().encode(answer)], reading: { version: 'v3' } as const, inScope: [], asked });
    const extraction = pool({ threads: 2, workingBytes: 12 * answer.length });
    // Both threads started and idle.
    await Promise.all([extraction.run('section', page('<p id="s">x</p>')), extraction.run('section', page('<p id="s">y</p>'))]);
    const first = extraction.run('search', job());
    const second = extraction.run('search', job());
    // A thread is idle, but there is no room for the second beside the first (it waits, within maxWaitMs, as for a thread).
    expect(extraction.reservedBytes).toBe(8 * answer.length);
    expect(extraction.pending).toBe(2);
    const [done, next] = await Promise.all([first, second]);
    expect(next).toEqual(done);
    expect(extraction.reservedBytes).toBe(0);
  });

  it("gives each thread a heap for its own code beside the jobs' working memory: a job within its reservation is done", async () => {
    // A pool with room for one 1 MB answer (8 MB): the thread's code at rest takes about 10 MB of heap more.
    const answer = JSON.stringify({ results: [{ project: { slug: 'p' }, title: 'x'.repeat(2 ** 20) }] });
    const job = () => ({ chunks: [new TextEncoder().encode(answer)], reading: { version: 'v3' } as const, inScope: ['p'], asked });
    const extraction = pool({ workingBytes: 8 * answer.length });
    for (let i = 0; i < 5; i++) expect(await extraction.run('search', job())).toHaveProperty('etag');
  });

  it('reads a search answer in a thread: rebuilt for the scope, serialized, compressed and tagged, its body moved there', async () => {
    const result = (slug: string) => ({
      type: 'page',
      project: { slug, alias: null },
      version: { slug: 'latest' },
      title: slug.repeat(512),
      path: '/p.html',
    });
    const upstream = {
      count: 2,
      next: 'https://upstream/next',
      previous: null,
      projects: [],
      results: [result('aurora'), result('other')],
    };
    const text = JSON.stringify(upstream);
    // In the chunks it came in, split anywhere.
    const chunks = [text.slice(0, 7), text.slice(7, 600), text.slice(600)].map((part) => new TextEncoder().encode(part));
    const transfer = chunks.map((chunk) => chunk.buffer);
    const output = await pool().run('search', { chunks, reading: { version: 'v3' }, inScope: ['aurora'], asked }, transfer);
    // Moved, not copied: the sender's views are empty.
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([0, 0, 0]);
    if ('refused' in output) throw new Error('refused');
    const serialized = Buffer.from(output.body);
    // The same bytes as the answer made at once on the main thread.
    const inScope = new Set(['aurora']);
    expect(serialized.toString()).toBe(JSON.stringify(searchResponse(readSearch(Buffer.from(text), { version: 'v3' }), inScope, asked)));
    expect(JSON.parse(serialized.toString())).toMatchObject({
      count: 1,
      next: 'https://proxy.example.org/api/v3/search/?q=retry&page=2&page_size=2',
      results: [{ project: { slug: 'aurora' } }],
    });
    expect(output.etag).toBe(etagOf(serialized));
    expect(brotliDecompressSync(output.br!).equals(serialized)).toBe(true);
    expect(gunzipSync(output.gzip!).equals(serialized)).toBe(true);
  });

  it.runIf(process.platform === 'linux')('starts a thread when warmed, before any job needs one', () => {
    const before = readdirSync('/proc/self/task').length;
    pool().warm();
    expect(readdirSync('/proc/self/task').length).toBeGreaterThan(before);
  });

  it('refuses a search answer that is not JSON with the error the proxy answers', async () => {
    const chunks = [new TextEncoder().encode('{"results": [')];
    expect(await pool().run('search', { chunks, reading: { version: 'v2', query: 'retry' }, inScope: [], asked })).toEqual({
      refused: { status: 502, code: 'upstream_invalid_response', message: 'The hosting service answered with a body that is not JSON.' },
    });
  });
});

/** Whether a thread of this process runs at a lower priority than the main thread, from /proc (Linux). */
const lowered = () =>
  readdirSync('/proc/self/task').some(
    (tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]) > getPriority(),
  );

describe.runIf(process.platform === 'linux')('ThreadPool priority', () => {
  it('runs a job at the main thread priority, lowers a thread whose job runs long, and replaces it after that job', async () => {
    // Lowered on a busy machine, the long job takes more than the default 10 s on the clock: the time limit is not what
    // this test is about (it refused the job once in CI, the machine shared).
    const extraction = pool({ workingBytes: 1024 * 2 ** 20, timeLimitMs: 60_000 });
    await extraction.run('section', page('<p id="s">x</p>'));
    // A reader's preview is not held behind other work on a busy machine.
    expect(lowered()).toBe(false);
    // Well over the foreground's CPU time on any machine (the job would otherwise end unlowered).
    const rows = `<table>${'<tr><td>x</td></tr>'.repeat(200_000)}</table>`;
    const long = extraction.run('section', page(`<p id="s">x</p>${rows}`));
    // Once it has used its CPU time in the foreground, seconds on a busy machine.
    await vi.waitFor(() => expect(lowered()).toBe(true), { timeout: 20_000, interval: 20 });
    await long;
    expect(extraction.pending).toBe(0);
    // The next job gets a thread at the main thread's priority again.
    expect(await extraction.run('section', page('<p id="s">y</p>'))).toEqual({ content: '<p id="s">y</p>' });
    // Once the lowered thread has exited.
    await vi.waitFor(() => expect(lowered()).toBe(false), { timeout: 5000, interval: 10 });
  }, 120_000);
});

describe.runIf(process.platform === 'linux')('ThreadPool on a busy machine', () => {
  it('keeps a job that waits for a core at the main thread priority, in the same thread: only CPU time counts', async () => {
    const before = new Set(readdirSync('/proc/self/task'));
    // Starved, a job takes seconds on the clock: the time limit is not what this test is about.
    const extraction = pool({ timeLimitMs: 60_000 });
    await extraction.run('section', page('<p id="s">x</p>'));
    // The pool's thread, and any that Node started beside it.
    const tids = readdirSync('/proc/self/task').filter((id) => !before.has(id));
    // The thread as starved as a busy machine can make it: lowest priority, a thread keeping each core busy, spinning
    // before the job starts (the job once ended in 100 ms on the clock, not starved).
    for (const tid of tids) setPriority(Number(tid), 19);
    const busy = Array.from({ length: availableParallelism() }, () => new Worker('for (;;) {}', { eval: true }));
    try {
      await Promise.all(busy.map((thread) => once(thread, 'online')));
      const started = Date.now();
      // Tens of milliseconds of CPU time (10,000 rows took 250–600 ms on some machines: too near the foreground's 500).
      const rows = `<table>${'<tr><td>x</td></tr>'.repeat(1_000)}</table>`;
      await extraction.run('section', page(`<p id="s">x</p>${rows}`));
      // Longer on the clock than a job may run in the foreground, though its CPU time was far less.
      expect(Date.now() - started).toBeGreaterThan(500);
    } finally {
      await Promise.all(busy.map((thread) => thread.terminate()));
    }
    expect(await extraction.run('section', page('<p id="s">y</p>'))).toEqual({ content: '<p id="s">y</p>' });
    // Not lowered, so not replaced: the same thread took the next job.
    expect(readdirSync('/proc/self/task')).toEqual(expect.arrayContaining(tids));
  }, 60_000);

  it('runs the jobs of a background pool below the main thread from its start, in a thread kept for the next', async () => {
    const background = pool({ background: true });
    expect(await background.run('section', page('<p id="s">x</p>'))).toEqual({ content: '<p id="s">x</p>' });
    expect(lowered()).toBe(true);
    const tasks = readdirSync('/proc/self/task').length;
    expect(await background.run('section', page('<p id="s">y</p>'))).toEqual({ content: '<p id="s">y</p>' });
    // The same thread: none stopped, none started.
    expect(readdirSync('/proc/self/task').length).toBe(tasks);
    expect(lowered()).toBe(true);
  });
});
