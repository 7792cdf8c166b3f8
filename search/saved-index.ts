/**
 * An index's saved form: the parts `SearchIndex.savedParts` writes and `addPart` reads, how each kind
 * is written and read, and the directory of an index loaded part by part (which part holds a term, a
 * section or a section's text, and which parts are added).
 */
import { apiNameOf, type IndexedSection } from './fields.ts';
import { type SavedTerm, termJson, type TermsIndex } from './terms-index.ts';

/** The version of what an index holds and how it is saved: a saved index of another version is built again. */
export const FORMAT_VERSION = 10;

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
export const SAVED_PART_SIZES: PartSizes = { terms: 1 << 16, sections: 1 << 18, texts: 1 << 13 };

export interface SavedHead {
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

type SavedSections = { part: 'sections'; index: number; first: number; pages: SavedPage[]; columns: SavedColumns; lengths: number[][] };

export type SavedBody =
  | { part: 'titles'; documentTitles: string[]; titledByDocument: { title: string; ids: number[] }[] }
  | { part: 'terms'; index: number; terms: SavedTerm[] }
  | SavedSections
  | { part: 'texts'; index: number; first: number; texts: SavedText[] };

/** A section's text as saved, with the places where the hosting service's runs together when it has them (see `runTogether`). */
export type SavedText = string | [content: string, runTogether: number[]];

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
 * it is its page's title: see `OFTEN_PAGE_TITLE`; an anchor `TITLE_ID` where it is its page's title as
 * an id): values of one kind side by side compress better than objects.
 */
type SavedColumns = { [K in Exclude<keyof SavedSection, 'anchor'>]?: (SavedSection[K] | null)[] } & {
  anchor?: (string | typeof TITLE_ID | null)[];
};

/** Fields often their page's title (a page's first heading; an object's anchor on the page generated for it). */
const OFTEN_PAGE_TITLE = new Set<keyof SavedSection>(['title', 'anchor']);

/** An anchor that is its page's title as an id (`titleId`). */
const TITLE_ID = 0;

/**
 * A page's title as Sphinx makes an id of it (`pandas.DataFrame.merge` → `pandas-dataframe-merge`): the
 * anchor of the object's section on the page generated for it, half of pandas' anchors (a tenth of its sections parts).
 */
const titleId = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A section's field as saved in its column (see `SavedColumns`). */
function savedValue(key: keyof SavedSection, value: SavedSection[keyof SavedSection], pageTitle: string): unknown {
  if (OFTEN_PAGE_TITLE.has(key) && value === pageTitle) return null;
  return key === 'anchor' && value === titleId(pageTitle) ? TITLE_ID : value;
}

/** The terms parts, terms in the order of their names, each covering a range of them; returns where each starts. */
export function* savedTerms(terms: TermsIndex, partChars: number): Generator<SavedPart, string[]> {
  const termParts: string[] = [];
  let last: string | undefined;
  for (const { first, items, json } of jsonParts(terms.sortedTerms(), partChars, ([term, postings, written]) =>
    termJson(term, postings, written),
  )) {
    const index = termParts.push(last === undefined ? '' : startAfter(last, first[0])) - 1;
    last = items.at(-1)![0];
    yield { name: `terms-${index}`, json: `{"part":"terms","index":${index},"terms":[${json}]}` };
  }
  return termParts;
}

/** The sections parts, sections in the order of their ids with their fields' lengths; returns how many each holds. */
export function* savedSections(sections: IndexedSection[], terms: TermsIndex, partChars: number): Generator<SavedPart, number[]> {
  const sectionCounts: number[] = [];
  for (const { first, items } of jsonParts(sections, partChars, ({ content, runTogether, ...section }) => JSON.stringify(section))) {
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
        // Sections before this one that have no such field get nulls.
        columns[key] ??= [];
        const column = columns[key] as unknown[];
        column.length = offset;
        column.push(savedValue(key, saved[key], pageTitle));
      }
    }
    for (const column of Object.values(columns)) column.length = items.length;
    const lengths = items.map(({ id }) => terms.savedLengths(id));
    // In the order of their names: an index loaded and saved again saves the same.
    const sorted = Object.fromEntries(Object.entries(columns).sort(([a], [b]) => (a < b ? -1 : 1))) as SavedColumns;
    const body: SavedBody = { part: 'sections', index, first: first.id, pages, columns: sorted, lengths };
    yield { name: `sections-${index}`, json: JSON.stringify(body) };
  }
  return sectionCounts;
}

/** The texts parts, sections' texts in the order of their ids; returns how many each holds. */
export function* savedTexts(sections: IndexedSection[], partChars: number): Generator<SavedPart, number[]> {
  const textCounts: number[] = [];
  const savedText = ({ content, runTogether }: IndexedSection) =>
    JSON.stringify((runTogether ? [content, runTogether] : content) satisfies SavedText);
  for (const { first, json } of jsonParts(sections, partChars, savedText)) {
    const index = textCounts.push(json.length) - 1;
    yield { name: `texts-${index}`, json: `{"part":"texts","index":${index},"first":${first.id},"texts":[${json}]}` };
  }
  return textCounts;
}

/** A sections part's sections (their texts empty: those are in texts parts), each with its fields' lengths. */
export function* loadedSections(saved: SavedSections): Generator<{ section: IndexedSection; lengths: number[] }> {
  for (const [offset, lengths] of saved.lengths.entries()) {
    const own: Record<string, unknown> = {};
    for (const [key, column] of Object.entries(saved.columns)) if (column[offset] !== null) own[key] = column[offset];
    const { page, anchor, ...fields } = own as Omit<SavedSection, 'anchor'> & { anchor?: string | typeof TITLE_ID };
    const [path, pageSections, pageTitle, pageName = pageTitle] = saved.pages[page]!;
    const section: IndexedSection = {
      id: saved.first + offset,
      path,
      pageSections,
      pageTitle,
      pageName,
      ...fields,
      title: fields.title ?? pageTitle,
      anchor: anchor === TITLE_ID ? titleId(pageTitle) : (anchor ?? pageTitle),
      content: '',
    };
    const apiName = apiNameOf(section.role, section.anchor, section.title);
    if (apiName) section.apiName = apiName;
    yield { section, lengths };
  }
}

/** A section with its saved text. */
export function withText(section: IndexedSection, text: SavedText): void {
  if (typeof text === 'string') section.content = text;
  else [section.content, section.runTogether] = text;
}

/** Of an index loaded in parts: which part holds a term, a section or its text (from the head), and the parts added. */
export class PartsDirectory {
  private termParts: string[] = [];
  private sectionParts: number[] = [];
  private textParts: number[] = [];
  private readonly added = new Set<string>();

  readHead(head: SavedHead): void {
    this.termParts = head.termParts;
    this.sectionParts = starts(head.sectionCounts);
    this.textParts = starts(head.textCounts);
  }

  add(name: string): void {
    this.added.add(name);
  }

  /** The terms parts where a word would be, and with `prefix` the words it starts. */
  termsParts(word: string, prefix: boolean): string[] {
    const names: string[] = [];
    for (let part = partOf(this.termParts, word); part <= partOf(this.termParts, prefix ? `${word}\uffff` : word); part++)
      names.push(`terms-${part}`);
    return names;
  }

  sectionsPart(id: number): string {
    return `sections-${partOf(this.sectionParts, id)}`;
  }

  textsPart(id: number): string {
    return `texts-${partOf(this.textParts, id)}`;
  }

  /** Of parts named, those not added yet. */
  missing(names: Iterable<string>): string[] {
    return [...new Set(names)].filter((name) => !this.added.has(name));
  }
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
