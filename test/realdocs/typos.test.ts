import { describe, expect, it } from 'vitest';
import { editDistance } from '../../search/edit-distance.ts';
import { slipped, titleTypos } from './typos.ts';

describe('page titles typed with a slip', () => {
  it('makes one slip in the longest word, never at its first letter, of each kind in turn', () => {
    const slips = Array.from({ length: 8 }, (_, n) => slipped('run the scheduler', n));
    for (const slip of slips) {
      const [, , word] = slip.split(' ');
      expect(slip.replace(word!, 'scheduler'), slip).toBe('run the scheduler');
      expect(editDistance(word!, 'scheduler'), slip).toBe(1);
      expect(word![0]).toBe('s');
    }
    expect(new Set(slips).size).toBeGreaterThan(4);
    // An object's name slips in its longest part.
    expect(slipped('read_csv_files', 0).split('_').slice(0, 2)).toEqual(['read', 'csv']);
  });

  it('takes titles of plain words and objects’ own names, spread over the site, the same ones each run', () => {
    const titles = new Map<string, string>();
    for (let n = 0; n < 100; n++) titles.set(`guide${n}.html`, `Scheduling tasks ${n}`);
    titles.set('ref/kit.read_values.html', 'kit.read_values');
    titles.set('ref/kit.Scheduler.html', 'kit.Scheduler');
    titles.set('short.html', 'Run it');
    for (let n = 0; n < 20; n++) titles.set(`plain${n}.html`, ['Deployment', 'Routing requests', 'Writing templates', 'Signals'][n % 4]!);
    const typos = titleTypos(titles, 6);
    expect(typos).toEqual(titleTypos(titles, 6));
    expect(typos).toHaveLength(6);
    // Titles with digits are no reader's query; a title is taken once; names by their own name.
    expect(typos.map(({ query }) => query).sort()).toEqual(
      ['Scheduler', 'deployment', 'read_values', 'routing requests', 'signals', 'writing templates'].sort(),
    );
    for (const { query, typo } of typos) expect(typo).not.toBe(query);
  });
});
