import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { FieldSearch } from './field-search.ts';
import { FIELDS, fieldOf, type IndexedSection } from './fields.ts';
import { editDistance, typoCost } from './edit-distance.ts';
import { termsOf, tokens } from './terms.ts';
import { TermsIndex } from './terms-index.ts';
import { BM25, CORRECTION_FREQUENCY, FIELD_BOOST, PREFIX_WEIGHT, TIE_BREAKER, typoEdits } from './weights.ts';

/** Words of one to three letters changed, swapped, dropped and doubled, so that terms share prefixes and near spellings. */
const VOCABULARY = ['schedule', 'scheduler', 'schedules', 'shedule', 'scheudle', 'retry', 'retries', 'retires', 'entry', 'timeout'];
const more = ['timeouts', 'tiemout', 'lease', 'leases', 'please', 'jitter', 'jiter', 'jtiter', 'backoff', 'back', 'sched'];
const WORDS = [...VOCABULARY, ...more];

/** Sections of words picked by a fixed rule, so that counts and lengths differ from one to the next; some with an API name. */
const sections: IndexedSection[] = Array.from({ length: 120 }, (_, id) => ({
  id,
  path: `p${id % 17}.html`,
  pageSections: 1,
  pageTitle: 'Page',
  pageName: WORDS[id % WORDS.length]!,
  anchor: '',
  title: WORDS.filter((_, index) => (id * 7 + index * 3) % 11 === 0).join(' '),
  content: Array.from({ length: 3 + (id % 9) }, (_, index) => WORDS[(id * 5 + index * index) % WORDS.length]).join(' '),
  role: undefined,
  ...(id % 5 === 0 ? { apiName: `kit.${WORDS[id % WORDS.length]}` } : {}),
}));

/** The reference: MiniSearch on the same fields, text and weights. */
function reference(): MiniSearch<IndexedSection> {
  const miniSearch = new MiniSearch<IndexedSection>({
    fields: [...FIELDS],
    extractField: (section, field) => fieldOf(section, field as (typeof FIELDS)[number]) as string,
    tokenize: tokens,
    processTerm: (token) => [...termsOf(token)],
    searchOptions: { boost: { ...FIELD_BOOST }, weights: { prefix: PREFIX_WEIGHT, fuzzy: 0.3 } },
  });
  miniSearch.addAll(sections);
  return miniSearch;
}

/** The reference's search of each field, joined by the best field with a tie breaker. */
function searchedByField(miniSearch: MiniSearch<IndexedSection>, term: string, prefix: boolean) {
  const joined = new Map<number, { id: number; score: number; others: number; words: string[] }>();
  for (const field of FIELDS) {
    for (const result of miniSearch.search(term, {
      prefix,
      fuzzy: false,
      fields: [field],
      // BM25F's length weight per field.
      bm25: { ...BM25, b: BM25.b[field] },
      tokenize: (text) => [text],
      processTerm: (text) => text,
    })) {
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

const byId = <T extends { id: number }>(hits: T[]) => [...hits].sort((a, b) => a.id - b.id);

describe('FieldSearch', () => {
  const index = new TermsIndex();
  for (const section of sections) index.add(section);
  const search = new FieldSearch(index);
  const miniSearch = reference();

  it("scores a term as MiniSearch's BM25+ scores each field, joined by the best field", () => {
    for (const term of [...WORDS, 'sche', 'ret', 'tim', 'le', 'nothing'])
      for (const prefix of [false, true]) {
        const expected = byId(searchedByField(miniSearch, term, prefix));
        const found = byId(search.search(term, prefix));
        expect(
          found.map(({ id, words }) => ({ id, words: [...words].sort() })),
          term,
        ).toEqual(expected.map(({ id, words }) => ({ id, words: [...words].sort() })));
        for (const [at, hit] of found.entries()) expect(hit.score, term).toBeCloseTo(expected[at]!.score, 10);
      }
  });

  it('answers a term asked again from what it kept, and forgets it when told', () => {
    const first = search.search('schedule', true);
    expect(search.search('schedule', true)).toBe(first);
    search.clear();
    expect(search.search('schedule', true)).not.toBe(first);
    expect(search.search('schedule', true)).toEqual(first);
  });

  it('weighs the edits readers make most as half an edit: a doubled letter typed once or twice, a swap, a vowel for another', () => {
    expect([typoCost('maping', 'mapping'), typoCost('scalling', 'scaling'), typoCost('tabel', 'table')]).toEqual([0.5, 0.5, 0.5]);
    expect([typoCost('catagories', 'categories'), typoCost('acomodate', 'accommodate')]).toEqual([0.5, 1]);
    // Another letter, one left out or added beside no twin: a whole edit each, as Damerau counts them.
    expect([typoCost('maping', 'making'), typoCost('scalling', 'calling'), typoCost('tabel', 'label')]).toEqual([1, 1, 1]);
    expect([typoCost('constrants', 'constructs'), typoCost('retyr', 'retry')]).toEqual([2, 0.5]);
    // Both letters of a pair left out are not one slip: "buildrrs" is "builders" (one letter), not "builds".
    expect([typoCost('buildrrs', 'builds'), typoCost('buildrrs', 'builders'), typoCost('maing', 'mapping')]).toEqual([2, 1, 2]);
  });

  it("finds the spellings within the edits a word's length allows, by Damerau's count, the most common first by likely edits", () => {
    const vocabulary = [...index.words().keys()];
    const written = [...index.writtenWords()];
    // By how common a spelling is, its edits weighed by how often readers make them.
    const value = (word: string, cost: number) => index.sectionsWith(word) / CORRECTION_FREQUENCY ** cost;
    let several = 0;
    for (const term of ['schedlue', 'sheduler', 'retyr', 'timeuot', 'jitetr', 'jitzer', 'laese', 'backof', 'zzzz', 'entyr'])
      for (const edits of [1, 2] as const) {
        // Terms near the term, and words written near the word as typed (here the same), by the terms they are kept as.
        const near = new Map<string, number>();
        const costs = new Map<string, number>();
        const allowed = Math.min(edits, typoEdits(term));
        const consider = (stem: string, word: string) => {
          near.set(stem, Math.min(editDistance(term, word), near.get(stem) ?? Infinity));
          costs.set(stem, Math.min(typoCost(term, word), costs.get(stem) ?? Infinity));
        };
        for (const word of vocabulary) if (!word.startsWith(term) && editDistance(term, word) <= allowed) consider(word, word);
        for (const [word, stem] of written) if (!word.startsWith(term) && editDistance(term, word) <= edits) consider(stem, word);
        near.delete(term);
        const found = [...near].map(([word, distance]) => ({ word, distance, cost: costs.get(word)!, sections: index.sectionsWith(word) }));
        const best = Math.max(...found.map(({ word, cost }) => value(word, cost)));
        // None farther than the best spelling is its rival (of equally good ones, the nearest).
        const bestDistance = Math.min(...found.filter(({ word, cost }) => value(word, cost) === best).map(({ distance }) => distance));
        const expected = found.filter(({ word, cost, distance }) => value(word, cost) >= best / 2 && distance <= bestDistance);
        const corrections = search.corrections(term, term, edits);
        expect(new Set(corrections.map(({ written: _, ...correction }) => correction)), `${term} within ${edits}`).toEqual(
          new Set(expected),
        );
        // How the site writes a correction, where a word it writes is as near: one of those words.
        for (const { word, distance, written: form } of corrections) {
          const forms = written.filter(
            ([other, stem]) => stem === word && !other.startsWith(term) && editDistance(term, other) === distance,
          );
          expect(form, `${term}: ${word}`).toBe(forms.some(([other]) => other === form) ? form : undefined);
          expect(form === undefined, `${term}: ${word}`).toBe(forms.length === 0);
        }
        for (let at = 1; at < corrections.length; at++)
          expect(value(corrections[at - 1]!.word, corrections[at - 1]!.cost)).toBeGreaterThanOrEqual(
            value(corrections[at]!.word, corrections[at]!.cost),
          );
        if (expected.length > 1) several++;
      }
    expect(several).toBeGreaterThan(0);
  });

  it('leaves out a spelling farther than the best however common ("cotnents" is "contents", not also "connects")', () => {
    const texts = ['The contents.', 'Contents.', ...Array.from({ length: 40 }, (_, n) => `It connects ${n} times.`)];
    expect(correctionsIn(texts, 'cotnents', 2)).toEqual(['content']);
  });

  it('reads a typo as the word it is near as typed before one only its stem is near ("signls" is "signals", not "single")', () => {
    // "signl" is a swap from "singl" (a slip readers often make), "single" on more sections; "signls" is two edits from it.
    const texts = ['Signals are sent.', 'Send signals.', ...Array.from({ length: 12 }, (_, n) => `A single page ${n}.`)];
    expect(correctionsIn(texts, 'signls', 1)).toEqual(['signal']);
  });
});

/** The corrections of a word typed on a site of one section per text. */
function correctionsIn(texts: string[], typed: string, edits: 1 | 2): string[] {
  const site = new TermsIndex();
  for (const [id, content] of texts.entries())
    site.add({
      id,
      path: `p${id}.html`,
      pageSections: 1,
      pageTitle: 'Page',
      pageName: 'Page',
      anchor: '',
      title: '',
      content,
      role: undefined,
    });
  const [term] = termsOf(typed);
  return new FieldSearch(site).corrections(term!, typed, edits).map(({ word }) => word);
}
