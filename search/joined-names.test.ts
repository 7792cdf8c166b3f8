import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import { joinedNamePrefixes, namesJoinedAs } from './joined-names.ts';
import { WHOLE } from './terms.ts';

const vocabulary = (terms: string[]) => SearchableMap.from(terms.map((term) => [term, 1]));

describe('names typed without their separators', () => {
  it('finds the names whose parts, joined, are the word, and no name that only starts or holds it', () => {
    const words = vocabulary(['=to_datetime', '=to_date', '=pandas.to_datetime', '=get_object_or_404', 'todatetim', '=to_datetime_x']);
    expect(namesJoinedAs(words, 'todatetime', () => {})).toEqual(['=to_datetime']);
    expect(namesJoinedAs(words, 'getobjector404', () => {})).toEqual(['=get_object_or_404']);
    expect(namesJoinedAs(words, 'todat', () => {})).toEqual([]);
    expect(namesJoinedAs(words, 'pandastodatetime', () => {})).toEqual(['=pandas.to_datetime']);
  });

  it('reads a bounded number of prefixes however many ways the word splits', () => {
    // Every split of twenty letters into five parts is a name: thousands of ways to read the word.
    const splits = (rest: number, parts: number): number[][] =>
      parts === 1
        ? [[rest]]
        : Array.from({ length: rest - parts + 1 }, (_, at) => splits(rest - at - 1, parts - 1).map((tail) => [at + 1, ...tail])).flat();
    const names = splits(20, 5).map((lengths) => WHOLE + lengths.map((length) => 'a'.repeat(length)).join('_'));
    let read = 0;
    namesJoinedAs(vocabulary(names), 'a'.repeat(20), () => read++);
    expect(read).toBeLessThanOrEqual(1_000);
  });

  it('finds the same names among the terms under the prefixes static mode fetches first as among all', () => {
    const all = ['=to_datetime', '=tod', '=todo_list', '=t_x', '=to.date_time', 'todatetim', '=top_level', 'total'];
    const fetched = joinedNamePrefixes('todatetime');
    const under = all.filter((term) => fetched.some((prefix) => term.startsWith(prefix)));
    expect(namesJoinedAs(vocabulary(under), 'todatetime', () => {})).toEqual(namesJoinedAs(vocabulary(all), 'todatetime', () => {}));
    expect(namesJoinedAs(vocabulary(all), 'todatetime', () => {}).sort()).toEqual(['=to.date_time', '=to_datetime']);
  });
});
