import MiniSearch, { type AsPlainObject, type Options, type SearchOptions } from 'minisearch';
import { splitSections, type SplitPage } from '../extraction/sections.ts';
import { FieldSearch, type FieldHit } from './field-search.ts';
import { internalsOf, type TermData } from './minisearch-internals.ts';
import { commonTitleSuffix, withoutSuffix } from '../extraction/structure/titles.ts';
import { queryTerms, stem, WHOLE, queryTokens, termsOf, tokenMatches, tokens, VERSION_NUMBER } from './search-terms.ts';

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
  /** The full name of a documented object (`pandas.DataFrame.merge`): its anchor, where its title is a signature. */
  apiName?: string;
  /** On a page of release notes, which ranks below guides unless the query names a version. */
  changelog?: true;
  /** On an overview, how much of the page is entries linking elsewhere (`SplitPage.entryShare`), when that is much. */
  overview?: number;
}

export interface SectionHit {
  section: IndexedSection;
  score: number;
  /** Terms of the section that matched (after prefix and typo expansion), as the index keeps them. */
  matchedWords: ReadonlySet<string>;
}

export interface PageHit {
  path: string;
  title: string;
  score: number;
  sections: SectionHit[];
  matchedWords: ReadonlySet<string>;
}

/** Longer queries are cut to this many words: past it, relevance stops improving. */
export const MAX_QUERY_WORDS = 24;

const SEARCH_OPTIONS: SearchOptions = {
  // A name or heading that holds a word says more than a paragraph that does.
  boost: { title: 3, apiName: 1, pageName: 2, lead: 2, content: 1 },
  // `search` hands the engine its terms already processed, one per space.
  tokenize: (terms) => terms.split(' '),
  processTerm: (term) => term,
  weights: { prefix: 0.4, fuzzy: 0.3 },
  // Sections differ in length by kind (a one-line API entry, a long section of a guide), not by how much they are
  // about a word: length weighs less than in BM25's usual form (b = 0.75), a repeated word a little more.
  bm25: { k: 1.5, b: 0.3, d: 0.5 },
};

/** Every word or name may be the start of a longer one (the reader is still typing it: "url_fo"). */
const isPrefix = (term: string) => (term.startsWith(WHOLE) ? term.length > WHOLE.length + 3 : term.length >= 3 && /^[a-z]+$/.test(term));

/** Typos tolerated in a word (its stem): one from four letters on, two from eight. */
const typoEdits = (term: string): 0 | 1 | 2 => (/^[a-z]+$/.test(term) ? (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0) : 0);

/** What a word the reader may still be typing weighs as the start of a longer one (the engine's own weight of a prefix). */
const PREFIX_WEIGHT = 0.4;

/** The shortest stem a word cut short is taken to start with. */
const MIN_STEM = 4;

/** A word found in this many sections or more is the word the reader meant: its spellings are not searched. */
const FEW_SECTIONS = 3;

/** What a term's other fields than its best add, as a share of their scores. */
const TIE_BREAKER = 0.3;

/** What a spelling one edit from the word typed weighs against the word itself. */
const TYPO_WEIGHT = 0.3;

/** A section the query's terms found: what `rank` reads of it. */
interface Found {
  id: number;
  score: number;
  /** The query's terms it holds. */
  queryTerms: string[];
  /** The score of each of them. */
  termScores: number[];
  /** The forms of them it holds, as the index keeps them. */
  terms: string[];
}

/** How many sections of one page a result shows. */
const SECTIONS_PER_PAGE = 3;

/** The fields the engine indexes: a section's own, and its lead (see `leadOf`). */
type Field = 'title' | 'apiName' | 'pageName' | 'lead' | 'content';

/** A field's text in a section. */
function fieldOf(section: IndexedSection, field: Field): string | undefined {
  if (field === 'lead') return leadOf(section.content);
  // A documented object's title is its signature: its name says what it is, its parameters' names do not.
  // Its name is the signature's last word: before it may stand `class`, `async`, a return type.
  if (field === 'title' && section.apiName) return ownName(section.title.replace(SIGNATURE_REST, '').split(/\s+/).at(-1) ?? '');
  if (field === 'title' || field === 'pageName') return ownName(section[field]);
  return section[field];
}

/**
 * A full name's own part (`quantity_input` of `astropy.units.quantity_input`): its modules are where it
 * lives, not what it is (every name in `astropy.units` would be about units); the API name field keeps
 * the full name. Other titles as they are.
 */
function ownName(title: string): string {
  return isFullName(title) ? title.split(/\.|::/).at(-1)! : title;
}

/** What follows a documented object's name in its signature: parameters, a value, a `[source]` label. */
const SIGNATURE_REST = /\s*(?:[([]|\s=\s).*$/s;

/** The engine's options (exported for the test that builds its saved form both ways). */
export const ENGINE_OPTIONS: Options<IndexedSection> = {
  fields: ['title', 'apiName', 'pageName', 'lead', 'content'],
  storeFields: [],
  extractField: (section, field) => fieldOf(section, field as Field) as string,
  tokenize: tokens,
  // A copy: the terms of a token are shared with every caller (see `termsOf`).
  processTerm: (token) => [...termsOf(token)],
  searchOptions: SEARCH_OPTIONS,
};

/** The fields the engine indexes, by their ids in its saved form. */
const FIELDS = ENGINE_OPTIONS.fields as Field[];

/** What `VersionIndex` needs of its engine. */
type Engine = Pick<MiniSearch<IndexedSection>, 'addAll' | 'search'>;

/**
 * Counts what `MiniSearch.add` counts (each field's distinct words, each term's frequency in it) in
 * plain maps instead of MiniSearch's search tree, about twice as fast while pages are added, and
 * gives them in the engine's saved form.
 */
class TermCounts {
  /** Term → field id → short document id → frequency. */
  private readonly terms = new Map<string, TermData>();
  private readonly documentIds: Record<number, number> = {};
  private readonly fieldLength: Record<number, number[]> = {};
  private readonly averageFieldLength: number[] = [];
  private documentCount = 0;

  /** As `MiniSearch.add`: short ids in order, lengths and the running average length as it computes them. */
  add(document: IndexedSection): void {
    const shortId = this.documentCount++;
    this.documentIds[shortId] = document.id;
    const lengths: number[] = [];
    for (const [fieldId, field] of FIELDS.entries()) {
      const value = fieldOf(document, field);
      if (value == null) continue;
      const found = tokens(value);
      const length = new Set(found).size;
      lengths[fieldId] = length;
      const before = this.documentCount - 1;
      this.averageFieldLength[fieldId] = ((this.averageFieldLength[fieldId] || 0) * before + length) / (before + 1);
      // Counted in the field first, then added to the index once per term (in the order they first occur).
      const counted = new Map<string, number>();
      for (const token of found) for (const term of termsOf(token)) counted.set(term, (counted.get(term) ?? 0) + 1);
      for (const [term, frequency] of counted) {
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
        frequencies.set(shortId, frequency);
      }
    }
    this.fieldLength[shortId] = lengths;
  }

  /** The engine's saved form, its index left empty: the counts become the index itself (see `drain`). */
  plain(): AsPlainObject {
    return {
      documentCount: this.documentCount,
      nextId: this.documentCount,
      documentIds: this.documentIds,
      fieldIds: Object.fromEntries(FIELDS.map((field, fieldId) => [field, fieldId])),
      fieldLength: this.fieldLength,
      averageFieldLength: [...this.averageFieldLength],
      storedFields: {},
      dirtCount: 0,
      index: [],
      serializationVersion: 2,
    };
  }

  /** Each term with its counts, in the order they were first counted, taken out of the counts as they are read. */
  *drain(): Generator<[string, TermData]> {
    for (const entry of this.terms) {
      this.terms.delete(entry[0]);
      yield entry;
    }
  }
}

/**
 * About how long each part of a saved index is (see `VersionIndex.savedParts`): searches are answered
 * between parts, and one of 256K characters takes a few milliseconds to make.
 */
const SAVED_PART_CHARS = 1 << 18;

/** A term's entry in the engine's saved form (`[term, {fieldId: {shortId: frequency}}]`), as `JSON.stringify` writes it. */
function termJson(term: string, fields: TermData): string {
  const written: string[] = [];
  // Keys that are numbers come out in increasing order, as in any object's JSON; documents are counted in that order.
  for (const fieldId of [...fields.keys()].sort((a, b) => a - b)) {
    const frequencies: string[] = [];
    for (const [shortId, frequency] of fields.get(fieldId)!) frequencies.push(`"${shortId}":${frequency}`);
    written.push(`"${fieldId}":{${frequencies.join(',')}}`);
  }
  return `[${JSON.stringify(term)},{${written.join(',')}}]`;
}

/**
 * JSON arrays of `items` in parts of about `SAVED_PART_CHARS`: `[` with the first items, more items,
 * …, the last ones with `]`. Items are joined a part at a time, into one flat string: added one to
 * another, they would be kept as a tree of all their pieces until written.
 */
function* jsonArrayParts<T>(items: Iterable<T>, json: (item: T) => string): Generator<string> {
  let part: string[] = [];
  let length = 0;
  let opening = '[';
  for (const item of items) {
    const written = json(item);
    part.push(written);
    length += written.length;
    if (length >= SAVED_PART_CHARS) {
      yield `${opening}${part.join(',')}`;
      opening = ',';
      part = [];
      length = 0;
    }
  }
  yield `${opening === '[' ? '[' : part.length ? ',' : ''}${part.join(',')}]`;
}

/**
 * A MiniSearch's saved form (what `JSON.stringify(engine)` gives), in parts written from its index
 * as they are asked for: a large index's saved form is never held whole.
 */
function* engineParts(engine: MiniSearch<IndexedSection>): Generator<string> {
  const internals = internalsOf(engine);
  yield '{"index":';
  yield* jsonArrayParts(internals._index, ([term, fields]) => termJson(term, fields));
  const rest = {
    documentCount: internals._documentCount,
    nextId: internals._nextId,
    documentIds: Object.fromEntries(internals._documentIds),
    fieldIds: internals._fieldIds,
    fieldLength: Object.fromEntries(internals._fieldLength),
    averageFieldLength: internals._avgFieldLength,
    storedFields: Object.fromEntries(internals._storedFields),
    dirtCount: internals._dirtCount,
    serializationVersion: 2,
  } satisfies Omit<AsPlainObject, 'index'>;
  yield `,${JSON.stringify(rest).slice(1)}`;
}

/**
 * The engine of an index being built: term counts while pages are added (see `TermCounts`), turned
 * into a MiniSearch for the first search or once all pages are added (`searchable`). Pages added after
 * that go to the MiniSearch: the counts are dropped, so that the index is never held twice.
 */
class EngineBuilder implements Engine {
  private counts: TermCounts | undefined = new TermCounts();
  private engine: MiniSearch<IndexedSection> | undefined;

  addAll(documents: readonly IndexedSection[]): void {
    if (this.engine) this.engine.addAll(documents);
    else for (const document of documents) this.counts!.add(document);
  }

  /** The MiniSearch, made from the counts the first time. */
  searchable(): MiniSearch<IndexedSection> {
    if (this.engine) return this.engine;
    const counts = this.counts!;
    this.engine = MiniSearch.loadJS(counts.plain(), ENGINE_OPTIONS);
    // The counts are in the form MiniSearch keeps its index in: they become its index as they are (what
    // `loadJS` would make of their saved form, without that form and its copy, which took twice the memory).
    const index = internalsOf(this.engine)._index;
    for (const [term, fields] of counts.drain()) index.set(term, fields);
    this.counts = undefined;
    return this.engine;
  }

  search(...query: Parameters<Engine['search']>): ReturnType<Engine['search']> {
    return this.searchable().search(...query);
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
  /** Sections that mention a name, for rule 1 (see `rank`); counted again once pages are added. */
  private readonly mentionsByName = new Map<string, number>();
  private readonly sectionsByPage = new Map<string, number>();
  private counted = 0;
  /** Searches of one term in the engine's index (see `fieldSearch`), made once the engine is searchable. */
  private fields: FieldSearch | undefined;

  constructor(private readonly engine: EngineBuilder | MiniSearch<IndexedSection> = new EngineBuilder()) {}

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

  /**
   * The index as saved (and loaded by `fromJSON`), in parts of about 256K characters, each made as it is
   * asked for, to write one after the other: never joined nor made ahead, a large index's saved form
   * is never held whole (it was a third of the peak of building pandas' index).
   */
  *savedParts(): Generator<string> {
    yield '{"engine":';
    yield* engineParts(this.searchableEngine());
    yield ',"sections":';
    yield* jsonArrayParts(this.sections, (section) => JSON.stringify(section));
    const rest: Omit<SavedIndex, 'engine' | 'sections'> = {
      documentTitles: this.documentTitles,
      titledByDocument: this.titledByDocument.map(({ title, sections }) => ({ title, ids: sections.map((section) => section.id) })),
    };
    yield `,${JSON.stringify(rest).slice(1)}`;
  }

  get size(): { pages: number; sections: number } {
    return { pages: new Set(this.sections.map((section) => section.path)).size, sections: this.sections.length };
  }

  /** All pages are added: the engine takes its searchable form now, not at the first search. */
  finish(): void {
    this.settleTitles();
    this.searchableEngine();
  }

  private searchableEngine(): MiniSearch<IndexedSection> {
    return this.engine instanceof EngineBuilder ? this.engine.searchable() : this.engine;
  }

  /** Indexes a page's sections; search pages and redirects are left out, of generated indexes and hubs only their headings. */
  addPage(path: string, html: string): void {
    this.addSplitPage(path, splitSections(html, path));
  }

  /** Indexes a page already split into sections (by a worker thread). */
  addSplitPage(path: string, { title: pageTitle, name, sections, kind, documentTitle, entryShare }: SplitPage): void {
    if (documentTitle) this.documentTitles.push(documentTitle);
    if (kind !== 'content' && kind !== 'index') return;
    const first = this.sections.length;
    const changelog = isChangelog(name, sections);
    const added = sections.map((section, index) => {
      const indexed: IndexedSection = {
        id: first + index,
        path,
        pageTitle,
        pageName: name,
        anchor: section.id,
        title: section.title,
        // A hub (a heading and a table of contents) is found by its headings; the titles it lists are other pages'.
        content: kind === 'index' ? '' : section.content,
        role: section.role,
      };
      if (section.role && API_NAME.test(section.id)) indexed.apiName = section.id;
      if (changelog) indexed.changelog = true;
      if (entryShare >= MIN_OVERVIEW_SHARE) indexed.overview = Math.round(100 * entryShare) / 100;
      return indexed;
    });
    this.sections.push(...added);
    this.engine.addAll(added);
    this.mentionsByName.clear();
    this.fields?.clear();
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

  /**
   * Pages best first, each with its best sections. Any word may match; each section's score is the
   * sum over the query's terms of the engine's BM25 score of the term's best form in it (see
   * `termHits`), then adjusted by the rules of `rank`.
   */
  search(text: string): PageHit[] {
    const query = queryTokens(text, MAX_QUERY_WORDS);
    if (query.length === 0) return [];
    this.settleTitles();
    const terms = queryTerms(query);
    // Plain words as typed, by their stems.
    const typed = new Map(
      query.filter((token) => /^[a-z]+$/i.test(token)).map((token) => [stem(token.toLowerCase()), token.toLowerCase()]),
    );
    // Words before the last are whole: the reader went on to the next.
    const beingTyped = new Set(queryTerms(query.slice(-1)));
    const found = new Map<number, Found>();
    for (const term of [...terms, ...spelledNames(text).filter((name) => !terms.includes(name))]) {
      for (const [id, hit] of this.termHits(term, typed.get(term), beingTyped.has(term))) {
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
    const typing = [...beingTyped].find((term) => isPrefix(term) && isPlain(term));
    return this.groupByPage(this.rank({ query, terms, asksForDefinition: DEFINITION_QUESTION.test(text), typing }, [...found.values()]));
  }

  /**
   * The sections that hold a term of the query, by its best form in each: the term itself or a word
   * it starts (the reader may still be typing it), the word as typed as the start of a longer one,
   * the stems it starts with (the stem of a word cut short is no stem: "equivalen" is "equival…");
   * for a word the site hardly has, also its nearest spellings (a typo). Forms of one word never
   * add up: a section holding several counts the best.
   */
  private termHits(term: string, typed: string | undefined, beingTyped: boolean): Map<number, { score: number; words: string[] }> {
    const hits = new Map<number, { score: number; words: string[] }>();
    const take = (results: FieldHit[], weight: number) => {
      for (const result of results) {
        const score = result.score * weight;
        const held = hits.get(result.id);
        if (!held || score > held.score) hits.set(result.id, { score, words: result.words });
      }
    };
    // A word the reader went past is whole when the site has it; one the site lacks may have been cut short.
    const whole = beingTyped && isPrefix(term) ? undefined : this.fieldSearch().search(term, false);
    const prefix = isPrefix(term) && !whole?.length;
    take(prefix ? this.fieldSearch().search(term, true) : whole!, 1);
    if (!typed) return hits;
    if (prefix && typed !== term) take(this.fieldSearch().search(typed, true), PREFIX_WEIGHT);
    if (prefix)
      for (let length = typed.length - 1; length >= Math.max(MIN_STEM, typed.length - 3); length--)
        if (typed.slice(0, length) !== term) take(this.fieldSearch().search(typed.slice(0, length), false), PREFIX_WEIGHT);
    const edits = typoEdits(term);
    if (edits === 0 || hits.size >= FEW_SECTIONS) return hits;
    // The nearest spellings by Damerau's count.
    for (const { word, distance } of this.fieldSearch().nearestWords(term, edits))
      take(this.fieldSearch().search(word, false), (TYPO_WEIGHT * word.length) / (word.length + distance));
    return hits;
  }

  /**
   * A term's sections by its best field in each (a name in a title, the page's name and the API
   * name says the same once), the others adding a little: BM25 per field, joined as a
   * disjunction-max query (Lucene's, with a tie breaker).
   */
  private fieldSearch(): FieldSearch {
    this.fields ??= new FieldSearch(this.searchableEngine(), {
      fields: FIELDS,
      tieBreaker: TIE_BREAKER,
    });
    return this.fields;
  }

  /**
   * The rules on top of BM25, in order of strength:
   * 1. An exact name: a documented object whose full name ends with the query (`merge`,
   *    `DataFrame.merge`, `HealthCheck too_slow`) comes first, among namesakes the one on the object
   *    the site mentions most (its central object); then a section or page whose
   *    title says exactly the query's words.
   *    A glossary's entry is lifted so only when the query asks what a term is.
   * 2. Release notes rank below the rest unless the query names a version or release notes; an
   *    overview's lines (a summary table of other pages) weigh less than the pages they sum up.
   * 3. Sections where the query's words stand close together (a phrase) rank higher.
   */
  private rank({ query, terms, asksForDefinition, typing }: QueryReading, results: Found[]): RankedSection[] {
    if (results.length === 0) return [];
    const asName = query.join('.').toLowerCase();
    const wordStems = new Set(terms.filter(isPlain));
    const versions = new Set(query.filter((token) => VERSION_NUMBER.test(token)).map(versionOf));
    const asksForReleases = versions.size > 0 || query.some((token) => /^(changelog|changes|release|releases)$/i.test(token));
    const ranked: RankedSection[] = results.map((result) => {
      const section = this.sections[result.id]!;
      // Release notes weigh less, unless the query asks for them; then the notes of the version it names
      // (in their title, not in passing) weigh more.
      const weight = !section.changelog
        ? 1
        : !asksForReleases
          ? CHANGELOG_WEIGHT
          : tokens(`${section.title} ${section.pageName}`).some((token) => versions.has(versionOf(token)))
            ? 1 / CHANGELOG_WEIGHT
            : 1;
      // An overview's line on an object is the object's page in brief: that page answers.
      const overview = 1 - OVERVIEW_DISCOUNT * (section.overview ?? 0);
      return { section, result, base: result.score * weight * overview, tier: 0 };
    });
    ranked.sort((a, b) => b.base - a.base);
    if (wordStems.size > 1) for (const entry of ranked.slice(0, PROXIMITY_CANDIDATES)) entry.base *= 1 + proximity(entry.section, terms);
    const best = Math.max(...ranked.map((entry) => entry.base));
    // A name or title that says the whole query holds every one of its terms.
    const exact = ranked.filter((entry) => entry.result.queryTerms.length >= terms.length && (!entry.section.changelog || asksForReleases));
    const named = exact.filter(
      (entry) => entry.section.apiName && endsWithName(entry.section.apiName, asName, query) && documents(entry.section),
    );
    // A word being typed stands for the shortest word the site has on its way ("skycoo" for "SkyCoord", not "SkyCoordInfo").
    const completion = typing && shortestCompletion(typing, ranked);
    // Names whole too: the title `task_acks_late` says "task_acks_late", not "task acks late".
    const titleStems = new Set(terms.map((term) => (term === typing && completion ? completion : term)));
    // A glossary's entry defines a term in brief and points to where it is explained: lifted only for "what is…".
    const titled = exact.filter(
      (entry) =>
        (asksForDefinition || entry.section.role !== GLOSSARY_ENTRY) &&
        (sameWords(fieldOf(entry.section, 'title')!, titleStems) || sameWords(fieldOf(entry.section, 'pageName')!, titleStems)),
    );
    // A lone word that heads a guide ("blueprint", "chord") is the guide's subject first: a member of a class so named
    // (`Request.blueprint`) ranks with that heading, not above it, unless the query names the class too.
    const guideSubject =
      query.length === 1 && !/[.:]/.test(query[0]!) && titled.some((entry) => !entry.section.role && !isObjectPage(entry.section));
    const owners = new Set(named.map((entry) => ownerOf(entry.section.apiName!)));
    const mentions = new Map([...owners].map((owner) => [owner, owners.size > 1 ? this.mentions(owner) : 0]));
    const most = Math.max(1, ...mentions.values());
    // A name that belongs to nothing (a built-in: `enumerate`, `len`) is what the name means: above its namesakes on modules.
    for (const entry of named) {
      const owner = ownerOf(entry.section.apiName!);
      entry.tier = guideSubject && isMember(entry.section.role) ? 1 : owner === '' ? GLOBAL_NAME_TIER : 2 + mentions.get(owner)! / most;
    }
    // "What is…" asks for a definition: a glossary's entry answers it as a name answers a name.
    for (const entry of titled) if (entry.tier === 0) entry.tier = entry.section.role === GLOSSARY_ENTRY ? 2 : 1;
    for (const entry of ranked) entry.score = TIER_GAP * entry.tier + entry.base / best;
    return ranked;
  }

  /** In how many sections of prose an object's name (`DataFrame` of `pandas.DataFrame`) is mentioned: how central it is to the site. */
  private mentions(owner: string): number {
    const name = owner.split('.').at(-1) ?? '';
    let count = this.mentionsByName.get(name);
    if (count === undefined) {
      const terms = termsOf(name);
      // In the narrative (guides, tutorials), not in the reference, where every member names its object.
      const found = terms.length ? this.engine.search(terms.join(' '), { prefix: false, fuzzy: false }) : [];
      count = found.filter((result) => !this.sections[result.id as number]!.role).length;
      this.mentionsByName.set(name, count);
    }
    return count;
  }

  /**
   * Pages by their rules' tier, then by how well the page as a whole answers: each of the query's
   * words by its best section on the page (a page may answer "chains and groups" in a section on
   * chains and one on groups), at least its best section's score; and by how much of the page is
   * about the query (the share of its sections that match), so that a long reference page that
   * mentions a word in a few of its hundreds of entries ranks below the page about it.
   */
  private groupByPage(ranked: RankedSection[]): PageHit[] {
    ranked.sort((a, b) => b.score! - a.score!);
    const best = Math.max(...ranked.map((entry) => entry.base));
    const pages = new Map<string, PageHit & { tier: number; words: Map<string, number>; best: number; matched: number }>();
    for (const { section, result, score, base, tier } of ranked) {
      const hit: SectionHit = { section, score: score!, matchedWords: new Set(result.terms) };
      let page = pages.get(section.path);
      if (!page) {
        page = {
          path: section.path,
          title: section.pageTitle,
          score: 0,
          sections: [],
          matchedWords: new Set(),
          tier,
          words: new Map(),
          best: base / best,
          matched: 0,
        };
        pages.set(section.path, page);
      }
      page.matched++;
      page.sections.push(hit);
      for (const word of result.terms) (page.matchedWords as Set<string>).add(word);
      // The section's weight (release notes, proximity) carried to each of its words.
      const weight = base / result.score;
      for (const [index, term] of result.queryTerms.entries())
        page.words.set(term, Math.max(page.words.get(term) ?? 0, (weight * result.termScores[index]!) / best));
    }
    const counts = this.sectionCounts();
    const ranking = [...pages.values()].map(({ tier, words, best: bestSection, matched, ...page }) => {
      const covered = [...words.values()].reduce((sum, score) => sum + score, 0);
      const focus = matched / (counts.get(page.path) ?? matched);
      return { ...page, score: TIER_GAP * tier + Math.max(bestSection, covered) * (1 - FOCUS_WEIGHT + FOCUS_WEIGHT * focus) };
    });
    ranking.sort((a, b) => b.score - a.score);
    const pagesOnce = withoutCopies(ranking);
    for (const page of pagesOnce) page.sections = page.sections.slice(0, SECTIONS_PER_PAGE);
    return pagesOnce;
  }

  /** How many sections each page has (counted again once pages are added). */
  private sectionCounts(): Map<string, number> {
    if (this.counted !== this.sections.length) {
      this.sectionsByPage.clear();
      for (const section of this.sections) this.sectionsByPage.set(section.path, (this.sectionsByPage.get(section.path) ?? 0) + 1);
      this.counted = this.sections.length;
    }
    return this.sectionsByPage;
  }
}

/** How `search` read a query, for `rank`. */
interface QueryReading {
  /** Its words (stop words aside). */
  query: string[];
  /** Their terms. */
  terms: string[];
  /** Whether it asks what a term is ("what is…"). */
  asksForDefinition: boolean;
  /** The term of its last word when the reader may still be typing it. */
  typing: string | undefined;
}

/**
 * The shortest word of the found sections' titles that a word being typed starts, among equals the one
 * most titles hold; else the longest stem it was cut from ("equival" of "equivalen"). Titles, not
 * text: text may run words together.
 */
function shortestCompletion(typing: string, found: readonly RankedSection[]): string | undefined {
  const completions = new Map<string, number>();
  let longestStem: string | undefined;
  const seen = new Set<string>();
  for (const { section } of found) {
    for (const title of [section.title, section.pageName]) {
      if (seen.has(title)) continue;
      seen.add(title);
      for (const word of tokens(title).flatMap(termsOf)) {
        if (!isPlain(word)) continue;
        if (word.startsWith(typing)) completions.set(word, (completions.get(word) ?? 0) + 1);
        if (typing.startsWith(word) && word.length >= MIN_STEM && (!longestStem || word.length > longestStem.length)) longestStem = word;
      }
    }
  }
  const [best] = [...completions].sort(([a, aTitles], [b, bTitles]) => a.length - b.length || bTitles - aTitles);
  return best?.[0] ?? longestStem;
}

interface RankedSection {
  section: IndexedSection;
  result: Found;
  /** The engine's score, adjusted by rules 2 and 3. */
  base: number;
  /** Rule 1: 2 and up for an exact name (more on an object mentioned more, 3.5 for a built-in), 1 for an exact title. */
  tier: number;
  score?: number;
}

/** Rule 1's tier of a name that belongs to nothing, above every namesake's (2 to 3). */
const GLOBAL_NAME_TIER = 3.5;
/** Apart enough that nothing but a rule's tier lifts a section above another's: scores within a tier stay below 1.5. */
const TIER_GAP = 2;
/** How much of a page's score depends on the share of its sections that match. */
const FOCUS_WEIGHT = 0.5;
/** Release notes mention everything once; their sections weigh this much unless the query asks for a release. */
const CHANGELOG_WEIGHT = 0.25;
/** An overview's share of entries from which its sections weigh less. */
const MIN_OVERVIEW_SHARE = 0.3;
/** How much less a page made only of entries weighs (less in proportion on pages with fewer). */
const OVERVIEW_DISCOUNT = 0.5;
/** The sections best by the engine's score whose words' proximity is measured. */
const PROXIMITY_CANDIDATES = 30;
/** Text of a section read for proximity: where a section's subject is said. */
const PROXIMITY_CHARS = 2000;
/** Words this many places apart or less stand together. */
const NEAR = 3;

/** Words a name spelled out in a query runs to at most ("pixel to world"). */
const MAX_SPELLED_WORDS = 4;

/**
 * Names a query spells in words, as the index keeps them: neighbouring words joined by underscores
 * ("pixel to world" for `pixel_to_world`, stop words included), and two words written as one ("t-test"
 * for `ttest_ind`, "data frame" for `DataFrame`). The ones the site has are searched besides the words.
 */
function spelledNames(text: string): string[] {
  const matches = [...tokenMatches(text)].slice(0, MAX_QUERY_WORDS);
  const words = matches.map((match) => match[0].toLowerCase());
  // Words joined by a hyphen are one word ("sub-commands"), not a name of several.
  const hyphened = matches.map(
    (match, index) => index > 0 && text.slice(matches[index - 1]!.index! + matches[index - 1]![0].length, match.index) === '-',
  );
  const names = new Set<string>();
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 2; end <= Math.min(words.length, start + MAX_SPELLED_WORDS); end++) {
      const run = words.slice(start, end);
      if (!run.every((word) => /^[a-z\d]+$/.test(word))) break;
      if (!hyphened.slice(start + 1, end).some(Boolean)) names.add(WHOLE + run.join('_'));
      if (run.length === 2) names.add(stem(run.join('')));
    }
  }
  return [...names];
}

/** Words of a section's lead at most. */
const LEAD_WORDS = 30;

/**
 * A section's first sentence (at most `LEAD_WORDS` words), when more follows: where an API entry
 * states what it does (a docstring's summary line) and prose its subject, as a heading does; the rest
 * of a long section only mentions things.
 */
function leadOf(content: string): string {
  const end = content.search(/[.!?](?=\s|$)/);
  // A section of one sentence has no lead apart from its text.
  if (end === -1 || end > content.length / 2) return '';
  return content.slice(0, end).split(/\s+/, LEAD_WORDS).join(' ');
}

/**
 * Pages best first, an object documented on two pages (under its public name and the name of the
 * module that defines it: `astropy.stats.sigma_clip`, `astropy.stats.sigma_clipping.sigma_clip`) once:
 * at the better page's place, under the shorter name, the one readers import. Namesakes on other
 * objects that share a docstring (`Series.rolling`, `DataFrame.rolling`) stay apart.
 */
function withoutCopies(ranking: PageHit[]): PageHit[] {
  const places = new Map<string, number[]>();
  const kept: PageHit[] = [];
  for (const page of ranking) {
    const best = page.sections[0]?.section;
    const key = best && isObjectPage(best) && best.content ? `${ownName(best.pageTitle)}\0${best.content}` : undefined;
    const place = key === undefined ? undefined : places.get(key)?.find((at) => sameObject(kept[at]!.title, page.title));
    if (place === undefined) {
      if (key !== undefined) places.set(key, [...(places.get(key) ?? []), kept.length]);
      kept.push(page);
    } else if (page.title.length < kept[place]!.title.length) kept[place] = { ...page, score: kept[place]!.score };
  }
  return kept;
}

/** Whether two full names of one name name one object: one's module holds the other's (it re-exports it). */
function sameObject(name: string, other: string): boolean {
  const [shorter, longer] = [ownerOf(name), ownerOf(other)].sort((a, b) => a.length - b.length) as [string, string];
  return longer.startsWith(`${shorter}.`);
}

/** Whether a section is on a page generated for one object (titled by its full name, `pandas.DataFrame.fillna`): no guide. */
const isObjectPage = (section: IndexedSection) => isFullName(section.pageTitle);

/** A full name as Sphinx and similar generators write anchors: identifiers joined by dots. */
const API_NAME = /^[\p{L}_][\p{L}\p{N}_]*(?:(?:\.|::)[\p{L}_][\p{L}\p{N}_]*)*$/u;

/** A name with its modules or classes (`pandas.DataFrame.fillna`, `std::vector`), not a lone identifier. */
const isFullName = (name: string) => API_NAME.test(name) && /\.|::/.test(name);

/** `pandas.dataframe` of `pandas.DataFrame.merge`, '' for a name without an owner. */
function ownerOf(apiName: string): string {
  const lower = apiName.toLowerCase();
  return lower.slice(0, Math.max(0, lower.search(/(?:\.|::)[^.:]*$/)));
}

/**
 * Whether a full name ends with the query's words joined by dots, as written: names are case-sensitive
 * ("blueprint", the concept, does not name the class `Blueprint`; `SECRET_KEY` is not `secret_key`).
 */
function endsWithName(apiName: string, name: string, query: string[]): boolean {
  const lower = apiName.toLowerCase().replaceAll('::', '.');
  if (lower !== name && !lower.endsWith(`.${name}`)) return false;
  const written = apiName.replaceAll('::', '.');
  const asWritten = query.join('.');
  return written === asWritten || written.endsWith(`.${asWritten}`);
}

/** A version number as a query or a title writes it, without its "v" (`2.1` of `v2.1`). */
const versionOf = (token: string) => token.toLowerCase().replace(/^v/, '');

/** A question that asks what a term means. */
const DEFINITION_QUESTION = /^\s*(?:what\s+(?:is|are)\b|what['’]s\b|define\b|definition\s+of\b|meaning\s+of\b)/i;

/** The role of a glossary's entry (Sphinx's `std:term`, as `domainRole` gives it). */
const GLOSSARY_ENTRY = 'std:term';

/** Kinds of documented objects that belong to a class (Sphinx's object types: `py:method`, `cpp:member`…). */
const MEMBER_KINDS = new Set(['method', 'attribute', 'property', 'classmethod', 'staticmethod', 'member', 'abstractmethod']);

const isMember = (role: string | undefined) => MEMBER_KINDS.has(role?.split(':')[1] ?? '');

/** Words of documentation below which an entry documents nothing (an empty entry, "alias of _chord"): no answer to lift. */
const MIN_ENTRY_WORDS = 4;

const documents = (section: IndexedSection) => tokens(section.content).length >= MIN_ENTRY_WORDS;

/** A stemmed word, not an identifier whole. */
const isPlain = (term: string) => !/[._:]/.test(term);

/** The number a numbered heading starts with (`5.1.3. List Comprehensions`, `8. Errors`): its place in the book, not a version. */
const SECTION_NUMBER = /^\s*\d+(?:\.\d+)*\.\s+(?=\S)/;

/** Whether a title's terms (words by their stems, names whole, stop words aside) are the query's. */
function sameWords(title: string, wanted: ReadonlySet<string>): boolean {
  const stems = new Set(tokens(title.replace(SECTION_NUMBER, '')).flatMap(termsOf));
  if (stems.size !== wanted.size) return false;
  for (const term of wanted) if (!stems.has(term)) return false;
  return true;
}

/**
 * Share of the query's neighbouring word pairs that stand within `NEAR` words of each other in the
 * section's title and the start of its text (0 to 1).
 */
function proximity(section: IndexedSection, terms: string[]): number {
  const wanted = terms.filter(isPlain);
  if (wanted.length < 2) return 0;
  const positions = new Map<string, number[]>(wanted.map((term) => [term, []]));
  let position = 0;
  for (const text of [section.title, section.content.slice(0, PROXIMITY_CHARS)]) {
    for (const token of tokens(text)) {
      // An identifier's parts stand side by side.
      position++;
      for (const term of termsOf(token)) if (isPlain(term)) positions.get(term)?.push(position);
    }
    position += NEAR + 1;
  }
  let near = 0;
  for (let index = 1; index < wanted.length; index++) {
    const before = positions.get(wanted[index - 1]!)!;
    const after = positions.get(wanted[index]!)!;
    if (before.some((at) => after.some((other) => Math.abs(other - at) <= NEAR))) near++;
  }
  return near / (wanted.length - 1);
}

/** Release notes, found by structure: a title that says so, or a page whose headings are mostly versions. */
function isChangelog(name: string, sections: SplitPage['sections']): boolean {
  if (/what['’]?s new|change ?log|release notes|^(?:change )?history$|^changes$/i.test(name.trim())) return true;
  const versions = sections.filter((section) => /(?:^|\s)v?\d+\.\d+(?:\.\d+)*\b/.test(section.title.replace(SECTION_NUMBER, ''))).length;
  return sections.length >= 4 && versions >= sections.length / 2;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Whether a token of a text is one of the matched terms. */
const isMatched = (token: string, terms: ReadonlySet<string>) => termsOf(token).some((term) => terms.has(term));

/** HTML-escaped `text` with every matched word wrapped in `<span>`, as the search API returns it. */
export function highlight(text: string, words: ReadonlySet<string>): string {
  let html = '';
  let last = 0;
  for (const match of tokenMatches(text)) {
    if (!isMatched(match[0], words)) continue;
    html += `${escapeHtml(text.slice(last, match.index))}<span>${escapeHtml(match[0])}</span>`;
    last = match.index! + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

/** Up to `count` highlighted excerpts of about `width` characters around the matches in `text`. */
export function highlightExcerpts(text: string, words: ReadonlySet<string>, count = 3, width = 160): string[] {
  const excerpts: string[] = [];
  let coveredUntil = -1;
  // Read only as far as the excerpts go: a section's text may be a whole long page.
  for (const match of tokenMatches(text)) {
    if (excerpts.length === count) break;
    if (!isMatched(match[0], words)) continue;
    if (match.index! < coveredUntil) continue;
    let start = Math.max(0, match.index! - Math.floor(width / 3));
    let end = Math.min(text.length, start + width);
    // Whole words only at the edges.
    if (start > 0) start = text.indexOf(' ', start) + 1 || start;
    if (end < text.length) end = text.lastIndexOf(' ', end) > match.index! ? text.lastIndexOf(' ', end) : end;
    excerpts.push(highlight(text.slice(start, end), words));
    coveredUntil = end;
  }
  return excerpts;
}
