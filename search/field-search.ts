import { LRUCache } from 'lru-cache';
import type SearchableMap from 'minisearch/SearchableMap';
import { FIELDS } from './fields.ts';
import { editDistance, typoCost } from './edit-distance.ts';
import { namesJoinedAs } from './joined-names.ts';
import { holdsWordStarting, type Postings, type TermsIndex } from './terms-index.ts';
import { BM25, CORRECTION_FREQUENCY, FIELD_BOOST, prefixWeight, TIE_BREAKER, typoEdits } from './weights.ts';

/** One section a term was found in, by its best field (see `FieldSearch.search`). */
export interface FieldHit {
  /** The section's id. */
  id: number;
  score: number;
  /** The forms of the term the section holds (the term itself, longer words it starts), as the index keeps them. */
  words: string[];
}

/** A spelling of the index near a word: the term it is kept as, how many edits away, in how many sections. */
export interface Correction {
  word: string;
  /** How the site writes it, nearest the word typed, where a word the site writes is that near. */
  written?: string;
  distance: number;
  /** The edits weighed by how often readers make them (`typoCost`): which of spellings as near the typo stands for. */
  cost: number;
  sections: number;
}

/** The fields that name a section: its title (an object's own name), its page's; not an object's modules. */
const NAME_FIELDS = (['title', 'pageName'] as const).map((field) => FIELDS.indexOf(field));

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
   * The spellings the index has near a word: terms near its term, and words written near the word as
   * typed (its stem may be far: "configuraton" is one edit from "configuration", four from "configur"),
   * each as the term it is kept as, within `edits` (Damerau's count: a swap of two neighbours is one
   * edit), other than the term and the words it starts. The nearest first, and among them the ones
   * in the most sections: a reader who mistypes a word means a word the site uses, and a word one
   * edit further but in many more sections ("standardization" for "standardisation") before a
   * one-page oddity (see `CORRECTION_FREQUENCY`). Edits count as likely as readers make them (`typoCost`):
   * "tabel" is "table" (two neighbours swapped) before "label" (another letter), which the site says more.
   * Spellings the word as typed reaches come before those only its stem reaches.
   */
  corrections(term: string, typed: string, edits: 1 | 2): Correction[] {
    const nearTo = (byTerm: Map<string, Correction>) => (word: string, distance: number, cost: number, written?: string) => {
      const held = byTerm.get(word);
      if (word !== term && (!held || distance < held.distance || (distance === held.distance && !held.written)))
        byTerm.set(word, { word, written, distance, cost: Math.min(cost, held?.cost ?? cost), sections: this.index.sectionsWith(word) });
      else if (held) held.cost = Math.min(held.cost, cost);
    };
    // How near the word typed is to a word the site writes tells more than how near their stems are: "signls" is one
    // edit from "signals", two from "single", though its stem "signl" is one from "singl" too.
    const asTyped = new Map<string, Correction>();
    const byStem = new Map<string, Correction>();
    const nearTyped = nearTo(asTyped);
    const nearStem = typed === term ? nearTyped : nearTo(byStem);
    for (const { word, distance } of nearWords(this.index.words(), term, typoEdits(term) < edits ? typoEdits(term) : edits))
      nearStem(word, distance, typoCost(term, word, distance));
    // A slip may change how the stemmer cuts a word ("sturve", "sturv"): a term that is a word whole is near it as typed.
    if (typed !== term)
      for (const { word, distance } of nearWords(this.index.words(), typed, edits))
        nearTyped(word, distance, typoCost(typed, word, distance));
    const written = this.index.writtenWords();
    for (const { word, distance } of nearWords(written, typed, edits))
      nearTyped(written.get(word)!, distance, typoCost(typed, word, distance), word);
    const value = ({ sections, cost }: Correction) => sections / CORRECTION_FREQUENCY ** cost;
    // A spelling only the stem reaches is farther as typed than the edits allowed: no rival of one the word reaches.
    const reached = asTyped.size ? asTyped : byStem;
    const found = [...reached.values()].sort((a, b) => value(b) - value(a) || a.distance - b.distance || (a.word < b.word ? -1 : 1));
    const best = found[0] && value(found[0]);
    // A spelling farther than the best is no rival of it: "cotnents" is "contents" (a swap), not also "connects".
    return found.filter((correction) => correction.distance <= found[0]!.distance && value(correction) >= best! / 2);
  }

  /** Whether the site writes a word that `prefix` starts, as the term it is kept as or as written. */
  writesWordStarting(prefix: string): boolean {
    return this.keepsTermStarting(prefix) || holdsWordStarting(this.index.writtenWords(), prefix);
  }

  /** The names the site keeps whose parts, joined, are a word typed without separators (see `namesJoinedAs`). */
  namesJoinedAs(word: string): string[] {
    return namesJoinedAs(this.index.words(), word, (prefix) => this.reading?.add(`+${prefix}`));
  }

  /** Whether the index keeps a term that `prefix` starts (the terms alone tell, without their sections). */
  keepsTermStarting(prefix: string): boolean {
    this.reading?.add(`+${prefix}`);
    return holdsWordStarting(this.index.words(), prefix);
  }

  /** In how many sections a term is. */
  sectionsWith(term: string): number {
    this.reading?.add(`=${term}`);
    return this.index.sectionsWith(term);
  }

  /** Sections found since `clear` whose part is not added yet, left out (an index loaded in parts: see `SearchIndex.partsFor`). */
  readonly unloaded = new Set<number>();

  /** Where `readsOf` is recording the terms read, else nothing (a host's searches record none: no set grows with them). */
  private reading: Set<string> | undefined;

  /**
   * Runs `search` and returns its result with the terms it read (by `search` and `sectionsWith`), `+`
   * before one read as a prefix, `=` before one read whole: an index loaded in parts needs their terms
   * parts (the parts of a compound).
   */
  readsOf<T>(search: () => T): { result: T; read: Set<string> } {
    const read = new Set<string>();
    this.reading = read;
    try {
      return { result: search(), read };
    } finally {
      this.reading = undefined;
    }
  }

  /** Forgets the results kept: sections were added. */
  clear(): void {
    this.cache.clear();
    this.unloaded.clear();
  }

  search(term: string, prefix: boolean): FieldHit[] {
    const key = `${prefix ? '+' : '='}${term}`;
    this.reading?.add(key);
    let hits = this.cache.get(key);
    if (!hits) {
      hits = this.compute(term, prefix);
      this.cache.set(key, hits);
    }
    return hits;
  }

  /**
   * The sections whose name or title (not text) holds a term or a word it starts: `DDL` of "Customizing DDL", `IMAP4` (see
   * `initials.ts`).
   */
  searchNames(term: string): FieldHit[] {
    const key = `#${term}`;
    this.reading?.add(`+${term}`);
    let hits = this.cache.get(key);
    if (!hits) {
      hits = this.compute(term, true, NAME_FIELDS);
      this.cache.set(key, hits);
    }
    return hits;
  }

  private compute(term: string, prefix: boolean, fields: readonly number[] = [...FIELDS.keys()]): FieldHit[] {
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
    for (const fieldId of fields) {
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
    const field = FIELDS[fieldId]!;
    const boost = FIELD_BOOST[field];
    const { k, d } = BM25;
    const b = BM25.b[field];
    const sectionCount = this.index.sectionCount;
    const averageLength = this.index.averageLength(fieldId);
    const found = new Map<number, [id: number, score: number, words: string[]]>();
    for (const [word, postings, weight] of forms) {
      const frequencies = postings.get(fieldId);
      if (!frequencies) continue;
      const matching = frequencies.size;
      const inverseFrequency = Math.log(1 + (sectionCount - matching + 0.5) / (matching + 0.5));
      for (const [id, frequency] of frequencies) {
        if (!this.index.hasLengths(id)) {
          this.unloaded.add(id);
          continue;
        }
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

/**
 * The words of a tree within `edits` of `word` (Damerau's count) other than `word` and the words it
 * starts. The tree's fuzzy search counts a swap as two edits: the words are found from the word and
 * its swaps within fewer edits.
 */
function nearWords<T>(words: SearchableMap<T>, word: string, edits: 0 | 1 | 2): { word: string; distance: number }[] {
  if (edits === 0) return [];
  const near = new Set(words.fuzzyGet(word, edits).keys());
  // A word within `edits` whose way from this one swaps neighbours is within fewer edits of it so swapped.
  for (let at = 0; at + 1 < word.length; at++) {
    const swapped = swap(word, at);
    if (swapped === word) continue;
    if (edits === 1) {
      if (words.has(swapped)) near.add(swapped);
      continue;
    }
    for (const other of words.fuzzyGet(swapped, edits - 1).keys()) near.add(other);
    for (let second = at + 2; second + 1 < word.length; second++) {
      const twice = swap(swapped, second);
      if (words.has(twice)) near.add(twice);
    }
  }
  const found: { word: string; distance: number }[] = [];
  for (const other of near) {
    if (other === word || other.startsWith(word)) continue;
    const distance = editDistance(word, other);
    if (distance <= edits) found.push({ word: other, distance });
  }
  return found;
}

/** `word` with its letters at `at` and `at + 1` swapped. */
const swap = (word: string, at: number) => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
