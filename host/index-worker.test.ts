import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoBuild } from '../test/fixtures/demo.ts';
import { SearchIndex } from '../search/index.ts';
import { Builder, type BuilderReply, SAVE_QUIET_MS } from './index-worker.ts';

const root = `${demoBuild}aurora/en/latest`;
const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.html')).sort();
const dir = mkdtempSync(join(tmpdir(), 'doclens-builder-'));
const { port1, port2 } = new MessageChannel();

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  port1.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The builder's next reply of `type`. */
function reply<T extends BuilderReply['type']>(type: T): Promise<Extract<BuilderReply, { type: T }>> {
  return new Promise((resolve) => {
    const listener = (message: BuilderReply) => {
      if (message.type !== type) return;
      port2.off('message', listener);
      resolve(message as Extract<BuilderReply, { type: T }>);
    };
    port2.on('message', listener);
  });
}

describe('the index builder', () => {
  it('makes no part of the saved index while searches come, and saves it once they pause', async () => {
    // Timers only: the builder still yields to its messages (setImmediate) as it indexes.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    // A slow saver: each part it makes would hold up a search that comes meanwhile.
    const made: string[] = [];
    vi.spyOn(SearchIndex.prototype, 'savedParts').mockImplementation(function* () {
      for (const name of ['head', 'terms-0', 'sections-0']) {
        made.push(name);
        yield { name, json: '{}' };
      }
    });
    new Builder(port1);
    const ready = reply('ready');
    port2.postMessage({ type: 'index', version: 1, root, files, cache: { dir, key: 'key' }, helpers: [] });
    expect(await ready).toEqual({ type: 'ready', version: 1, cached: false });
    // Searches 100 ms apart, each answered; between them, the file system's work of the saver (its
    // folder, file and first line) has time to be done.
    for (let id = 0; id < 10; id++) {
      const hits = reply('hits');
      port2.postMessage({ type: 'search', id, version: 1, text: 'retry policy', limit: 10 });
      expect((await hits).found?.count).toBeGreaterThan(0);
      await readFile(join(root, files[0]!));
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(made).toEqual([]);
    // Saved once searches pause.
    const saved = reply('saved');
    await vi.advanceTimersByTimeAsync(SAVE_QUIET_MS);
    expect(await saved).toEqual({ type: 'saved', version: 1, error: undefined });
    expect(made).toEqual(['head', 'terms-0', 'sections-0']);
  });
});
