/**
 * doclens' search engine: a BM25 index of a documentation site's sections, searched for pages. It
 * runs unchanged in Node and in a browser (no Node or DOM API). Its contract:
 * - `new SearchIndex()`, then `addPage(path, page)` for each page (split into sections by
 *   extraction's `splitSections`), then `finish()`. Pages may be added and searched in between.
 * - `search(text)`: the pages best first, each with its best sections and the words that matched
 *   (`PageHit`, for `highlight` and `highlightExcerpts`); none for a query without words.
 *   `respelled(text)`: the query's words it reads as other spellings.
 * - `savedParts(sizes)`: the index as parts (`SavedPart`: a name and JSON text) of about `sizes` characters
 *   by kind (`PartSizes`), each made when asked for; the head comes last, with the directory of the
 *   others. `addPart(json)` takes parts back in any order; `finish()` after the last. The `titles` part
 *   (every page's `<title>`) is only for pages added later: a search never needs it. How each kind of
 *   part is written and read, and the directory of an index loaded in parts: `saved-index.ts`.
 * - An index fetched part by part (the static mode): `addPart(head)`, then `partsFor(text)` names
 *   the parts a query needs that are not added yet, first those of its words, then of names it may type joined (terms parts cover
 *   ranges of terms in their order, see `termParts` in the head), then those of the sections holding
 *   them, then those of the other terms the search reads (a compound's parts) and the sections of
 *   the terms it meets among those added (what ranking reads: fields, lengths, flags), then the
 *   texts of the few sections whose words' places ranking reads; add them and ask
 *   again until it names none, then `search(text)`. Spellings near a word are looked for among the
 *   terms added. Sections' texts are only for excerpts:
 *   `textsFor(sections)` names the parts of those shown, which fill in their `content` when added.
 * - `FORMAT_VERSION` changes with anything that changes what an index holds for the same pages.
 */
import type { SplitPage } from '../extraction/structure/split-page.ts';
import { commonTitleSuffix, withoutSuffix } from '../extraction/structure/titles.ts';
import { FieldSearch } from './field-search.ts';
import { type IndexedSection, ownerOf } from './fields.ts';
import { indexedSections } from './indexed-sections.ts';
import { joinedNamePrefixes, mayBeJoinedName } from './joined-names.ts';
import { findSections, lookups, respelled, siteSpelling } from './matching.ts';
import { groupByPage, type PageHit } from './pages.ts';
import { type QueryReading, readQuery } from './query.ts';
import { asksHowTo } from './questions.ts';
import { proximityCandidates, type RankedSite, rank, weighed } from './ranking.ts';
import {
  FORMAT_VERSION,
  loadedSections,
  type PartSizes,
  PartsDirectory,
  SAVED_PART_SIZES,
  type SavedBody,
  type SavedHead,
  type SavedPart,
  type SavedText,
  savedSections,
  savedTerms,
  savedTexts,
  withText,
} from './saved-index.ts';
import { TermsIndex } from './terms-index.ts';
import { termsOf } from './terms.ts';

export type { IndexedSection } from './fields.ts';
export type { PageHit, SectionHit } from './pages.ts';
export { escapeHtml, highlight, highlightExcerpts, readersWords } from './highlight.ts';
export { MAX_QUERY_WORDS } from './query.ts';
export { FORMAT_VERSION, type PartSizes, type SavedPart } from './saved-index.ts';

export class SearchIndex {
  /** Sections by id (with holes in an index loaded in parts). */
  private readonly sections: IndexedSection[] = [];
  private readonly terms = new TermsIndex();
  private readonly fieldSearch = new FieldSearch(this.terms);
  /** A section by id, of those added. */
  private readonly sectionOf = (id: number) => this.sections[id]!;
  /** Every page's `<title>`: what they all end with is the site's name. */
  private readonly documentTitles: string[] = [];
  /** Pages titled by their `<title>` (no heading of their own), whose titles lose the site's name. */
  private readonly titledByDocument: { title: string; ids: number[] }[] = [];
  private suffixFromTitles = 0;
  /** Sections of prose that mention a name, by name (see `RankedSite.mentions`). */
  private readonly mentionsByName = new Map<string, number>();
  /** Of an index loaded from parts: the counts saved with it (see `SavedHead.mentions`). */
  private readonly savedMentions = new Map<string, number>();
  /** Of an index loaded in parts: the directory of its parts and the ones added. */
  private directory: PartsDirectory | undefined;
  /** Texts of sections whose part is not added yet, by id (parts load in any order). */
  private readonly textsAhead = new Map<number, SavedText>();

  /** Indexes a page's sections; search pages and redirects are left out, of generated indexes and hubs only their headings. */
  addPage(path: string, page: SplitPage): void {
    const { title: pageTitle, kind, documentTitle } = page;
    if (documentTitle) this.documentTitles.push(documentTitle);
    if (kind !== 'content' && kind !== 'index') return;
    const sections = indexedSections(path, page, this.terms.sectionCount);
    for (const section of sections) {
      this.sections[section.id] = section;
      this.terms.add(section);
    }
    this.mentionsByName.clear();
    this.savedMentions.clear();
    this.fieldSearch.clear();
    if (documentTitle && pageTitle === documentTitle) this.titledByDocument.push({ title: pageTitle, ids: sections.map(({ id }) => id) });
  }

  /** All pages are added: the index takes its searchable form now, not at the first search. */
  finish(): void {
    this.settleTitles();
    this.terms.words();
  }

  get size(): { pages: number; sections: number } {
    return { pages: new Set(this.sections.map((section) => section.path)).size, sections: this.terms.sectionCount };
  }

  /** Each indexed page's title, as search results show it. */
  pageTitles(): Map<string, string> {
    this.settleTitles();
    return new Map(this.sections.map((section) => [section.path, section.pageTitle]));
  }

  /** Pages best first, each with its best sections (see `matching.ts`, `ranking.ts` and `pages.ts`). */
  search(text: string): PageHit[] {
    const reading = this.read(text);
    if (!reading) return [];
    this.settleTitles();
    const found = findSections(this.fieldSearch, reading, this.sectionOf);
    return groupByPage(rank(this.rankedSite(), reading, found), asksHowTo(reading.query));
  }

  /** The words of a query that the search reads as other spellings (a typo, another region's spelling, a compound: see `respelled`). */
  respelled(text: string): string[] {
    const reading = readQuery(text);
    if (!reading) return [];
    const rewritten = reading.query.filter((token, at) => siteSpelling(this.fieldSearch, token, at === reading.query.length - 1));
    return [...rewritten, ...respelled(this.fieldSearch, this.read(text)!)];
  }

  /** How a query is read: a token the site lacks as the site writes it, where that is sure (see `siteSpelling`). */
  private read(text: string): QueryReading | undefined {
    const reading = readQuery(text);
    let corrected = text;
    // Each token where it is typed (after the one before), not in an earlier word that holds its letters.
    let from = 0;
    for (const [at, token] of (reading?.query ?? []).entries()) {
      const start = corrected.indexOf(token, from);
      if (start === -1) continue;
      const spelling = siteSpelling(this.fieldSearch, token, at === reading!.query.length - 1) ?? token;
      corrected = corrected.slice(0, start) + spelling + corrected.slice(start + token.length);
      from = start + spelling.length;
    }
    return corrected === text ? reading : readQuery(corrected);
  }

  private rankedSite(): RankedSite {
    return { section: this.sectionOf, mentions: (name) => this.mentions(name) };
  }

  /** Drops the site's name from titles taken from `<title>`, once all pages so far are known. */
  private settleTitles(): void {
    if (this.suffixFromTitles === this.documentTitles.length) return;
    this.suffixFromTitles = this.documentTitles.length;
    const suffix = commonTitleSuffix(this.documentTitles);
    for (const { title, ids } of this.titledByDocument) {
      for (const section of ids.map((id) => this.sections[id])) {
        if (!section) continue;
        if (section.pageTitle === section.title) section.title = withoutSuffix(title, suffix);
        section.pageTitle = withoutSuffix(title, suffix);
      }
    }
  }

  private mentions(name: string): number {
    let count = this.savedMentions.get(name) ?? this.mentionsByName.get(name);
    if (count === undefined) {
      const ids = new Set<number>();
      for (const term of termsOf(name))
        for (const inField of this.terms.get(term)?.values() ?? []) for (const id of inField.keys()) ids.add(id);
      // In the narrative (guides, tutorials), not in the reference, where every member names its object.
      count = [...ids].filter((id) => !this.sections[id]?.role).length;
      this.mentionsByName.set(name, count);
    }
    return count;
  }

  /**
   * The index as saved parts, each made as it is asked for, to write one after the other: a large
   * index's saved form is never held whole. Terms in the order of their names, cut into parts that
   * cover ranges of them; sections in the order of their ids, with their fields' lengths; the head last.
   */
  *savedParts(sizes: PartSizes = SAVED_PART_SIZES): Generator<SavedPart> {
    this.settleTitles();
    const termParts = yield* savedTerms(this.terms, sizes.terms);
    const sectionCounts = yield* savedSections(this.sections, this.terms, sizes.sections);
    const textCounts = yield* savedTexts(this.sections, sizes.texts);
    const titles: SavedBody = { part: 'titles', documentTitles: this.documentTitles, titledByDocument: this.titledByDocument };
    yield { name: 'titles', json: JSON.stringify(titles) };
    const head: SavedHead = {
      part: 'head',
      format: FORMAT_VERSION,
      sectionCount: this.terms.sectionCount,
      averageLengths: this.terms.averages(),
      termParts,
      sectionCounts,
      textCounts,
      // The names `rank` asks about: of each documented object's owner, the last part.
      mentions: [
        ...new Set(this.sections.flatMap((section) => (section.apiName ? [ownerOf(section.apiName).split('.').at(-1) ?? ''] : []))),
      ]
        .sort()
        .map((name) => [name, this.mentions(name)]),
    };
    yield { name: 'head', json: JSON.stringify(head) };
  }

  /** Takes a saved part (see `savedParts`); a head of another `FORMAT_VERSION` throws. */
  addPart(json: string): void {
    const saved = JSON.parse(json) as SavedHead | SavedBody;
    if (saved.part === 'head') {
      if (saved.format !== FORMAT_VERSION) throw new Error(`an index of format ${saved.format}, not ${FORMAT_VERSION}`);
      this.terms.loadAverages(saved.sectionCount, saved.averageLengths);
      for (const [name, count] of saved.mentions) this.savedMentions.set(name, count);
      this.directory ??= new PartsDirectory();
      this.directory.readHead(saved);
      return;
    }
    if (saved.part === 'titles') {
      this.documentTitles.push(...saved.documentTitles);
      this.titledByDocument.push(...saved.titledByDocument);
      // Saved with their titles settled.
      this.suffixFromTitles = this.documentTitles.length;
      return;
    }
    this.directory ??= new PartsDirectory();
    this.directory.add(`${saved.part}-${saved.index}`);
    if (saved.part === 'terms') this.terms.loadTerms(saved.terms);
    else if (saved.part === 'texts')
      for (const [offset, text] of saved.texts.entries()) {
        const section = this.sections[saved.first + offset];
        if (section) withText(section, text);
        else this.textsAhead.set(saved.first + offset, text);
      }
    else
      for (const { section, lengths } of loadedSections(saved)) {
        withText(section, this.textsAhead.get(section.id) ?? '');
        this.sections[section.id] = section;
        this.textsAhead.delete(section.id);
        this.terms.loadLengths(section.id, lengths);
      }
    this.mentionsByName.clear();
    this.fieldSearch.clear();
  }

  /**
   * The parts a query needs that are not added yet (see the contract above): the terms parts where
   * its words and the words they start would be, else the sections parts of the sections they hold,
   * else the terms parts of other terms the search reads and the sections parts it meets, else the
   * texts parts of the sections whose text the ranking reads (rule 3 of `rank`).
   */
  partsFor(text: string): string[] {
    const typed = readQuery(text);
    if (!typed || !this.directory) return [];
    const directory = this.directory;
    const termsOfWords = (reading: QueryReading) =>
      directory.missing(lookups(reading).flatMap(({ word, prefix }) => directory.termsParts(word, prefix)));
    // The words as typed first: only their terms tell whether the site lacks one, to be read as the site writes it; then
    // where the names start that such a word may join (see `mayBeJoinedName`).
    const missingTyped = termsOfWords(typed);
    if (missingTyped.length) return missingTyped;
    const joinedNames = typed.query.filter((token) => mayBeJoinedName(this.fieldSearch, token)).flatMap(joinedNamePrefixes);
    const missingNames = directory.missing(joinedNames.flatMap((prefix) => directory.termsParts(prefix, true)));
    if (missingNames.length) return missingNames;
    const reading = this.read(text)!;
    const words = lookups(reading);
    const missingTerms = termsOfWords(reading);
    if (missingTerms.length) return missingTerms;
    const needed: string[] = [];
    for (const { word, prefix } of words) {
      const forms = prefix ? [...this.terms.words().atPrefix(word).values()] : [this.terms.get(word)];
      for (const postings of forms)
        for (const inField of postings?.values() ?? []) for (const id of inField.keys()) needed.push(directory.sectionsPart(id));
    }
    const missingSections = directory.missing(needed);
    if (missingSections.length) return missingSections;
    // Other terms the search reads (the parts of a compound: `lookups` cannot know which), then the sections it meets.
    this.fieldSearch.clear();
    const { result: found, read: terms } = this.fieldSearch.readsOf(() => findSections(this.fieldSearch, reading, this.sectionOf));
    const read = [...terms].flatMap((key) => directory.termsParts(key.slice(1), key.startsWith('+')));
    const missingRead = directory.missing(read);
    if (missingRead.length) return missingRead;
    const unloaded = new Set([...this.fieldSearch.unloaded].map((id) => directory.sectionsPart(id)));
    if (unloaded.size) return [...unloaded];
    this.settleTitles();
    const ranked = weighed(this.rankedSite(), reading, found);
    return this.textsFor(proximityCandidates(reading, ranked).map((entry) => entry.section));
  }

  /** The texts parts not added yet of sections (those of the results shown: their text is only for excerpts). */
  textsFor(sections: readonly IndexedSection[]): string[] {
    const directory = this.directory;
    return directory ? directory.missing(sections.map((section) => directory.textsPart(section.id))) : [];
  }
}
