import { describe, expect, it } from 'vitest';
import { abbreviating } from './abbreviated-names.ts';

/** Each case's query (stop words left out, as the ranking reads it), a name, and how many words the name says. */
type Case = [query: string, name: string, said: number];

const expectSaid = (cases: readonly Case[]) => {
  const read = cases.map(([query, name]) => [query, name, abbreviating(query.split(' '))(name)]);
  expect(read).toEqual(cases);
};

describe('abbreviating', () => {
  it('reads a name whose parts start distinct words of the query, in any order', () => {
    expectSaid([
      ['forward fill missing values', 'ffill', 2],
      ['count distinct items', 'dcount', 2],
      ['power one way anova f test', 'FTestAnovaPower', 4],
      ['two sample widget test', 'wtest_2samp', 4],
      ['kolmogorov smirnov test two samples', 'ks_2samp', 4],
      ['regular expression name', 'rename', 3],
      // A number word as a digit, and a letter glued after it.
      ['one dimensional spline', 'Spline1D', 3],
      ['two dimensional widget grid', 'widgetgrid2d', 4],
    ]);
  });

  it('leaves names read without a letter of a word to the names rule', () => {
    expectSaid([
      ['sky coordinates', 'SkyCoord', 0],
      ['confidence interval proportion', 'conf_int', 0],
      // Nor in another order, but by a letter: words whole and cut to three letters make English compounds.
      ['file transfer protocol', 'Profile', 0],
      ['deviance residuals', 'resid_deviance', 0],
    ]);
  });

  it('reads no name that matches too easily', () => {
    expectSaid([
      // A word's own form, one word only, words joined by underscores.
      ['queue service', 'Queues', 0],
      ['covariance function', 'covar', 0],
      ['level isolation', 'isolation_level', 0],
      // Three letters; a cut of two letters; two words cut to a letter each; a letter alone as a part; a letter last.
      ['read fits header', 'ref', 0],
      ['angular separation value', 'sevalue', 0],
      ['get file directory', 'gdfile', 0],
      ['two sample test', 't_test', 0],
      ['two dimensional grid', 'grid_2_d', 0],
      ['start log file every day', 'startfile', 0],
      // Words cut short and a letter, none whole, two words only.
      ['proportion binomial', 'prob', 0],
    ]);
  });

  it('reads a long query and a long name in bounded time', () => {
    // Ten words that start one another: each place of the name may be read by most of them, once per set of words used.
    const words = ['x', ...Array.from({ length: 9 }, (_, at) => 'xy'.repeat(at + 1))].join(' ');
    expectSaid([
      [words, `x${'xy'.repeat(30)}`, 10],
      [words, `x${'xy'.repeat(32)}`, 0],
    ]);
  });
});
