import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PagePool } from './page-pool.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doclens-page-pool-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the page threads', () => {
  it('do a job queued first ahead of those queued before it, in the order such jobs came', async () => {
    const threads = new PagePool(1);
    try {
      const done: string[] = [];
      const save = (name: string, first?: boolean) =>
        threads.run('parts', () => ({ folder: join(dir, name), parts: [{ name, json: '{}' }] }), first).then(() => done.push(name));
      // The one thread holds two jobs at once: the others wait in the queue.
      await Promise.all([save('a'), save('b'), save('c'), save('d', true), save('e', true), save('f')]);
      expect(done).toEqual(['a', 'b', 'd', 'e', 'c', 'f']);
    } finally {
      await threads.close();
    }
  });

  it('stop once, however often they are closed', async () => {
    const threads = new PagePool(1);
    const closing = threads.close();
    expect(threads.close()).toBe(closing);
    await closing;
  });
});
