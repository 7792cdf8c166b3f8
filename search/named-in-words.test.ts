import { describe, expect, it } from 'vitest';
import type { IndexedSection } from './fields.ts';
import { namedInWords, wordsNaming } from './named-in-words.ts';

const words = (query: string) => query.split(' ');

describe('wordsNaming', () => {
  it('reads a name as the initials of consecutive words, or as whole words and initials glued', () => {
    expect(wordsNaming(words('weighted least squares'))('WLS')).toBe(3);
    expect(wordsNaming(words('empirical cumulative distribution function'))('ECDF')).toBe(4);
    expect(wordsNaming(words('kolmogorov smirnov test'))('kstest')).toBe(3);
    expect(wordsNaming(words('recursive least squares'))('RecursiveLS')).toBe(3);
    expect(wordsNaming(words('read hierarchical data format file'))('read_hdf')).toBe(4);
    expect(wordsNaming(words('unobserved components model'))('UnobservedComponents')).toBe(2);
  });

  it('reads words cut to their first letters where the name says all the words of a query of three and more', () => {
    const cases: [query: string, name: string, said: number][] = [
      ['bayesian gaussian multiple imputation', 'BayesGaussMI', 4],
      ['simple exponential smoothing', 'SimpleExpSmoothing', 3],
      ['get marginal effects', 'get_margeff', 3],
      // Not a cut of another word ("avg" of "average"), nor a word as a whole ("scale" of "scales": `timescale` is a
      // compound), nor a name that says some of the words only, nor two words (`SkyCoord` no more than a guide).
      ['average marginal effects', 'get_avgmargeff', 0],
      ['time scales utc', 'timescaleutc', 0],
      ['config environment variables', 'from_envvar', 0],
      ['sky coordinates', 'SkyCoord', 0],
    ];
    for (const [query, name, said] of cases) expect([query, wordsNaming(words(query))(name)]).toEqual([query, said]);
  });

  it('reads a name by its last parts for half a word less', () => {
    expect(wordsNaming(words('write comma separated values file'))('to_csv')).toBe(2.5);
    expect(wordsNaming(words('world coordinate system'))('BaseLowLevelWCS')).toBe(2.5);
    expect(wordsNaming(words('world coordinate system'))('WCS')).toBe(3);
  });

  it('reads no name where the words do not make it as a reader would write it', () => {
    // One word's initial beside a whole word.
    expect(wordsNaming(words('amazon simple queue service'))('Queues')).toBe(0);
    // Words joined by underscores: a name spelled in words, read by the matching.
    expect(wordsNaming(words('isolation level'))('isolation_level')).toBe(0);
    expect(wordsNaming(words('isolation level'))('set_isolation_level')).toBe(0);
    expect(wordsNaming(words('expression trees'))('build_expression_tree')).toBe(0);
    // Words glued in lower case: an English compound as often as a name.
    expect(wordsNaming(words('time scales tdb utc'))('timescale')).toBe(0);
    // Two initials, or one word.
    expect(wordsNaming(words('least squares'))('LS')).toBe(0);
    expect(wordsNaming(words('wls'))('WLS')).toBe(0);
    // Words apart in the query (another token between them).
    expect(wordsNaming(['weighted', '', 'least', 'squares'])('WLS')).toBe(0);
  });

  it('reads a long query of one-letter words against a long name once per place', () => {
    const letters = Array.from({ length: 32 }, (_, at) => (at % 2 ? 'y' : 'x'));
    expect(wordsNaming(letters)('xy'.repeat(16))).toBe(32);
    expect(wordsNaming(letters)(`${'xy'.repeat(16)}q`)).toBe(0);
  });
});

describe('namedInWords', () => {
  const entry = (title: string, queryTerms: string[], apiName?: string) => {
    const section: IndexedSection = {
      id: 0,
      path: '',
      pageSections: 1,
      pageTitle: title,
      pageName: title,
      anchor: '',
      title,
      content: '',
      role: undefined,
    };
    if (apiName) Object.assign(section, { role: 'py:class', apiName, documented: true });
    return { section, result: { id: 0, score: 1, queryTerms, termScores: [], terms: [] } };
  };

  it('lifts an object only the initials found beside a page titled by them that the words find, not instead of it', () => {
    const page = entry('IERS data access', ['servic']);
    const object = entry('IERS', [], 'kit.utils.IERS');
    const other = entry('orientation_table', ['earth', 'rotat', 'servic'], 'kit.utils.orientation_table');
    expect(namedInWords([page, object, other], words('international earth rotation service'))).toEqual([page, object]);
  });

  it('lifts an object whose name abbreviates the words in an order of its own, half a word below one read in order', () => {
    const abbreviated = entry('dcount', ['distinct'], 'kit.Table.dcount');
    const other = entry('count', ['count', 'distinct', 'item'], 'kit.Table.count');
    expect(namedInWords([other, abbreviated], words('count distinct items'))).toEqual([abbreviated]);
    const inOrder = entry('CountDistinctItems', ['count'], 'kit.CountDistinctItems');
    expect(namedInWords([other, abbreviated, inOrder], words('count distinct items'))).toEqual([inOrder]);
  });

  it('reads the capitals of a title without the version after them', () => {
    const client = entry('imaplib — IMAP4 protocol client', ['protocol']);
    const other = entry('email.message: Representing an email message', ['messag']);
    expect(namedInWords([client, other], words('internet message access protocol'))).toEqual([client]);
  });
});
