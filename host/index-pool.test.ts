import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoBuild } from '../test/fixtures/demo.ts';
import { IndexPool } from './index-pool.ts';

const root = `${demoBuild}aurora/en/latest`;
const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.html')).sort();
const pools: IndexPool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** The best pages for each query, from a pool that splits pages with helpers from `helpedFromPages` pages on. */
async function answers(helpedFromPages: number, queries: string[]): Promise<unknown[]> {
  const pool = new IndexPool(helpedFromPages);
  pools.push(pool);
  await pool.index(1, root, files).ready;
  return Promise.all(queries.map((query) => pool.search(1, query, 10)));
}

describe('index threads', () => {
  it('build the same index with helpers splitting pages as the builder alone', async () => {
    const queries = ['scheduler', 'retry policy', 'how do I deploy workers', 'aurora.Scheduler.add_job'];
    const alone = await answers(Number.POSITIVE_INFINITY, queries);
    expect(alone.every((found) => (found as { count: number }).count > 0)).toBe(true);
    expect(await answers(0, queries)).toEqual(alone);
  });

  it('answer a search made while a saved index loads once it is loaded, complete, not with nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doclens-pool-'));
    try {
      const cache = { dir, key: 'key' };
      const first = new IndexPool(Number.POSITIVE_INFINITY);
      pools.push(first);
      const built = first.index(1, root, files, cache);
      await built.saved;
      const expected = await first.search(1, 'retry policy', 10);
      // Restarted: the same version, its index in the cache, searched at once.
      const restarted = new IndexPool(Number.POSITIVE_INFINITY);
      pools.push(restarted);
      const loading = restarted.index(1, root, files, cache);
      const [found, ready] = await Promise.all([restarted.search(1, 'retry policy', 10), loading.ready]);
      expect(ready.cached).toBe(true);
      expect(found).toEqual(expected);
      expect(found?.complete).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
