import type { FieldHit, FieldSearch } from './field-search.ts';
import { isPrefix, type QueryReading } from './query.ts';
import { PREFIX_WEIGHT, typoWeight } from './weights.ts';

/** A section the query's terms found: what the ranking reads of it. */
export interface Found {
  id: number;
  score: number;
  /** The query's terms it holds. */
  queryTerms: string[];
  /** The score of each of them. */
  termScores: number[];
  /** The forms of them it holds, as the index keeps them. */
  terms: string[];
}

/** The shortest stem a word cut short is taken to start with. */
const MIN_STEM = 4;

/** A word found in this many sections or more is the word the reader meant: its spellings are not searched. */
const FEW_SECTIONS = 3;

/** Typos tolerated in a word (its stem): one from four letters on, two from eight. */
const typoEdits = (term: string): 0 | 1 | 2 => (/^[a-z]+$/.test(term) ? (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0) : 0);

/** The stems a word cut short may be the start of, longest first ("equivale", "equival" of "equivalen"). */
function stemsCutFrom(typed: string): string[] {
  const stems: string[] = [];
  for (let length = typed.length - 1; length >= Math.max(MIN_STEM, typed.length - 3); length--) stems.push(typed.slice(0, length));
  return stems;
}

/** The words `findSections` may look up for a query: each whole, or as a prefix (with the words it starts). */
export function lookups(reading: QueryReading): { word: string; prefix: boolean }[] {
  const found: { word: string; prefix: boolean }[] = [];
  for (const term of [...reading.terms, ...reading.spelled]) {
    found.push({ word: term, prefix: true });
    const typed = reading.typed.get(term);
    if (typed) found.push({ word: typed, prefix: true }, ...stemsCutFrom(typed).map((word) => ({ word, prefix: false })));
  }
  return found;
}

/** The sections that hold the query's terms and the names it spells, each with its score summed over the terms. */
export function findSections(search: FieldSearch, reading: QueryReading): Found[] {
  const found = new Map<number, Found>();
  for (const term of [...reading.terms, ...reading.spelled]) {
    for (const [id, hit] of termHits(search, term, reading.typed.get(term), reading.beingTyped.has(term))) {
      const section = found.get(id);
      if (!section) found.set(id, { id, score: hit.score, queryTerms: [term], termScores: [hit.score], terms: [...hit.words] });
      else {
        section.score += hit.score;
        section.queryTerms.push(term);
        section.termScores.push(hit.score);
        section.terms.push(...hit.words);
      }
    }
  }
  return [...found.values()];
}

/**
 * The sections that hold a term of the query, by its best form in each: the term itself or a word
 * it starts (the reader may still be typing it), the word as typed as the start of a longer one,
 * the stems it starts with (the stem of a word cut short is no stem: "equivalen" is "equival…");
 * for a word the site hardly has, also its nearest spellings (a typo). Forms of one word never
 * add up: a section holding several counts the best.
 */
function termHits(
  search: FieldSearch,
  term: string,
  typed: string | undefined,
  beingTyped: boolean,
): Map<number, { score: number; words: string[] }> {
  const hits = new Map<number, { score: number; words: string[] }>();
  const take = (results: FieldHit[], weight: number) => {
    for (const result of results) {
      const score = result.score * weight;
      const held = hits.get(result.id);
      if (!held || score > held.score) hits.set(result.id, { score, words: result.words });
    }
  };
  // A word the reader went past is whole when the site has it; one the site lacks may have been cut short.
  const whole = beingTyped && isPrefix(term) ? undefined : search.search(term, false);
  const prefix = isPrefix(term) && !whole?.length;
  take(prefix ? search.search(term, true) : whole!, 1);
  if (!typed) return hits;
  if (prefix && typed !== term) take(search.search(typed, true), PREFIX_WEIGHT);
  if (prefix) for (const stem of stemsCutFrom(typed)) if (stem !== term) take(search.search(stem, false), PREFIX_WEIGHT);
  const edits = typoEdits(term);
  if (edits === 0 || hits.size >= FEW_SECTIONS) return hits;
  // The nearest spellings by Damerau's count.
  for (const { word, distance } of search.nearestWords(term, edits)) take(search.search(word, false), typoWeight(word.length, distance));
  return hits;
}
