import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import type { HostEmbedJobs } from '../../host/embed-jobs.ts';
import { embedWorkingBytes } from '../../host/embed.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { ThreadPool } from '../../runtime/thread-pool.ts';
import { EMBED_GATE } from '../fixtures/embed-gate.ts';

/*
 * The Embed API parses pages in the host's embed threads: while a thread works on a large page (held
 * there by the test, see `gated-embed-worker.ts`), the main thread serves pages and the API, and embeds
 * beyond the threads' queue are refused as busy, in JSON.
 */
const TOKEN = 'test-token-0123456789';
let scratch: string;
let host: RunningHost;
const gate = new BroadcastChannel(EMBED_GATE);
const started: (() => void)[] = [];
// Jobs the thread said it started before the test waited for them: the queued job starts as soon as the first is released.
let unclaimed = 0;
gate.onmessage = (event) => {
  if (event.data !== 'started') return;
  const waiter = started.shift();
  if (waiter) waiter();
  else unclaimed++;
};
/** Settles once the embed thread has a job, which it holds until `release`. */
const nextJob = () =>
  new Promise<void>((resolve) => {
    if (unclaimed > 0) {
      unclaimed--;
      resolve();
    } else started.push(resolve);
  });
const release = () => gate.postMessage('release');

const sections = Array.from(
  { length: 2000 },
  (_, index) => `<section id="s${index}"><h2>Part ${index}</h2><p>Text ${index}.</p></section>`,
);

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'doclens-embed-threads-'));
  writeFileSync(
    join(scratch, 'big.html'),
    `<!DOCTYPE html><html><head><title>Big</title></head><body><main><h1>Big</h1>${sections.join('')}</main></body></html>`,
  );
  writeFileSync(
    join(scratch, 'index.html'),
    '<!DOCTYPE html><html><head><title>Home</title></head><body><main><h1>Home</h1></main></body></html>',
  );
  const embeds = new ThreadPool<HostEmbedJobs>(
    new URL('../fixtures/gated-embed-worker.ts', import.meta.url),
    { threads: 1, timeLimitMs: 600_000, maxWaitMs: 600_000, maxQueued: 1, workingBytes: 256 * 2 ** 20 },
    embedWorkingBytes,
  );
  const manifest = singleFolderManifest({ docs: scratch, project: 'big', version: 'latest', language: 'en' });
  host = await startHost({ manifest, token: TOKEN, port: 0, embeds });
});

afterAll(async () => {
  gate.close();
  await host?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const api = (path: string) => fetch(`${host.apiUrl}${path}`, { headers: { authorization: `Token ${TOKEN}` } });
const embed = (fragment: string) => api(`/api/v3/embed/?url=${encodeURIComponent(`${host.apiUrl}/en/latest/big.html#${fragment}`)}`);

describe('embeds in the host threads', () => {
  it('serves pages and the API while a thread works on a large page, and refuses embeds beyond its queue as busy', async () => {
    let answered = false;
    const first = embed('s1999').then((response) => {
      answered = true;
      return response;
    });
    await nextJob();
    // The page's working memory is reserved while the thread works on it, as the proxy's threads do.
    expect(host.embeds.reservedBytes).toBe(24 * statSync(join(scratch, 'big.html')).size);

    const page = await fetch(`${host.apiUrl}/en/latest/index.html`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Home</h1>');
    const projects = await api('/api/v3/projects/');
    expect(projects.status).toBe(200);
    expect(answered).toBe(false);

    // One embed waits for the thread; the queue holds no more.
    const queued = embed('s7');
    await vi.waitFor(() => expect(host.embeds.pending).toBe(2), { timeout: 60_000 });
    const refused = await embed('s8');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({ error: 'Every embed thread is busy: try again in a moment.', code: 'busy' });

    release();
    const done = await first;
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({
      fragment: 's1999',
      content: '<section id="s1999"><h2>Part 1999</h2><p>Text 1999.</p></section>',
    });
    await nextJob();
    release();
    expect(await (await queued).json()).toMatchObject({ fragment: 's7' });
    expect(host.embeds.reservedBytes).toBe(0);
  });
});
