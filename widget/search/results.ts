import type { SearchBlock, SearchResult } from '../../contract/index.ts';
import { editDistance } from '../../search/edit-distance.ts';
import { escapeRegExp } from '../../search/reg-exp.ts';
import { typoEdits } from '../../search/weights.ts';
import { HIGHLIGHT_PARAM, markableWords } from '../shared/page.ts';

/** Sections listed under each page found. */
const SECTIONS_PER_PAGE = 3;
/** Characters of a section's text shown when the answer has no highlighted snippet. */
const SNIPPET_LENGTH = 200;

/** One selectable row of the listbox: a page, or a section of it. */
export interface ResultRow {
  /** `option-<index>`, the row's id in the listbox. */
  id: string;
  /** Position among all rows, which the arrows go through. */
  index: number;
  url: string;
  result: SearchResult;
  block?: SearchBlock;
  /**
   * A member's owner its title leaves out, as its anchor names it (`Request` of `werkzeug.wrappers.Request.args`,
   * titled "property args"): it tells apart the same method of two classes too (`PBKDF2HMAC.verify`, `Scrypt.verify`).
   */
  owner?: string;
}

/** A page found, with its first sections. */
export interface ResultGroup {
  page: ResultRow;
  /** The section titled as the page (its opening, wherever listed): no row of its own, its words under the page's row. */
  lead?: SearchBlock;
  sections: ResultRow[];
}

/** Text with the markup that highlights the searched words (API markup, to sanitize), when the answer has it. */
export interface HighlightedText {
  markup: string | undefined;
  text: string;
}

/** The answer's domain (with or without a scheme) as a URL, before a path is added to it. */
const domainUrl = (domain: string) => (/^https?:\/\//.test(domain) ? domain : `https://${domain}`);

/** The page's address from the answer's domain and path. */
export function resultUrl(result: SearchResult): string {
  return `${domainUrl(result.domain).replace(/\/$/, '')}${result.path.startsWith('/') ? '' : '/'}${result.path}`;
}

/** Whether the domain is an http(s) origin: an empty one would make the path's first part the host (`https://en/latest/…`). */
function usableDomain(domain: string): boolean {
  try {
    const url = new URL(domainUrl(domain));
    return (
      /^https?:$/.test(url.protocol) && !!url.hostname && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash
    );
  } catch {
    return false;
  }
}

/** The page's address when it is an http(s) URL a link can go to; a result without one cannot be shown. */
function linkableUrl(result: SearchResult): string | undefined {
  if (typeof result.domain !== 'string' || !usableDomain(result.domain)) return undefined;
  try {
    const url = new URL(resultUrl(result));
    return /^https?:$/.test(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The rows of the listbox, page by page, numbered in the order the arrows go through them. A result
 * whose address cannot be built (a `domain` that is no URL origin, or empty) is left out, not the whole list.
 */
export function resultGroups(results: readonly SearchResult[]): ResultGroup[] {
  let index = 0;
  const row = (url: string, result: SearchResult, block?: SearchBlock): ResultRow => {
    const at = index++;
    return block ? { id: `option-${at}`, index: at, url, result, block } : { id: `option-${at}`, index: at, url, result };
  };
  return results.flatMap((result) => {
    const page = linkableUrl(result);
    if (page === undefined) return [];
    // Talking to a hosting service directly, fields may be missing: nothing here may throw.
    const blocks = result.blocks ?? [];
    // Wherever the search lists it: a section titled as its page would read as the page again.
    const lead = blocks.find((block) => sameText(sectionTitle(block).text, result.title));
    // A row that says what the row above says is left out, and a heading over nothing but an object's entry that names
    // the object as the entry does (NiBabel's "apply_affine" over `nibabel.affines.apply_affine(aff, pts)`).
    const entries = new Set(blocks.flatMap((block) => (block.type === 'domain' ? [block.id.split('.').at(-1)] : [])));
    const shown = blocks.filter(
      (block, index) =>
        block !== lead &&
        !(index > 0 && sameText(blockKey(block), blockKey(blocks[index - 1]!))) &&
        !(block.type === 'section' && !(block.content ?? '').trim() && entries.has(sectionTitle(block).text)),
    );
    return {
      page: row(page, result),
      ...(lead ? { lead } : {}),
      sections: shown.slice(0, SECTIONS_PER_PAGE).map((block) => {
        const section = row(`${page}#${encodeURIComponent(block.id)}`, result, block);
        const owner = ownerOf(block);
        return owner ? { ...section, owner } : section;
      }),
    };
  });
}

/**
 * What owns a documented object, from its anchor when that is its full name and its title names its
 * own part but not its owner (`property args` of `werkzeug.wrappers.Request.args`).
 */
function ownerOf(block: SearchBlock): string | undefined {
  const parts = block.id.split('.');
  const [own, owner] = [parts.at(-1), parts.at(-2)];
  const words = sectionTitle(block).text.split(/[^\w$]+/);
  return own && owner && words.includes(own) && !words.includes(owner) ? owner : undefined;
}

/** A section row's title, its owner written before its own name (`property Request.args: …`), in its text and its markup. */
export function rowTitle(row: ResultRow): HighlightedText {
  const title = sectionTitle(row.block!);
  const own = row.block!.id.split('.').at(-1);
  if (!row.owner || !own) return title;
  // Before the name's first whole occurrence (and the highlight that may open on it, or mark its words: `bounding_box`).
  const name = [...own].map(escapeRegExp).join('(?:</?span[^>]*>)*');
  const at = new RegExp(`(^|[^\\w$.>])((?:<span[^>]*>)?${name}(?![\\w$]))`);
  const before = (owner: string) => (_: string, start: string, name: string) => `${start}${owner}.${name}`;
  return {
    markup: title.markup?.replace(at, before(row.owner.replace(/&/g, '&amp;').replace(/</g, '&lt;'))),
    text: title.text.replace(at, before(row.owner)),
  };
}

const sameText = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();
/** What a section row shows: its title and text. */
const blockKey = (block: SearchBlock) => `${sectionTitle(block).text}\n${block.content ?? ''}`;

export function resultRows(results: readonly SearchResult[]): ResultRow[] {
  return resultGroups(results).flatMap((group) => [group.page, ...group.sections]);
}

/** One word of a name's characters. */
const WRITTEN_AS_NAME = /^[\p{L}\p{N}_$.]+$/u;
/** Written as code: capitals past its first letter (`DataFrame`), an underscore, a dot, or a digit after a letter (`hyp2f1`). */
const LOOKS_LIKE_CODE = /^.+\p{Lu}|[_.]|\p{L}\p{N}/u;

/**
 * The row chosen first among new results, which Enter opens. A name typed as code writes it that the first page's title
 * does not say and one of its sections does (mpmath's `hyp2f1`, an entry on "Hypergeometric functions") chooses that
 * entry: the name as typed first, else one it is the start or a slip of (`RotatingFileHand`, `BaseHandlr`). Other
 * words choose the page's top, unless the title of its first section says more of them than the page's does: Enter then
 * opens where the page answers ("embed the notebook in an iframe": "Embedding the notebook in another website" on
 * "Running a notebook server"), not its top with the matches far below.
 */
export function firstChosen(rows: readonly ResultRow[], words: string): number {
  if (!rows.length) return -1;
  const typed = words.trim();
  const [page] = rows;
  const sections = rows.filter((row) => row.result === page!.result && row.block);
  const pageTitleText = pageTitle(page!.result);
  if (WRITTEN_AS_NAME.test(typed) && LOOKS_LIKE_CODE.test(typed)) {
    const name = typed.toLowerCase();
    const nameTokens = (title: string) => title.toLowerCase().match(/[\p{L}\p{N}_$.]+/gu) ?? [];
    const exactly = (token: string) => token === name || token.endsWith(`.${name}`);
    // A dotted name is compared whole (`jsonpickle.decod`), another with a full name's own part.
    const nearly = (token: string) => isFormOf(name.includes('.') ? token : token.split('.').at(-1)!, name);
    for (const names of [exactly, nearly]) {
      if (nameTokens(pageTitleText.text).some(names)) return 0;
      const entry = sections.find((row) => nameTokens(rowTitle(row).text).some(names));
      if (entry) return entry.index;
    }
  }
  const readers = typed.toLowerCase().split(/\s+/);
  /** How many of the reader's words a title's highlights say, in any form the search matched. */
  const said = ({ markup }: HighlightedText) => {
    const forms = markedForms(markup ? [markup] : []);
    return readers.filter((word) => forms.some((form) => isFormOf(form, word))).length;
  };
  const [first] = sections;
  return first && said(rowTitle(first)) > said(pageTitleText) ? first.index : 0;
}

/**
 * The words the search matched in a row (its highlight markup's `<span>`s): the forms of the reader's words found there
 * ("installing" for "install").
 */
export function matchedForms(row: ResultRow): string[] {
  const markup = [...(row.result.highlights?.title ?? [])];
  // A page's row opens the page: what the search matched in any of its sections is on it ("basehandler" for "BaseHandlr").
  for (const block of row.block ? [row.block] : (row.result.blocks ?? []))
    markup.push(...(block.highlights?.title ?? []), ...(block.highlights?.name ?? []), ...(block.highlights?.content ?? []));
  return markedForms(markup);
}

/** The words a search's highlight markup marks (its `<span>`s), in lower case, once each. */
function markedForms(markup: readonly string[]): string[] {
  const forms = markup.flatMap((text) => [...text.matchAll(/<span[^>]*>([^<]*)<\/span>/g)].map((match) => match[1]!.toLowerCase()));
  return [...new Set(forms.flatMap(markableWords))];
}

/**
 * Whether `form`, a word the search matched, is a form of the reader's `word` ("installing" of "install", "install"
 * and "installed" of "installing", "retries" of "retry"): the two start alike but for the shorter one's last two
 * letters, and neither is much longer; or it is the spelling the search read a misspelt word as ("password" of
 * "pasword": as near as the search corrects), or a form of it ("interactive" of "intreact", read as "interact": the
 * slip is in the word's start, a short ending follows). Other words of the row (`scrapy` of a matched
 * `scrapy.settings.DOWNLOAD_DELAY`) are not the reader's.
 */
function isFormOf(form: string, word: string): boolean {
  const typed = word.toLowerCase();
  let shared = 0;
  while (shared < form.length && form[shared] === typed[shared]) shared++;
  const alike = shared >= Math.max(3, Math.min(form.length, typed.length) - 2);
  if (typed.length >= 3 && Math.abs(form.length - typed.length) <= MAX_ENDING && alike) return true;
  const edits = typoEdits(typed);
  if (edits === 0) return false;
  for (let start = typed.length - edits; start <= Math.min(form.length, typed.length + edits); start++)
    if (form.length - start <= MAX_ENDING && editDistance(form.slice(0, start), typed) <= edits) return true;
  return false;
}

/** Letters a form of a word adds to it at most ("-ations" aside): "interactive" of "interact". */
const MAX_ENDING = 5;

/** The destination with the searched words and the forms of them the search matched, for the page it opens to highlight them. */
export function withHighlight(url: string, words: string, base: string, forms: readonly string[] = []): string {
  if (!words) return url;
  const destination = new URL(url, base);
  const typed = words.split(/\s+/);
  // A name of the reader's words (`download_delay` for "download delay") is theirs too, and so is one a word of theirs
  // starts or misspells (`set_encoder_options` for "set_encoder_opt").
  const more = forms.filter(
    (form) =>
      !typed.some((word) => word.toLowerCase() === form) &&
      (typed.some((word) => isFormOf(form, word)) || form.split(/[_-]+/).every((part) => typed.some((word) => isFormOf(part, word)))),
  );
  destination.searchParams.set(HIGHLIGHT_PARAM, [...typed, ...more].join(' '));
  return destination.href;
}

/** A result from another project or version than the one searched (it says where it is from). */
export function isElsewhere(result: SearchResult, project: string | undefined, version: string | undefined): boolean {
  return result.project.slug !== project || (version !== undefined && result.version.slug !== version);
}

/**
 * A mark that ends a title without being part of it: a permalink's "¶", or a bracketed link label such as
 * Sphinx's viewcode `[source]` (`[docs]`, `[Quellcode]`, `[ソース]` in other languages), which the hosting
 * service's search keeps in titles. Highlight tags may wrap the label's word. A type's parameters
 * (`Box[T]`, `list[int]`, `Map[str, Any]`) are kept: they are short, builtin names, or have punctuation.
 */
const TRAILING_MARK = /\s*(?:¶|\[(?:<[^>]*>)*(\p{L}[\p{L} ]{2,23})(?:<[^>]*>)*\])\s*$/u;
const TYPE_NAMES = new Set([
  'int',
  'str',
  'float',
  'bytes',
  'bool',
  'complex',
  'object',
  'list',
  'dict',
  'set',
  'tuple',
  'type',
  'any',
  'none',
]);

/** A title as the reader sees it: without the marks that links put at its end (see `TRAILING_MARK`). */
export function withoutTrailingMark(title: string): string {
  const mark = TRAILING_MARK.exec(title);
  if (!mark || (mark[1] !== undefined && TYPE_NAMES.has(mark[1].toLowerCase()))) return title;
  return title.slice(0, mark.index);
}

const cleanTitle = ({ markup, text }: HighlightedText): HighlightedText => ({
  markup: markup === undefined ? undefined : withoutTrailingMark(markup),
  text: withoutTrailingMark(text),
});

export function pageTitle(result: SearchResult): HighlightedText {
  return cleanTitle({ markup: result.highlights?.title?.[0], text: result.title ?? '' });
}

export function sectionTitle(block: SearchBlock): HighlightedText {
  const markup = block.type === 'domain' ? block.highlights?.name?.[0] : block.highlights?.title?.[0];
  return cleanTitle({ markup, text: block.title ?? block.name ?? '' });
}

/** A section's excerpt: its first highlight, marked "…" where it starts or stops inside the section's text. */
export function sectionSnippet(block: SearchBlock): HighlightedText {
  const markup = block.highlights?.content?.[0];
  const content = block.content ?? '';
  return { markup: markup === undefined ? undefined : withCuts(markup, content), text: content.slice(0, SNIPPET_LENGTH) };
}

const oneSpace = (text: string) => text.replace(/\s+/g, ' ').trim();
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
/** Enough of a cut's text to find it at the section's start or end. */
const EDGE = 24;

/** A highlight's markup with "…" where its text is cut out of the section's (an answer's excerpts may say so already). */
function withCuts(markup: string, content: string): string {
  const text = oneSpace(markup.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => ENTITIES[name]!));
  const whole = oneSpace(content);
  if (!text || !whole) return markup;
  const starts = /^(…|\.\.\.)/.test(text) || whole.startsWith(text.slice(0, EDGE));
  // A sentence's end is end enough.
  const stops = /(…|\.\.\.|[.!?:;])$/.test(text) || whole.endsWith(text.slice(-EDGE));
  return `${starts ? '' : '…'}${markup}${stops ? '' : '…'}`;
}

/** What a row is called when announced: its section, else its page. */
export function rowLabel(row: ResultRow): string {
  return row.block ? rowTitle(row).text : withoutTrailingMark(row.result.title ?? '');
}

/** The next index of a list the arrows go round; from none, Down goes to the first and Up to the last. */
export function stepIndex(index: number, step: 1 | -1, length: number): number {
  if (index < 0) return step === 1 ? 0 : length - 1;
  return (index + step + length) % length;
}
