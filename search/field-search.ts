import { LRUCache } from 'lru-cache';
import { FIELDS } from './fields.ts';
import { editDistance } from './terms.ts';
import type { Postings, TermsIndex } from './terms-index.ts';
import { BM25, FIELD_BOOST, prefixWeight, TIE_BREAKER } from './weights.ts';

/** One section a term was found in, by its best field (see `FieldSearch.search`). */
export interface FieldHit {
  /** The section's id. */
  id: number;
  score: number;
  /** The forms of the term the section holds (the term itself, longer words it starts), as the index keeps them. */
  words: string[];
}

/** Results of terms kept for the next searches, counted in sections (about 100 bytes each). */
const CACHED_HITS = 50_000;

/**
 * A term's sections by its best field in each, scored by BM25+ per field (a prefix's longer words
 * weighted by how much longer they are) and joined as a disjunction-max query (Lucene's, with a tie
 * breaker): a name in a title, the page's name and the API name says the same once. The index is
 * walked once per term for all fields. The last terms' results are kept (cleared when sections are
 * added): a reader typing a query asks for the same words again.
 */
export class FieldSearch {
  /** The last terms' results, bounded by the sections they hold (an empty result counts one). */
  private readonly cache = new LRUCache<string, FieldHit[]>({ maxSize: CACHED_HITS, sizeCalculation: (hits) => Math.max(1, hits.length) });

  constructor(private readonly index: TermsIndex) {}

  /**
   * The words of the index nearest `term` within `edits` (Damerau's count: a swap of two neighbours is
   * one edit; `edits` is 1 or 2) other than `term` and the words it starts, the ones in the most
   * sections first: a reader who mistypes a word means a word the site uses, not a one-page oddity.
   * The tree's fuzzy search counts a swap as two edits: the words are found from the term and its
   * swaps within fewer edits.
   */
  nearestWords(term: string, edits: 1 | 2): { word: string; distance: number }[] {
    const words = this.index.words();
    const near = new Set(words.fuzzyGet(term, edits).keys());
    // A word within `edits` whose way from the term swaps neighbours is within fewer edits of the term so swapped.
    for (let at = 0; at + 1 < term.length; at++) {
      const swapped = swap(term, at);
      if (swapped === term) continue;
      if (edits === 1) {
        if (words.has(swapped)) near.add(swapped);
        continue;
      }
      for (const word of words.fuzzyGet(swapped, edits - 1).keys()) near.add(word);
      for (let second = at + 2; second + 1 < term.length; second++) {
        const twice = swap(swapped, second);
        if (words.has(twice)) near.add(twice);
      }
    }
    const found: { word: string; distance: number; sections: number }[] = [];
    for (const word of near) {
      if (word === term || word.startsWith(term)) continue;
      const distance = editDistance(term, word);
      if (distance <= edits) found.push({ word, distance, sections: this.index.sectionsWith(word) });
    }
    const nearest = Math.min(...found.map(({ distance }) => distance));
    return found
      .filter(({ distance }) => distance === nearest)
      .sort((a, b) => b.sections - a.sections || (a.word < b.word ? -1 : 1))
      .map(({ word, distance }) => ({ word, distance }));
  }

  /** Forgets the results kept: sections were added. */
  clear(): void {
    this.cache.clear();
  }

  search(term: string, prefix: boolean): FieldHit[] {
    const key = `${prefix ? '+' : '='}${term}`;
    let hits = this.cache.get(key);
    if (!hits) {
      hits = this.compute(term, prefix);
      this.cache.set(key, hits);
    }
    return hits;
  }

  private compute(term: string, prefix: boolean): FieldHit[] {
    // The term, then (as a prefix) the longer words it starts, each with its weight.
    const forms: [word: string, postings: Postings, weight: number][] = [];
    const exact = this.index.get(term);
    if (exact) forms.push([term, exact, 1]);
    if (prefix) {
      for (const [word, postings] of this.index.words().atPrefix(term)) {
        const extra = word.length - term.length;
        if (extra) forms.push([word, postings, prefixWeight(term.length, extra)]);
      }
    }
    const joined = new Map<number, FieldHit & { others: number }>();
    for (const fieldId of FIELDS.keys()) {
      for (const [id, score, words] of this.fieldHits(forms, fieldId)) {
        const held = joined.get(id);
        if (!held) joined.set(id, { id, score, others: 0, words });
        else {
          held.others += Math.min(held.score, score);
          held.score = Math.max(held.score, score);
          for (const word of words) if (!held.words.includes(word)) held.words.push(word);
        }
      }
    }
    const hits: FieldHit[] = [];
    for (const { id, score, others, words } of joined.values()) hits.push({ id, score: score + TIE_BREAKER * others, words });
    return hits;
  }

  /** The sections the term's forms are found in within one field, best first. */
  private fieldHits(
    forms: [word: string, postings: Postings, weight: number][],
    fieldId: number,
  ): [id: number, score: number, words: string[]][] {
    const boost = FIELD_BOOST[FIELDS[fieldId]!];
    const { k, b, d } = BM25;
    const sectionCount = this.index.sectionCount;
    const averageLength = this.index.averageLength(fieldId);
    const found = new Map<number, [id: number, score: number, words: string[]]>();
    for (const [word, postings, weight] of forms) {
      const frequencies = postings.get(fieldId);
      if (!frequencies) continue;
      const matching = frequencies.size;
      const inverseFrequency = Math.log(1 + (sectionCount - matching + 0.5) / (matching + 0.5));
      for (const [id, frequency] of frequencies) {
        const length = this.index.fieldLength(id, fieldId);
        // BM25+ (Lv and Zhai's lower bound `d` for any match).
        const raw = inverseFrequency * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / averageLength)));
        const score = weight * boost * raw;
        const held = found.get(id);
        if (held) {
          held[1] += score;
          held[2].push(word);
        } else found.set(id, [id, score, [word]]);
      }
    }
    // Stable: sections of equal score stay in the order found.
    return [...found.values()].sort((first, second) => second[1] - first[1]);
  }
}

/** `word` with its letters at `at` and `at + 1` swapped. */
const swap = (word: string, at: number) => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
