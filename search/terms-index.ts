import SearchableMap from 'minisearch/SearchableMap';
import { FIELDS, fieldOf, type IndexedSection } from './fields.ts';
import { termsOf, tokens } from './terms.ts';

/**
 * Whether a vocabulary holds a word that `prefix` starts: its first key, where `atPrefix(…).size` would count every word
 * under the prefix (thousands under "co").
 */
export const holdsWordStarting = (words: SearchableMap<unknown>, prefix: string) => !words.atPrefix(prefix).keys().next().done;

/** Where a term is: field id → section id → how often the field says it there. */
export type Postings = Map<number, Map<number, number>>;

/**
 * The inverted index: each term's postings, and each section's field lengths (distinct words) with
 * their averages, which BM25 reads. Terms are counted in a plain map while sections are added (about
 * twice as fast), then moved into a radix tree (MiniSearch's public `SearchableMap`) for the searches
 * of words a prefix starts and of spellings near a word; sections added after that go to the tree.
 */
export class TermsIndex {
  private counting: Map<string, Postings> | undefined = new Map();
  private tree: SearchableMap<Postings> | undefined;
  /**
   * Plain words as the text writes them (lower case), by the stems they are kept as, where the two
   * differ: a misspelt word is nearer the word than its stem ("configuraton" is one edit from
   * "configuration", four from "configur"). A map while sections are added, then a tree.
   */
  private writtenCounting: Map<string, string> | undefined = new Map();
  private writtenTree: SearchableMap<string> | undefined;
  /** Section id → field id → its length, undefined where the section has no such field. */
  private fieldLengths: (number | undefined)[][] = [];
  private averageLengths: number[] = FIELDS.map(() => 0);
  private count = 0;

  /** How many sections are indexed (in a saved index loaded in parts, those of parts not loaded too). */
  get sectionCount(): number {
    return this.count;
  }

  /** Indexes a section: its id is the next one (`sectionCount`). */
  add(section: IndexedSection): void {
    const id = this.count;
    if (section.id !== id) throw new Error(`section ${section.id} added as number ${id}`);
    const lengths: (number | undefined)[] = [];
    for (const [fieldId, field] of FIELDS.entries()) {
      const value = fieldOf(section, field);
      if (value == null) continue;
      const found = tokens(value);
      const distinct = new Set(found);
      lengths[fieldId] = distinct.size;
      for (const token of distinct) if (PLAIN_WORD.test(token)) this.addWritten(token.toLowerCase(), termsOf(token)[0]);
      // The running average over every section so far, those without the field included (MiniSearch's).
      this.averageLengths[fieldId] = (this.averageLengths[fieldId]! * id + distinct.size) / (id + 1);
      const counted = new Map<string, number>();
      for (const token of found) for (const term of termsOf(token)) counted.set(term, (counted.get(term) ?? 0) + 1);
      for (const [term, frequency] of counted) this.postingsFor(term, fieldId).set(id, frequency);
    }
    this.fieldLengths[id] = lengths;
    this.count++;
  }

  private addWritten(word: string, stem: string | undefined): void {
    if (stem === undefined || stem === word) return;
    const written = this.writtenCounting ?? this.writtenTree!;
    if (!written.has(word)) written.set(word, stem);
  }

  private postingsFor(term: string, fieldId: number): Map<number, number> {
    let postings = this.counting ? this.counting.get(term) : this.tree!.get(term);
    if (!postings) {
      postings = new Map();
      if (this.counting) this.counting.set(term, postings);
      else this.tree!.set(term, postings);
    }
    let sections = postings.get(fieldId);
    if (!sections) {
      sections = new Map();
      postings.set(fieldId, sections);
    }
    return sections;
  }

  /** The terms in their searchable form, made from the counts the first time (the counts are dropped: never held twice). */
  words(): SearchableMap<Postings> {
    if (!this.tree) {
      this.tree = new SearchableMap();
      for (const [term, postings] of this.counting!) {
        this.counting!.delete(term);
        this.tree.set(term, postings);
      }
      this.counting = undefined;
      this.writtenTree = new SearchableMap();
      for (const [word, stem] of this.writtenCounting!) this.writtenTree.set(word, stem);
      this.writtenCounting = undefined;
    }
    return this.tree;
  }

  /** Plain words as written, with the stems they are kept as (see `writtenCounting`), searchable. */
  writtenWords(): SearchableMap<string> {
    this.words();
    return this.writtenTree!;
  }

  get(term: string): Postings | undefined {
    return this.counting ? this.counting.get(term) : this.tree!.get(term);
  }

  /** In how many sections a term is, in any field: how common a word is on the site. */
  sectionsWith(term: string): number {
    const postings = this.get(term);
    if (!postings) return 0;
    if (postings.size === 1) return postings.values().next().value!.size;
    const sections = new Set<number>();
    for (const inField of postings.values()) for (const id of inField.keys()) sections.add(id);
    return sections.size;
  }

  /** Whether a section's lengths are here (an index loaded in parts may lack them). */
  hasLengths(id: number): boolean {
    return this.fieldLengths[id] !== undefined;
  }

  fieldLength(id: number, fieldId: number): number {
    return this.fieldLengths[id]![fieldId]!;
  }

  averageLength(fieldId: number): number {
    return this.averageLengths[fieldId]!;
  }

  /** Every term with its postings and the words written for it, in the order of their names (what the saved parts are cut from). */
  *sortedTerms(): Generator<[string, Postings, string[]]> {
    const source = this.counting ?? this.tree!;
    const writtenFor = new Map<string, string[]>();
    for (const [word, stem] of this.writtenCounting ?? this.writtenTree!) {
      const words = writtenFor.get(stem);
      if (words) words.push(word);
      else writtenFor.set(stem, [word]);
    }
    for (const term of [...source.keys()].sort()) yield [term, this.get(term)!, writtenFor.get(term)?.sort() ?? []];
  }

  /** The averages of the fields' lengths, as saved. */
  averages(): number[] {
    return this.averageLengths;
  }

  /** Takes a saved index's section count and average lengths. */
  loadAverages(sectionCount: number, averageLengths: number[]): void {
    this.count = sectionCount;
    this.averageLengths = averageLengths;
  }

  /** The lengths of a section's fields, as saved: -1 for a field it has not. */
  savedLengths(id: number): number[] {
    const lengths = this.fieldLengths[id]!;
    return FIELDS.map((_, fieldId) => lengths[fieldId] ?? -1);
  }

  /** Takes a saved section's lengths (see `savedLengths`). */
  loadLengths(id: number, lengths: number[]): void {
    this.fieldLengths[id] = lengths.map((length) => (length === -1 ? undefined : length));
  }

  /** Takes a saved part's terms (as `termJson` wrote them). */
  loadTerms(terms: SavedTerm[]): void {
    for (const [term, fields, written] of terms) {
      for (const word of written ?? []) this.addWritten(word, term);
      const postings: Postings = new Map();
      for (const [fieldId, flat] of fields) {
        const sections = new Map<number, number>();
        for (let at = 0; at < flat.length; at += 2) sections.set(flat[at]!, flat[at + 1]!);
        postings.set(fieldId, sections);
      }
      if (this.counting) this.counting.set(term, postings);
      else this.tree!.set(term, postings);
    }
  }
}

/**
 * A term as saved: its fields, each with its sections and frequencies flat (`[id, frequency, id,
 * frequency, …]`), and the words written for it when there are any.
 */
export type SavedTerm = [term: string, fields: [fieldId: number, sections: number[]][], written?: string[]];

/** A plain word that may be written otherwise than its stem. */
const PLAIN_WORD = /^[A-Za-z]{4,}$/;

/** A term's saved form, as JSON. */
export function termJson(term: string, postings: Postings, written: readonly string[]): string {
  const fields: string[] = [];
  for (const [fieldId, sections] of postings) {
    const flat: number[] = [];
    for (const [id, frequency] of sections) flat.push(id, frequency);
    fields.push(`[${fieldId},[${flat.join(',')}]]`);
  }
  return `[${JSON.stringify(term)},[${fields.join(',')}]${written.length ? `,${JSON.stringify(written)}` : ''}]`;
}
