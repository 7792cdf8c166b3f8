/**
 * doclens' search engine: a BM25 index of a documentation site's sections, searched for pages. It
 * runs unchanged in Node and in a browser (no Node or DOM API). Its contract:
 * - `new SearchIndex()`, then `addPage(path, page)` for each page (split into sections by
 *   extraction's `splitSections`), then `finish()`. Pages may be added and searched in between.
 * - `search(text)`: the pages best first, each with its best sections and the words that matched
 *   (`PageHit`, for `highlight` and `highlightExcerpts`); none for a query without words.
 * - `savedParts(sizes)`: the index as parts (`SavedPart`: a name and JSON text) of about `sizes` characters
 *   by kind (`PartSizes`), each made when asked for; the head comes last, with the directory of the
 *   others. `addPart(json)` takes parts back in any order; `finish()` after the last. The `titles` part
 *   (every page's `<title>`) is only for pages added later: a search never needs it.
 * - An index fetched part by part (the static mode): `addPart(head)`, then `partsFor(text)` names
 *   the parts a query needs that are not added yet, first those of its words (terms parts cover
 *   ranges of terms in their order, see `termParts` in the head), then those of the sections holding
 *   them and the terms the search meets among those added (what ranking reads: fields, lengths,
 *   flags), then the texts of the few sections whose words' places ranking reads; add them and ask
 *   again until it names none, then `search(text)`. Spellings near a word are looked for among the
 *   terms added. Sections' texts are only for excerpts:
 *   `textsFor(sections)` names the parts of those shown, which fill in their `content` when added.
 * - `FORMAT_VERSION` changes with anything that changes what an index holds for the same pages.
 */
import type { SplitPage } from '../extraction/structure/split-page.ts';
import { commonTitleSuffix, withoutSuffix } from '../extraction/structure/titles.ts';
import { FieldSearch } from './field-search.ts';
import { apiNameOf, digestOf, type IndexedSection, isFullName, ownerOf, spacesAdded } from './fields.ts';
import { findSections, lookups } from './matching.ts';
import { groupByPage, type PageHit } from './pages.ts';
import { readQuery } from './query.ts';
import { hasDocumentation, proximityCandidates, type RankedSite, rank, SECTION_NUMBER, weighed } from './ranking.ts';
import { type SavedTerm, termJson, TermsIndex } from './terms-index.ts';
import { termsOf } from './terms.ts';
import { MIN_OVERVIEW_SHARE } from './weights.ts';

export type { IndexedSection } from './fields.ts';
export type { PageHit, SectionHit } from './pages.ts';
export { escapeHtml, highlight, highlightExcerpts, readersWords } from './highlight.ts';
export { MAX_QUERY_WORDS } from './query.ts';

/** The version of what an index holds and how it is saved: a saved index of another version is built again. */
export const FORMAT_VERSION = 7;

/** One part of a saved index: `head`, `titles`, `terms-N`, `sections-N` or `texts-N`, and its JSON. */
export interface SavedPart {
  name: string;
  json: string;
}

/** About how long each kind of saved part is, in characters of JSON. */
export interface PartSizes {
  terms: number;
  sections: number;
  texts: number;
}

/**
 * The parts an index cache loads all of: one of 256K characters takes a few milliseconds to make or
 * load. Terms and texts shorter, as `partsFor` and `textsFor` name a few of them.
 */
const SAVED_PART_SIZES: PartSizes = { terms: 1 << 16, sections: 1 << 18, texts: 1 << 13 };

interface SavedHead {
  part: 'head';
  format: number;
  sectionCount: number;
  averageLengths: number[];
  /**
   * Where each terms part starts, in order: the shortest start of its first term that sorts after the
   * last term before it ('' for the first part). Short, as a search fetches the head first.
   */
  termParts: string[];
  /** How many sections each sections part holds, in order (from section 0). */
  sectionCounts: number[];
  /** How many sections each texts part holds, in order. */
  textCounts: number[];
  /** What `mentions` counts of each name a documented object's owner has: an index loaded in parts lacks most sections. */
  mentions: [name: string, count: number][];
}

type SavedBody =
  | { part: 'titles'; documentTitles: string[]; titledByDocument: { title: string; ids: number[] }[] }
  | { part: 'terms'; index: number; terms: SavedTerm[] }
  | { part: 'sections'; index: number; first: number; pages: SavedPage[]; columns: SavedColumns; lengths: number[][] }
  | { part: 'texts'; index: number; first: number; texts: SavedText[] };

/** A section's text as saved, with the places where the hosting service's runs together when it has them (see `runTogether`). */
type SavedText = string | [content: string, runTogether: number[]];

/**
 * A page of a sections part, which its sections name by their place in the part's list; its name
 * left out where it is its title.
 */
type SavedPage = [path: string, pageSections: number, pageTitle: string, pageName?: string];

/**
 * What ranking reads of a section, saved: its page's fields are its page's, its id is its place, its
 * `apiName` its anchor (see `apiNameOf`), its text apart.
 */
type SavedSection = Omit<
  IndexedSection,
  'id' | 'path' | 'pageSections' | 'pageTitle' | 'pageName' | 'content' | 'runTogether' | 'apiName'
> & {
  page: number;
};

/**
 * A sections part's sections, a list of each field's values (null where a section has none, or where
 * it is its page's title: see `OFTEN_PAGE_TITLE`): values of one kind side by side compress better than objects.
 */
type SavedColumns = { [K in keyof SavedSection]?: (SavedSection[K] | null)[] };

/** Fields often their page's title (a page's first heading; an object's anchor on the page generated for it). */
const OFTEN_PAGE_TITLE = new Set<keyof SavedSection>(['title', 'anchor']);

export class SearchIndex {
  /** Sections by id (with holes in an index loaded in parts). */
  private readonly sections: IndexedSection[] = [];
  private readonly terms = new TermsIndex();
  private readonly fieldSearch = new FieldSearch(this.terms);
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
  private directory: { termParts: string[]; sectionParts: number[]; textParts: number[]; added: Set<string> } | undefined;
  /** Texts of sections whose part is not added yet, by id (parts load in any order). */
  private readonly textsAhead = new Map<number, SavedText>();

  /** Indexes a page's sections; search pages and redirects are left out, of generated indexes and hubs only their headings. */
  addPage(path: string, { title: pageTitle, name, sections, kind, documentTitle, entryShare }: SplitPage): void {
    if (documentTitle) this.documentTitles.push(documentTitle);
    if (kind !== 'content' && kind !== 'index') return;
    const first = this.terms.sectionCount;
    const changelog = isChangelog(name, sections);
    const ids: number[] = [];
    for (const [index, section] of sections.entries()) {
      const indexed: IndexedSection = {
        id: first + index,
        path,
        pageSections: sections.length,
        pageTitle,
        pageName: name,
        anchor: section.id,
        title: section.title,
        // A hub (a heading and a table of contents) is found by its headings; the titles it lists are other pages'.
        content: kind === 'index' ? '' : section.text,
        role: section.role,
      };
      const runTogether = kind === 'index' ? undefined : spacesAdded(section.content, section.text);
      if (runTogether) indexed.runTogether = runTogether;
      const apiName = apiNameOf(section.role, section.id);
      if (apiName) indexed.apiName = apiName;
      if (indexed.apiName && hasDocumentation(indexed.content)) indexed.documented = true;
      // Where the page may be one object's (its title may yet lose the site's name): copies are told apart by their texts.
      if (indexed.content && (isFullName(pageTitle) || pageTitle === documentTitle)) indexed.digest = digestOf(indexed.content);
      if (changelog) indexed.changelog = true;
      if (entryShare >= MIN_OVERVIEW_SHARE) indexed.overview = Math.round(100 * entryShare) / 100;
      this.sections[indexed.id] = indexed;
      this.terms.add(indexed);
      ids.push(indexed.id);
    }
    this.mentionsByName.clear();
    this.savedMentions.clear();
    this.fieldSearch.clear();
    if (documentTitle && pageTitle === documentTitle) this.titledByDocument.push({ title: pageTitle, ids });
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
    const reading = readQuery(text);
    if (!reading) return [];
    this.settleTitles();
    const found = findSections(this.fieldSearch, reading);
    return groupByPage(rank(this.rankedSite(), reading, found));
  }

  private rankedSite(): RankedSite {
    return { section: (id) => this.sections[id]!, mentions: (name) => this.mentions(name) };
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
    const termParts: string[] = [];
    let last: string | undefined;
    for (const { first, items, json } of jsonParts(this.terms.sortedTerms(), sizes.terms, ([term, postings, written]) =>
      termJson(term, postings, written),
    )) {
      const index = termParts.push(last === undefined ? '' : startAfter(last, first[0])) - 1;
      last = items.at(-1)![0];
      yield { name: `terms-${index}`, json: `{"part":"terms","index":${index},"terms":[${json}]}` };
    }
    const sectionCounts: number[] = [];
    for (const { first, items } of jsonParts(this.sections, sizes.sections, ({ content, runTogether, ...section }) =>
      JSON.stringify(section),
    )) {
      const index = sectionCounts.push(items.length) - 1;
      const pages: SavedPage[] = [];
      const pageAt = new Map<string, number>();
      const columns: SavedColumns = {};
      for (const [offset, { id, path, pageSections, pageTitle, pageName, content, runTogether, apiName, ...own }] of items.entries()) {
        let page = pageAt.get(path);
        if (page === undefined) {
          page = pages.push(pageName === pageTitle ? [path, pageSections, pageTitle] : [path, pageSections, pageTitle, pageName]) - 1;
          pageAt.set(path, page);
        }
        const saved: SavedSection = { page, ...own };
        for (const key of Object.keys(saved) as (keyof SavedSection)[]) {
          const value = OFTEN_PAGE_TITLE.has(key) && saved[key] === pageTitle ? null : saved[key];
          // Sections before this one that have no such field get nulls.
          columns[key] ??= [];
          const column = columns[key] as unknown[];
          column.length = offset;
          column.push(value);
        }
      }
      for (const column of Object.values(columns)) column.length = items.length;
      const lengths = items.map(({ id }) => this.terms.savedLengths(id));
      // In the order of their names: an index loaded and saved again saves the same.
      const sorted = Object.fromEntries(Object.entries(columns).sort(([a], [b]) => (a < b ? -1 : 1))) as SavedColumns;
      const body: SavedBody = { part: 'sections', index, first: first.id, pages, columns: sorted, lengths };
      yield { name: `sections-${index}`, json: JSON.stringify(body) };
    }
    const textCounts: number[] = [];
    const savedText = ({ content, runTogether }: IndexedSection) =>
      JSON.stringify((runTogether ? [content, runTogether] : content) satisfies SavedText);
    for (const { first, json } of jsonParts(this.sections, sizes.texts, savedText)) {
      const index = textCounts.push(json.length) - 1;
      yield { name: `texts-${index}`, json: `{"part":"texts","index":${index},"first":${first.id},"texts":[${json}]}` };
    }
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
      this.directory = {
        termParts: saved.termParts,
        sectionParts: starts(saved.sectionCounts),
        textParts: starts(saved.textCounts),
        added: this.directory?.added ?? new Set(),
      };
      return;
    }
    if (saved.part === 'titles') {
      this.documentTitles.push(...saved.documentTitles);
      this.titledByDocument.push(...saved.titledByDocument);
      // Saved with their titles settled.
      this.suffixFromTitles = this.documentTitles.length;
      return;
    }
    this.directory ??= { termParts: [], sectionParts: [], textParts: [], added: new Set() };
    this.directory.added.add(`${saved.part}-${saved.index}`);
    if (saved.part === 'terms') this.terms.loadTerms(saved.terms);
    else if (saved.part === 'texts')
      for (const [offset, text] of saved.texts.entries()) {
        const section = this.sections[saved.first + offset];
        if (section) withText(section, text);
        else this.textsAhead.set(saved.first + offset, text);
      }
    else
      for (const [offset, lengths] of saved.lengths.entries()) {
        const id = saved.first + offset;
        const own: Record<string, unknown> = {};
        for (const [key, column] of Object.entries(saved.columns)) if (column[offset] !== null) own[key] = column[offset];
        const { page, ...fields } = own as SavedSection;
        const [path, pageSections, pageTitle, pageName = pageTitle] = saved.pages[page]!;
        const section: IndexedSection = {
          id,
          path,
          pageSections,
          pageTitle,
          pageName,
          ...fields,
          title: fields.title ?? pageTitle,
          anchor: fields.anchor ?? pageTitle,
          content: '',
        };
        withText(section, this.textsAhead.get(id) ?? '');
        const apiName = apiNameOf(section.role, section.anchor);
        if (apiName) section.apiName = apiName;
        this.sections[id] = section;
        this.textsAhead.delete(id);
        this.terms.loadLengths(id, lengths);
      }
    this.mentionsByName.clear();
    this.fieldSearch.clear();
  }

  /**
   * The parts a query needs that are not added yet (see the contract above): the terms parts where
   * its words and the words they start would be, else the sections parts of the sections they hold,
   * else the texts parts of the sections whose text the ranking reads (rule 3 of `rank`).
   */
  partsFor(text: string): string[] {
    const reading = readQuery(text);
    if (!reading || !this.directory) return [];
    const { termParts, sectionParts, added } = this.directory;
    const words = lookups(reading);
    const needed = new Set<string>();
    for (const { word, prefix } of words)
      for (let part = partOf(termParts, word); part <= partOf(termParts, prefix ? `${word}\uffff` : word); part++)
        needed.add(`terms-${part}`);
    const missingTerms = [...needed].filter((name) => !added.has(name));
    if (missingTerms.length) return missingTerms;
    needed.clear();
    for (const { word, prefix } of words) {
      const forms = prefix ? [...this.terms.words().atPrefix(word).values()] : [this.terms.get(word)];
      for (const postings of forms)
        for (const inField of postings?.values() ?? []) for (const id of inField.keys()) needed.add(`sections-${partOf(sectionParts, id)}`);
    }
    const missingSections = [...needed].filter((name) => !added.has(name));
    if (missingSections.length) return missingSections;
    // Sections of other terms the search meets: a typo's nearest spellings, the parts of a compound.
    this.fieldSearch.clear();
    const found = findSections(this.fieldSearch, reading);
    const unloaded = new Set([...this.fieldSearch.unloaded].map((id) => `sections-${partOf(sectionParts, id)}`));
    if (unloaded.size) return [...unloaded];
    this.settleTitles();
    const ranked = weighed(this.rankedSite(), reading, found);
    return this.textsFor(proximityCandidates(reading, ranked).map((entry) => entry.section));
  }

  /** The texts parts not added yet of sections (those of the results shown: their text is only for excerpts). */
  textsFor(sections: readonly IndexedSection[]): string[] {
    if (!this.directory) return [];
    const { textParts, added } = this.directory;
    const needed = new Set(sections.map((section) => `texts-${partOf(textParts, section.id)}`));
    return [...needed].filter((name) => !added.has(name));
  }
}

/** A section with its saved text. */
function withText(section: IndexedSection, text: SavedText): void {
  if (typeof text === 'string') section.content = text;
  else [section.content, section.runTogether] = text;
}

/** The shortest start of `first` that sorts after `last` (which sorts before it): where a part of ordered terms starts. */
function startAfter(last: string, first: string): string {
  for (let length = 1; length < first.length; length++) if (first.slice(0, length) > last) return first.slice(0, length);
  return first;
}

/** The first section id of each part, from how many sections each holds. */
function starts(counts: readonly number[]): number[] {
  let id = 0;
  return counts.map((count) => {
    const first = id;
    id += count;
    return first;
  });
}

/** The part of ordered parts (by where they start) where a key is. */
function partOf(starts: readonly (string | number)[], key: string | number): number {
  let part = 0;
  while (part + 1 < starts.length && starts[part + 1]! <= key) part++;
  return part;
}

/** Items in parts of about `partChars` of JSON (`json`: an item's, or of what a part keeps of it), with their first. */
function* jsonParts<T>(
  items: Iterable<T>,
  partChars: number,
  json: (item: T) => string,
): Generator<{ first: T; items: T[]; json: string[] }> {
  let part: { items: T[]; json: string[] } = { items: [], json: [] };
  let length = 0;
  for (const item of items) {
    const written = json(item);
    part.items.push(item);
    part.json.push(written);
    length += written.length;
    if (length >= partChars) {
      yield { first: part.items[0]!, ...part };
      part = { items: [], json: [] };
      length = 0;
    }
  }
  if (part.items.length) yield { first: part.items[0]!, ...part };
}

/** Release notes, found by structure: a title that says so, or a page whose headings are mostly versions. */
function isChangelog(name: string, sections: SplitPage['sections']): boolean {
  if (/what['’]?s new|change ?log|release notes|^(?:change )?history$|^changes$/i.test(name.trim())) return true;
  const versions = sections.filter((section) => /(?:^|\s)v?\d+\.\d+(?:\.\d+)*\b/.test(section.title.replace(SECTION_NUMBER, ''))).length;
  return sections.length >= 4 && versions >= sections.length / 2;
}
