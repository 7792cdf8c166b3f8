import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency.ts';

/** A task that runs until it is told to finish. */
function heldTask(log: string[], name: string) {
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish,
    run: async () => {
      log.push(`start ${name}`);
      await held;
      log.push(`end ${name}`);
      return name;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most its limit at once, the others in the order they came', async () => {
    const limit = new ConcurrencyLimit(2);
    const log: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => heldTask(log, name));
    const results = tasks.map((task) => limit.run(task.run));
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    tasks[1]?.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    for (const task of tasks) task.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(log.filter((line) => line.startsWith('start'))).toEqual(['start a', 'start b', 'start c', 'start d']);
  });

  it('hands the slot of a failed task on, and gives its caller the error', async () => {
    const limit = new ConcurrencyLimit(1);
    const failed = limit.run(() => Promise.reject(new Error('boom')));
    const next = limit.run(async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
    // The slot is free again: a newcomer runs at once.
    expect(await limit.run(async () => 'later')).toBe('later');
  });
});
