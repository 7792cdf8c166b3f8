import MiniSearch, { type AsPlainObject, type Options, type SearchOptions, type SearchResult } from 'minisearch';
import { splitSections, type SplitPage } from '../extraction/sections.ts';
import { commonTitleSuffix, withoutSuffix } from '../extraction/structure/titles.ts';

/** One section of one page, as indexed. */
export interface IndexedSection {
  id: number;
  path: string;
  /** What search results call the page. */
  pageTitle: string;
  /** What the page calls itself, which queries match: a full name in the title would match its module's words. */
  pageName: string;
  /** Anchor of the section, empty for the content before the first heading. */
  anchor: string;
  title: string;
  content: string;
  role: string | undefined;
}

export interface SectionHit {
  section: IndexedSection;
  score: number;
  /** Words of the section that matched (after prefix and typo expansion), lower case. */
  matchedWords: ReadonlySet<string>;
}

export interface PageHit {
  path: string;
  title: string;
  score: number;
  sections: SectionHit[];
  matchedWords: ReadonlySet<string>;
}

/** Words as the index splits them: runs of anything but white space, punctuation and symbols. */
const WORD = /[^\s\p{Z}\p{P}\p{S}]+/gu;

function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Longer queries are cut to this many words: past it, relevance stops improving. */
export const MAX_QUERY_WORDS = 24;

const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 3, pageName: 1.5, content: 1 },
  // Every word may be the start of a longer one (the reader is still typing it)…
  prefix: (term) => term.length >= 2,
  // …and words of four letters or more tolerate one typo: one edit, or two from seven letters on,
  // which covers swapped letters ("retires" for "retries").
  fuzzy: (term) => (term.length >= 7 ? 2 : term.length >= 4 ? 1 : false),
  weights: { prefix: 0.4, fuzzy: 0.3 },
};

/** How many sections of one page a result shows. */
const SECTIONS_PER_PAGE = 3;

/** The engine's options (exported for the test that builds its saved form both ways). */
export const ENGINE_OPTIONS: Options<IndexedSection> = {
  fields: ['title', 'pageName', 'content'],
  storeFields: [],
  tokenize: words,
  searchOptions: SEARCH_OPTIONS,
};

/** The fields the engine indexes, by their ids in its saved form. */
const FIELDS = ENGINE_OPTIONS.fields as ('title' | 'pageName' | 'content')[];

/** What `VersionIndex` needs of its engine. */
type Engine = Pick<MiniSearch<IndexedSection>, 'addAll' | 'search' | 'toJSON'>;

/**
 * Builds the engine's saved form directly, counting what `MiniSearch.add` counts (each field's
 * distinct words, each term's frequency in it) in plain maps instead of MiniSearch's search tree,
 * about twice as fast while pages are added. The first search loads a MiniSearch from it; later ones
 * add to that MiniSearch what was added since (searches while indexing are few).
 */
class EngineBuilder implements Engine {
  private readonly documents: IndexedSection[] = [];
  /** Term → field id → short document id → frequency. */
  private readonly terms = new Map<string, Map<number, Map<number, number>>>();
  private readonly documentIds: Record<number, number> = {};
  private readonly fieldLength: Record<number, number[]> = {};
  private readonly averageFieldLength: number[] = [];
  private documentCount = 0;
  private searchable: MiniSearch<IndexedSection> | undefined;

  addAll(documents: readonly IndexedSection[]): void {
    for (const document of documents) this.add(document);
    this.documents.push(...documents);
  }

  /** As `MiniSearch.add`: short ids in order, lengths and the running average length as it computes them. */
  private add(document: IndexedSection): void {
    const shortId = this.documentCount++;
    this.documentIds[shortId] = document.id;
    const lengths: number[] = [];
    for (const [fieldId, field] of FIELDS.entries()) {
      const value = document[field];
      if (value == null) continue;
      const tokens = words(value);
      const length = new Set(tokens).size;
      lengths[fieldId] = length;
      const before = this.documentCount - 1;
      this.averageFieldLength[fieldId] = ((this.averageFieldLength[fieldId] || 0) * before + length) / (before + 1);
      for (const token of tokens) {
        const term = token.toLowerCase();
        let fields = this.terms.get(term);
        if (!fields) {
          fields = new Map();
          this.terms.set(term, fields);
        }
        let frequencies = fields.get(fieldId);
        if (!frequencies) {
          frequencies = new Map();
          fields.set(fieldId, frequencies);
        }
        frequencies.set(shortId, (frequencies.get(shortId) ?? 0) + 1);
      }
    }
    this.fieldLength[shortId] = lengths;
  }

  search(...query: Parameters<Engine['search']>): ReturnType<Engine['search']> {
    if (!this.searchable) this.searchable = MiniSearch.loadJS(this.toJSON(), ENGINE_OPTIONS);
    else this.searchable.addAll(this.documents.slice(this.searchable.documentCount));
    return this.searchable.search(...query);
  }

  toJSON(): AsPlainObject {
    return {
      documentCount: this.documentCount,
      nextId: this.documentCount,
      documentIds: this.documentIds,
      fieldIds: Object.fromEntries(FIELDS.map((field, fieldId) => [field, fieldId])),
      fieldLength: this.fieldLength,
      averageFieldLength: [...this.averageFieldLength],
      storedFields: {},
      dirtCount: 0,
      index: [...this.terms].map(([term, fields]) => [
        term,
        Object.fromEntries([...fields].map(([fieldId, frequencies]) => [fieldId, Object.fromEntries(frequencies)])),
      ]),
      serializationVersion: 2,
    };
  }
}

/** A version's index as saved and loaded: the engine's own form, the sections it returns, what titles are settled from. */
interface SavedIndex {
  engine: AsPlainObject;
  sections: IndexedSection[];
  documentTitles: string[];
  /** Pages titled by their `<title>`, by the ids of their sections. */
  titledByDocument: { title: string; ids: number[] }[];
}

/** Full-text index of one documentation version: BM25 ranking over sections, grouped into pages. */
export class VersionIndex {
  private readonly sections: IndexedSection[] = [];
  /** Every page's `<title>`: what they all end with is the site's name. */
  private readonly documentTitles: string[] = [];
  /** Pages titled by their `<title>` (no heading of their own), whose titles lose the site's name. */
  private readonly titledByDocument: { title: string; sections: IndexedSection[] }[] = [];
  private suffixFromTitles = 0;

  constructor(private readonly engine: Engine = new EngineBuilder()) {}

  /** An index saved with `JSON.stringify(index)`; the engine is rebuilt in steps that let other work run between them. */
  static async fromJSON(json: string): Promise<VersionIndex> {
    const saved = JSON.parse(json) as SavedIndex;
    const index = new VersionIndex(await MiniSearch.loadJSAsync(saved.engine, ENGINE_OPTIONS));
    index.sections.push(...saved.sections);
    index.documentTitles.push(...saved.documentTitles);
    for (const { title, ids } of saved.titledByDocument)
      index.titledByDocument.push({ title, sections: ids.map((id) => index.sections[id]!) });
    return index;
  }

  toJSON(): SavedIndex {
    return {
      engine: this.engine.toJSON(),
      sections: this.sections,
      documentTitles: this.documentTitles,
      titledByDocument: this.titledByDocument.map(({ title, sections }) => ({ title, ids: sections.map((section) => section.id) })),
    };
  }

  get size(): { pages: number; sections: number } {
    return { pages: new Set(this.sections.map((section) => section.path)).size, sections: this.sections.length };
  }

  /** Indexes a page's sections; generated indexes and search pages are left out. */
  addPage(path: string, html: string): void {
    this.addSplitPage(path, splitSections(html, path));
  }

  /** Indexes a page already split into sections (by a worker thread). */
  addSplitPage(path: string, { title: pageTitle, name, sections, kind, documentTitle }: SplitPage): void {
    if (documentTitle) this.documentTitles.push(documentTitle);
    if (kind !== 'content') return;
    const first = this.sections.length;
    const added = sections.map((section, index) => ({
      id: first + index,
      path,
      pageTitle,
      pageName: name,
      anchor: section.id,
      title: section.title,
      content: section.content,
      role: section.role,
    }));
    this.sections.push(...added);
    this.engine.addAll(added);
    if (documentTitle && pageTitle === documentTitle) this.titledByDocument.push({ title: pageTitle, sections: added });
  }

  /** Drops the site's name from titles taken from `<title>`, once all pages so far are known. */
  private settleTitles(): void {
    if (this.suffixFromTitles === this.documentTitles.length) return;
    this.suffixFromTitles = this.documentTitles.length;
    const suffix = commonTitleSuffix(this.documentTitles);
    for (const page of this.titledByDocument) {
      for (const section of page.sections) {
        if (section.pageTitle === section.title) section.title = withoutSuffix(page.title, suffix);
        section.pageTitle = withoutSuffix(page.title, suffix);
      }
    }
  }

  /** Each indexed page's title, as search results show it (the real-docs suite measures them). */
  pageTitles(): Map<string, string> {
    this.settleTitles();
    return new Map(this.sections.map((section) => [section.path, section.pageTitle]));
  }

  /** Pages best first, each with its best sections. AND of all words first; any word if that finds nothing. */
  search(text: string): PageHit[] {
    const query = words(text).slice(0, MAX_QUERY_WORDS).join(' ');
    if (!query) return [];
    this.settleTitles();
    let results = this.engine.search(query, { combineWith: 'AND' });
    if (results.length === 0) results = this.engine.search(query, { combineWith: 'OR' });
    return this.groupByPage(results);
  }

  private groupByPage(results: SearchResult[]): PageHit[] {
    const pages = new Map<string, PageHit>();
    for (const result of results) {
      const section = this.sections[result.id as number]!;
      const hit: SectionHit = { section, score: result.score, matchedWords: new Set(result.terms) };
      const page = pages.get(section.path);
      if (!page) {
        pages.set(section.path, {
          path: section.path,
          title: section.pageTitle,
          score: result.score,
          sections: [hit],
          matchedWords: new Set(result.terms),
        });
        continue;
      }
      // The page ranks by its best section, nudged up by the others that match.
      page.score += result.score * 0.1;
      page.sections.push(hit);
      for (const word of result.terms) (page.matchedWords as Set<string>).add(word);
    }
    const ranked = [...pages.values()].sort((a, b) => b.score - a.score);
    for (const page of ranked) page.sections = page.sections.slice(0, SECTIONS_PER_PAGE);
    return ranked;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** HTML-escaped `text` with every matched word wrapped in `<span>`, as the search API returns it. */
export function highlight(text: string, words: ReadonlySet<string>): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    if (!words.has(match[0].toLowerCase())) continue;
    html += `${escapeHtml(text.slice(last, match.index))}<span>${escapeHtml(match[0])}</span>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

/** Up to `count` highlighted excerpts of about `width` characters around the matches in `text`. */
export function highlightExcerpts(text: string, words: ReadonlySet<string>, count = 3, width = 160): string[] {
  const matches = [...text.matchAll(WORD)].filter((match) => words.has(match[0].toLowerCase()));
  const excerpts: string[] = [];
  let coveredUntil = -1;
  for (const match of matches) {
    if (excerpts.length === count) break;
    if (match.index < coveredUntil) continue;
    let start = Math.max(0, match.index - Math.floor(width / 3));
    let end = Math.min(text.length, start + width);
    // Whole words only at the edges.
    if (start > 0) start = text.indexOf(' ', start) + 1 || start;
    if (end < text.length) end = text.lastIndexOf(' ', end) > match.index ? text.lastIndexOf(' ', end) : end;
    excerpts.push(highlight(text.slice(start, end), words));
    coveredUntil = end;
  }
  return excerpts;
}
