import { afterEach, describe, expect, it } from 'vitest';
import { ExtractionPool, ExtractionRefused } from './pool.ts';

const pools: ExtractionPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(limits: Partial<ConstructorParameters<typeof ExtractionPool>[0]> = {}) {
  const created = new ExtractionPool({ threads: 1, timeLimitMs: 10_000, maxWaitMs: 30_000, maxQueued: 4, heapMb: 64, ...limits });
  pools.push(created);
  return created;
}

const page = (html: string) => ({
  page: new TextEncoder().encode(html),
  pageUrl: 'https://docs.example.org/a.html',
  fragment: 's',
  doctool: null,
  maincontent: null,
  preview: false,
});

describe('ExtractionPool', () => {
  it('extracts in a thread, and refuses HTML nested too deep as too_deep', async () => {
    const extraction = pool();
    expect(await extraction.run('section', page('<html><body><section id="s"><p>x</p></section></body></html>'))).toEqual({
      content: '<section id="s"><p>x</p></section>',
    });
    const refused = await extraction.run('section', page(`<html><body>${'<div>'.repeat(5000)}</body></html>`)).catch((error) => error);
    expect(refused).toBeInstanceOf(ExtractionRefused);
    expect(refused.reason).toBe('too_deep');
  });

  it('refuses jobs beyond its queue, and jobs that wait too long for a busy thread, as busy', async () => {
    const extraction = pool({ maxQueued: 2, maxWaitMs: 1, timeLimitMs: 120_000 });
    // Jobs wait for the thread to load its code, however long it takes.
    expect(await extraction.run('section', page('<p id="s">x</p>'))).toEqual({ content: '<p id="s">x</p>' });
    const rows = `<table>${'<tr><td>x</td></tr>'.repeat(2000)}</table>`;
    const jobs = Array.from({ length: 4 }, () => extraction.run('section', page(`<p id="s">x</p>${rows}`)).catch((error) => error));
    const reasons = (await Promise.all(jobs)).map((outcome) => (outcome instanceof ExtractionRefused ? outcome.reason : 'done'));
    // One runs, two wait past 1 ms, one finds the queue full.
    expect(reasons).toEqual(['done', 'busy', 'busy', 'busy']);
    expect(extraction.pending).toBe(0);
  });
});
