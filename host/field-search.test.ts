import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { editDistance } from './search-terms.ts';
import { FieldSearch } from './field-search.ts';

const FIELDS = ['title', 'body'];
const TIE_BREAKER = 0.3;

/** Words of one to three letters changed, swapped, dropped and doubled, so that terms share prefixes and near spellings. */
const VOCABULARY = ['schedule', 'scheduler', 'schedules', 'shedule', 'scheudle', 'retry', 'retries', 'retires', 'entry', 'timeout'];
const more = ['timeouts', 'tiemout', 'lease', 'leases', 'please', 'jitter', 'jiter', 'jtiter', 'backoff', 'back', 'sched'];
const WORDS = [...VOCABULARY, ...more];

/** A document of words picked by a fixed rule, so that counts and lengths differ from one to the next. */
const documents = Array.from({ length: 120 }, (_, id) => ({
  id,
  title: WORDS.filter((_, index) => (id * 7 + index * 3) % 11 === 0).join(' '),
  body: Array.from({ length: 3 + (id % 9) }, (_, index) => WORDS[(id * 5 + index * index) % WORDS.length]).join(' '),
}));

function engine(): MiniSearch<(typeof documents)[number]> {
  const miniSearch = new MiniSearch<(typeof documents)[number]>({
    fields: FIELDS,
    searchOptions: { boost: { title: 3 }, weights: { prefix: 0.4, fuzzy: 0.3 } },
  });
  miniSearch.addAll(documents);
  return miniSearch;
}

/** The reference: `MiniSearch.search` of each field, joined by the best field with a tie breaker. */
function searchedByField(miniSearch: MiniSearch<(typeof documents)[number]>, term: string, prefix: boolean) {
  const joined = new Map<number, { id: number; score: number; others: number; words: string[] }>();
  for (const field of FIELDS) {
    for (const result of miniSearch.search(term, { prefix, fuzzy: false, fields: [field] })) {
      const held = joined.get(result.id as number);
      if (!held)
        joined.set(result.id as number, { id: result.id as number, score: result.score, others: 0, words: Object.keys(result.match) });
      else {
        held.others += Math.min(held.score, result.score);
        held.score = Math.max(held.score, result.score);
        for (const word of Object.keys(result.match)) if (!held.words.includes(word)) held.words.push(word);
      }
    }
  }
  return [...joined.values()].map(({ id, score, others, words }) => ({ id, score: score + TIE_BREAKER * others, words }));
}

/** The reference: the engine's fuzzy search within twice the edits, then the nearest by Damerau's count, in its order. */
function nearestBySearch(miniSearch: MiniSearch<(typeof documents)[number]>, term: string, edits: number) {
  const candidates = new Set<string>();
  for (const result of miniSearch.search(term, { prefix: false, fuzzy: 2 * edits }))
    for (const word of Object.keys(result.match)) if (word !== term && !word.startsWith(term)) candidates.add(word);
  const found = [...candidates].map((word) => ({ word, distance: editDistance(term, word) })).filter(({ distance }) => distance <= edits);
  const nearest = Math.min(...found.map(({ distance }) => distance));
  return found.filter(({ distance }) => distance === nearest);
}

describe('FieldSearch', () => {
  const miniSearch = engine();
  const search = new FieldSearch(miniSearch, { fields: FIELDS, tieBreaker: TIE_BREAKER });

  it('scores and orders a term as searching each field with MiniSearch does, to the last bit', () => {
    for (const term of [...WORDS, 'sche', 'ret', 'tim', 'le', 'nothing'])
      for (const prefix of [false, true]) expect(search.search(term, prefix)).toEqual(searchedByField(miniSearch, term, prefix));
  });

  it('answers a term asked again from what it kept, and forgets it when told', () => {
    const first = search.search('schedule', true);
    expect(search.search('schedule', true)).toBe(first);
    search.clear();
    expect(search.search('schedule', true)).not.toBe(first);
    expect(search.search('schedule', true)).toEqual(first);
  });

  it('finds the nearest spellings as the fuzzy search within twice the edits does, swaps included, in its order', () => {
    let several = 0;
    for (const term of ['schedlue', 'sheduler', 'retyr', 'timeuot', 'jitetr', 'laese', 'backof', 'zzzz', 'entyr'])
      for (const edits of [1, 2] as const) {
        const nearest = search.nearestWords(term, edits);
        expect(nearest).toEqual(nearestBySearch(miniSearch, term, edits));
        if (nearest.length > 1) several++;
      }
    // Several spellings at the same distance: ordered by the engine's search.
    expect(several).toBeGreaterThan(0);
  });
});
