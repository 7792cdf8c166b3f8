import { LRUCache } from 'lru-cache';
import type MiniSearch from 'minisearch';
import { type EngineInternals, internalsOf, type TermData } from './minisearch-internals.ts';
import { editDistance } from './search-terms.ts';

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

/** What the tie breaker of a disjunction-max query adds of a term's other fields. */
export interface FieldSearchOptions {
  fields: readonly string[];
  tieBreaker: number;
}

/**
 * A term's sections by its best field in each, scored as `MiniSearch.search` scores a term in one field
 * (BM25, a prefix's longer words weighted by how much longer they are), joined as a disjunction-max
 * query: the engine's index is walked once per term for all fields instead of once per field, and no
 * result objects are made for fields and matches that are read once. Same scores and order as
 * searching each field with `MiniSearch.search` and joining the results. The last terms' results are
 * kept (cleared when documents are added): a reader typing a query asks for the same words again.
 */
export class FieldSearch {
  private readonly engine: EngineInternals;
  /** The last terms' results, bounded by the sections they hold (an empty result counts one). */
  private readonly cache = new LRUCache<string, FieldHit[]>({ maxSize: CACHED_HITS, sizeCalculation: (hits) => Math.max(1, hits.length) });

  constructor(
    private readonly miniSearch: MiniSearch<never> | MiniSearch<unknown>,
    private readonly options: FieldSearchOptions,
  ) {
    this.engine = internalsOf(miniSearch);
  }

  /**
   * The words of the index nearest `term` within `edits` (Damerau's count: a swap of two neighbours is
   * one edit; `edits` is 1 or 2) other than `term` and the words it starts, in the order in which the engine's fuzzy
   * search within twice the edits (a swap is two edits to it) finds them. That search is slow on a
   * large index: the words are found from the term and its swaps within fewer edits, and the search
   * is only made to order them when there are several.
   */
  nearestWords(term: string, edits: 1 | 2): { word: string; distance: number }[] {
    const index = this.engine._index;
    const near = new Set(index.fuzzyGet(term, edits).keys());
    // A word within `edits` whose way from the term swaps neighbours is within fewer edits of the term so swapped.
    for (let at = 0; at + 1 < term.length; at++) {
      const swapped = swap(term, at);
      if (swapped === term) continue;
      if (edits === 1) {
        if (index.has(swapped)) near.add(swapped);
        continue;
      }
      for (const word of index.fuzzyGet(swapped, edits - 1).keys()) near.add(word);
      for (let second = at + 2; second + 1 < term.length; second++) {
        const twice = swap(swapped, second);
        if (index.has(twice)) near.add(twice);
      }
    }
    const found: { word: string; distance: number }[] = [];
    for (const word of near) {
      if (word === term || word.startsWith(term)) continue;
      const distance = editDistance(term, word);
      if (distance <= edits) found.push({ word, distance });
    }
    const nearest = Math.min(...found.map(({ distance }) => distance));
    const nearestWords = found.filter(({ distance }) => distance === nearest);
    if (nearestWords.length < 2) return nearestWords;
    const order = new Map<string, number>();
    for (const result of this.miniSearch.search(term, { prefix: false, fuzzy: 2 * edits }))
      for (const word of Object.keys(result.match)) if (!order.has(word)) order.set(word, order.size);
    return nearestWords.sort((first, second) => order.get(first.word)! - order.get(second.word)!);
  }

  /** Forgets the results kept: documents were added. */
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
    const { _index: index, _options: settings } = this.engine;
    // The term, then (as a prefix) the longer words it starts, in the engine's order and with its weights.
    const forms: [word: string, data: TermData, weight: number][] = [];
    const exact = index.get(term);
    if (exact) forms.push([term, exact, 1]);
    if (prefix) {
      const prefixWeight = settings.searchOptions.weights?.prefix ?? 0.375;
      for (const [word, data] of index.atPrefix(term)) {
        const distance = word.length - term.length;
        if (distance) forms.push([word, data, (prefixWeight * word.length) / (word.length + 0.3 * distance)]);
      }
    }
    const joined = new Map<number, FieldHit & { others: number }>();
    for (const field of this.options.fields) {
      for (const [shortId, score, words] of this.fieldHits(forms, field)) {
        const held = joined.get(shortId);
        if (!held) joined.set(shortId, { id: this.engine._documentIds.get(shortId)!, score, others: 0, words });
        else {
          held.others += Math.min(held.score, score);
          held.score = Math.max(held.score, score);
          for (const word of words) if (!held.words.includes(word)) held.words.push(word);
        }
      }
    }
    const hits: FieldHit[] = [];
    for (const { id, score, others, words } of joined.values()) hits.push({ id, score: score + this.options.tieBreaker * others, words });
    return hits;
  }

  /** The documents the term's forms are found in within one field, best first, as `MiniSearch.search` of that field gives them. */
  private fieldHits(
    forms: [word: string, data: TermData, weight: number][],
    field: string,
  ): [shortId: number, score: number, words: string[]][] {
    const { _fieldIds, _avgFieldLength, _fieldLength, _documentCount, _options: settings } = this.engine;
    const fieldId = _fieldIds[field]!;
    const boost = settings.searchOptions.boost?.[field] || 1;
    const { k, b, d } = settings.searchOptions.bm25;
    const averageLength = _avgFieldLength[fieldId]!;
    const found = new Map<number, [shortId: number, score: number, words: string[]]>();
    for (const [word, data, weight] of forms) {
      const frequencies = data.get(fieldId);
      if (!frequencies) continue;
      const matching = frequencies.size;
      const inverseFrequency = Math.log(1 + (_documentCount - matching + 0.5) / (matching + 0.5));
      for (const [shortId, frequency] of frequencies) {
        const length = _fieldLength.get(shortId)![fieldId]!;
        // MiniSearch's BM25+ and its order of operations, so that scores are the same to the last bit.
        const raw = inverseFrequency * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / averageLength)));
        const score = weight * boost * raw;
        const held = found.get(shortId);
        if (held) {
          held[1] += score;
          held[2].push(word);
        } else found.set(shortId, [shortId, score, [word]]);
      }
    }
    // Stable, as MiniSearch sorts its results: documents of equal score stay in the order found.
    return [...found.values()].sort((first, second) => second[1] - first[1]);
  }
}

/** `word` with its letters at `at` and `at + 1` swapped. */
const swap = (word: string, at: number) => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
