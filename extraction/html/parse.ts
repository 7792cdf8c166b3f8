import { type Cheerio, type CheerioAPI, type CheerioOptions, load } from 'cheerio/slim';
import type { DomSerializerOptions } from 'dom-serializer';
import { DomHandler, isTag, isText, type AnyNode, type Document, type Element } from 'domhandler';
import { type Handler, Parser, Tokenizer, type QuoteType, type TokenizerCallbacks } from 'htmlparser2';
import { parse as parseSpec } from 'parse5';
import { adapter as domhandlerAdapter } from 'parse5-htmlparser2-tree-adapter';

/**
 * Deepest element nesting parsed, as in Chromium's parser (which stops nesting at 512). Deeper trees
 * are refused: the tree walks of extraction recurse by depth, and no documentation nests that deep.
 */
export const MAX_DEPTH = 512;

/**
 * Bytes a page takes parsed and worked on (its sections found, serialized), per byte of its HTML:
 * measured at 12–23. Threads that parse pages reserve this much memory before a job runs.
 */
export const PARSED_BYTES_PER_HTML_BYTE = 24;

/** HTML nested deeper than `MAX_DEPTH`. */
export class TooDeepError extends Error {
  override name = 'TooDeepError';
  constructor() {
    super(`the HTML nests elements more than ${MAX_DEPTH} deep`);
  }
}

/** Whether an error is HTML nesting too deep to walk: refused while parsing, or a walk that ran out of stack. */
export const isTooDeep = (error: unknown): boolean =>
  error instanceof TooDeepError || (error instanceof RangeError && /call stack/i.test(error.message));

/** Which parser built the tree: htmlparser2 when it agrees with a browser, parse5 otherwise. */
export type ParserName = 'htmlparser2' | 'parse5';

export interface ParsedHtml {
  readonly document: Document;
  /** Cheerio over the page's tree, for selecting and reading its nodes. */
  readonly $: CheerioAPI;
  readonly parser: ParserName;
  /** Length of the HTML parsed, for cache accounting. */
  readonly size: number;
  /** First element with each id, in document order (what `[id="…"]` finds first). */
  elementById(id: string): Element | undefined;
}

/** Elements whose end tag a browser also infers when the next sibling opens. */
const OPTIONAL_END_TAGS = new Set([
  'html',
  'head',
  'body',
  'p',
  'li',
  'dt',
  'dd',
  'option',
  'optgroup',
  'rb',
  'rt',
  'rtc',
  'rp',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'caption',
]);

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose misnesting browsers repair with the adoption agency and reopen after blocks. */
const FORMATTING_ELEMENTS = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);

/** Builds the tree as DomHandler does, refusing nesting deeper than `MAX_DEPTH`. */
class DepthLimitedHandler extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    if (this.tagStack.length > MAX_DEPTH) throw new TooDeepError();
    super.onopentag(name, attribs);
  }
}

/**
 * Follows htmlparser2's events and notes whatever a browser would build differently: formatting
 * elements closed out of order (browsers run the adoption agency and reopen them), an element other
 * than those with optional end tags closed by the next start tag, a `<tr>` straight in a `<table>`
 * (browsers insert `<tbody>`), or a page without `<body>` (browsers create one, and move into it what the page puts
 * elsewhere; HTML from inside a body is put in one as it is). Refuses nesting deeper than `MAX_DEPTH`.
 * It follows the whole page, for `parseContent` too, around the kept elements included: it reads only names, which
 * skimming still tells, and what is misnested or left open around an element changes what a browser builds of it
 * (formatting elements it reopens inside, a table's content it moves out).
 */
class BrowserDivergence {
  diverges = false;
  /** Set while a self-closing tag (`<path/>` in SVG) closes itself. */
  selfClosing = false;
  private sawBody = false;
  private atEnd = false;
  /** Names of the open elements. */
  private readonly open: string[] = [];
  /** Set while the parser processes an end tag, which closes the elements above its own too. */
  private inEndTag = false;
  /** Elements the end tag being processed closed above its own, until its own closes (and names it). */
  private readonly closedAbove: string[] = [];

  /** `inBody`: the HTML is what a page's body holds, which has no `<body>` of its own. */
  constructor(private readonly inBody = false) {}

  opened(name: string): void {
    if (this.open.length >= MAX_DEPTH) throw new TooDeepError();
    if (name === 'body') this.sawBody = true;
    if (name === 'tr' && this.open[this.open.length - 1] === 'table') this.diverges = true;
    this.open.push(name);
  }

  closed(name: string, isImplied: boolean): void {
    this.open.pop();
    if (this.inEndTag) {
      if (isImplied) {
        if (!VOID_ELEMENTS.has(name)) this.closedAbove.push(name);
      } else {
        // `name` is the end tag's: formatting elements closed out of order are repaired by browsers.
        for (const above of this.closedAbove) if (FORMATTING_ELEMENTS.has(name) || FORMATTING_ELEMENTS.has(above)) this.diverges = true;
        if (this.closedAbove.length > 0) this.closedAbove.length = 0;
      }
      return;
    }
    // Closed by the next start tag: browsers do that only for elements whose end tag is optional.
    if (isImplied && !this.atEnd && !this.selfClosing && !VOID_ELEMENTS.has(name) && !OPTIONAL_END_TAGS.has(name)) this.diverges = true;
  }

  /** The parser starts processing an end tag. */
  endTagStarts(): void {
    this.inEndTag = true;
  }

  /** The parser is done with the end tag. */
  endTagEnds(): void {
    this.inEndTag = false;
    if (this.closedAbove.length > 0) this.closedAbove.length = 0;
  }

  /** Ends the parse. */
  finish(parser: Parser): void {
    this.atEnd = true;
    parser.end();
    if (!this.sawBody && !this.inBody) this.diverges = true;
  }
}

/** Builds the whole htmlparser2 tree while `divergence` follows the parse. */
class WholePageHandler extends DomHandler {
  /** First element with each id, collected while parsing: a second walk over a large page costs more. */
  readonly ids = new Map<string, Element>();

  constructor(private readonly divergence: BrowserDivergence) {
    super();
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    this.divergence.opened(name);
    super.onopentag(name, attribs);
    const id = attribs.id;
    if (id && !this.ids.has(id)) this.ids.set(id, this.tagStack[this.tagStack.length - 1] as Element);
  }

  // Optional as DomHandler's own takes none; htmlparser2 always passes both.
  override onclosetag(name = '', isImplied = false): void {
    this.divergence.closed(name, isImplied);
    super.onclosetag();
  }
}

/**
 * Told each start tag of a page as htmlparser2 reads it (entities decoded, names lowercase). Outside the kept
 * elements (see `ContentHandler`) the attributes come with links (`<a>`) whose `href` may name a fragment, form
 * fields and elements with a role; other tags there may come with none (see `SkimmingTokenizer`).
 */
export type StartTagObserver = (name: string, attribs: Record<string, string>) => void;

/** Content a page marks as main (what `markedMainContent` looks for). */
const marksMain = (name: string, attribs: Record<string, string>) => name === 'main' || attribs.role === 'main';

/**
 * Builds a tree of what indexing reads of a page that marks its main content: the `<head>`, every
 * element marked main (`<main>`, `role="main"`) with all it holds, in a `<body>` of their own, and, in
 * a `<nav>` after them, what of the rest tells about the content: links that name a fragment (the
 * page's own tables of contents, which tell a section's id) and form fields (a search page's box).
 * The rest of the page (navigation, sidebars: nine tenths of a large reference's HTML) becomes no
 * nodes, whose building and collection were most of the cost of indexing, and is only skimmed for its
 * tags (`SkimmingTokenizer`).
 */
class ContentHandler implements Partial<Handler> {
  private readonly tree = new DomHandler();
  /** Elements open in the page. */
  private depth = 0;
  /** The depth at which the kept element now open (the head, or content marked main) opened; -1: none is open. */
  private keptFrom = -1;
  private markedMain = false;
  /** Fragment links and form fields outside the kept elements. */
  private readonly surroundings: [name: string, attribs: Record<string, string>][] = [];

  constructor(
    private readonly divergence: BrowserDivergence,
    private readonly observe: StartTagObserver | undefined,
  ) {
    this.tree.onopentag('html', {});
  }

  /** Whether a kept element is open. */
  get keeping(): boolean {
    return this.keptFrom !== -1;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    this.divergence.opened(name);
    this.observe?.(name, attribs);
    if (this.keptFrom === -1) {
      const main = marksMain(name, attribs);
      if (!main && name !== 'head') {
        if ((name === 'a' && attribs.href?.includes('#')) || name === 'input') this.surroundings.push([name, attribs]);
        this.depth++;
        return;
      }
      if (main && !this.markedMain) {
        this.markedMain = true;
        this.tree.onopentag('body', {});
      }
      this.keptFrom = this.depth;
    }
    this.tree.onopentag(name, attribs);
    this.depth++;
  }

  onclosetag(name: string, isImplied: boolean): void {
    this.divergence.closed(name, isImplied);
    this.depth--;
    if (this.keptFrom === -1) return;
    this.tree.onclosetag();
    if (this.depth === this.keptFrom) this.keptFrom = -1;
  }

  ontext(data: string): void {
    if (this.keptFrom !== -1) this.tree.ontext(data);
  }

  oncomment(data: string): void {
    if (this.keptFrom !== -1) this.tree.oncomment(data);
  }

  oncommentend(): void {
    if (this.keptFrom !== -1) this.tree.oncommentend();
  }

  oncdatastart(): void {
    if (this.keptFrom !== -1) this.tree.oncdatastart();
  }

  oncdataend(): void {
    if (this.keptFrom !== -1) this.tree.oncdataend();
  }

  onprocessinginstruction(name: string, data: string): void {
    if (this.keptFrom !== -1) this.tree.onprocessinginstruction(name, data);
  }

  /** The tree, once the parse has ended; undefined when the page marks no main content. */
  document(): Document | undefined {
    if (!this.markedMain) return undefined;
    this.tree.onopentag('nav', {});
    for (const [name, attribs] of this.surroundings) {
      this.tree.onopentag(name, attribs);
      this.tree.onclosetag();
    }
    // The nav, the body and the html.
    for (let open = 0; open < 3; open++) this.tree.onclosetag();
    return this.tree.root;
  }
}

/** Tells `divergence` which elements the parser closes for an end tag, and which a self-closing tag closes. */
class EndTagReportingParser extends Parser {
  constructor(
    handler: Partial<Handler>,
    private readonly divergence: BrowserDivergence,
  ) {
    super(handler, { decodeEntities: true });
  }

  override onclosetag(start: number, endIndex: number): void {
    this.divergence.endTagStarts();
    super.onclosetag(start, endIndex);
    this.divergence.endTagEnds();
  }

  override onselfclosingtag(endIndex: number): void {
    this.divergence.selfClosing = true;
    super.onselfclosingtag(endIndex);
    this.divergence.selfClosing = false;
  }
}

const TAB = 9;
const NEW_LINE = 10;
const FORM_FEED = 12;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const BANG = 33;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const SLASH = 47;
const EQUALS = 61;
const GREATER_THAN = 62;
const QUESTION_MARK = 63;

const isWhitespace = (c: number) => c === SPACE || c === NEW_LINE || c === TAB || c === FORM_FEED || c === CARRIAGE_RETURN;
/** Ends a tag's name, as htmlparser2's tokenizer reads it. */
const endsTagName = (c: number) => c === SLASH || c === GREATER_THAN || isWhitespace(c);
/** An ASCII letter, either case (what starts a tag). */
const isLetter = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** Whether `html` from `start` to `end` is `word` (lowercase ASCII) in any case. */
function isWord(html: string, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if ((html.charCodeAt(start + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

const LOWER_S = 0x73;
const LOWER_T = 0x74;
const LOWER_X = 0x78;

/**
 * Whether the tokenizer reads a start tag named from `start` to `end` in `html`: one of an element kept or read (its
 * attributes), or one after which it reads raw text. It tells those by the name's first two letters in any case, then
 * the rest of one name: `<tmp>` as `<xmp>`.
 */
function readsOn(html: string, start: number, end: number): boolean {
  const first = html.charCodeAt(start) | 0x20;
  if (first === LOWER_S) return isWord(html, start + 1, end, 'cript') || isWord(html, start + 1, end, 'tyle');
  if (first === LOWER_T || first === LOWER_X)
    return isWord(html, start + 1, end, 'itle') || isWord(html, start + 1, end, 'extarea') || isWord(html, start + 1, end, 'mp');
  return isWord(html, start, end, 'head') || isWord(html, start, end, 'main') || isWord(html, start, end, 'input');
}

/**
 * Reads a page for `ContentHandler`, for a `ContentParser`: htmlparser2's `Tokenizer` reads the kept elements and
 * whatever else a step reads; the rest, outside the kept elements, is skimmed. Skimming finds the tags where the
 * tokenizer finds them and tells the parser their names, so that its open elements (where a kept element ends) and
 * the divergence check are those of the whole page, but reads no text, comment or attribute: on a large reference
 * page that is most of its HTML (the navigation before the main content). It hands the tokenizer, from its `<`, a
 * start tag of an element kept or with a role, a form field, a link whose `href` may name a fragment, one of raw
 * text, anything but a tag or a comment, and what the part's end cuts; the tokenizer reads on until, outside the
 * kept elements, it ends an end tag or a comment.
 */
class SkimmingTokenizer implements TokenizerCallbacks {
  private readonly tokenizer = new Tokenizer({ decodeEntities: true }, this);
  /** Whether the tokenizer reads now, not the skim. */
  private reading = false;
  /** Where the tokenizer's input starts in the page (its positions count from there). */
  private base = 0;
  /** The part of the page being read, and where it starts in the page. */
  private part = '';
  private partStart = 0;
  /** Where in the page the skim goes on when the tokenizer stops. */
  private skimFrom = 0;

  constructor(
    private readonly parser: TokenizerCallbacks,
    private readonly content: ContentHandler,
  ) {}

  write(part: string): void {
    this.partStart += this.part.length;
    this.part = part;
    let at = 0;
    if (this.reading) this.tokenizer.write(part);
    while (!this.reading) {
      at = this.skim(Math.max(at, this.skimFrom - this.partStart));
      if (at === part.length) return;
      this.read(at);
    }
  }

  end(): void {
    if (this.reading) this.tokenizer.end();
    else this.parser.onend();
  }

  /** Hands the tokenizer the part from `at` on. */
  private read(at: number): void {
    this.reading = true;
    this.tokenizer.reset();
    this.base = this.partStart + at;
    this.tokenizer.write(this.part.slice(at));
  }

  /** Skims on after `end`, where the tokenizer read a `>`, when that is outside the kept elements. */
  private skimAfter(end: number): void {
    if (this.content.keeping || this.part.charCodeAt(end - this.partStart) !== GREATER_THAN) return;
    this.tokenizer.pause();
    this.reading = false;
    this.skimFrom = end + 1;
  }

  /** Skims the part from `at`: where the tokenizer must read on, or the part's length. */
  private skim(at: number): number {
    const { part } = this;
    for (let lt = part.indexOf('<', at); lt !== -1; ) {
      const next = part.charCodeAt(lt + 1);
      let after: number;
      if (isLetter(next)) after = this.startTag(lt);
      else if (next === SLASH) after = this.endTag(lt);
      else if (next === BANG && part.startsWith('--', lt + 2)) {
        // A comment ends at the first `-->`, its opening's dashes included (`<!-->`).
        const close = part.indexOf('-->', lt + 2);
        after = close === -1 ? -1 : close + 3;
      } else if (next === BANG || next === QUESTION_MARK || Number.isNaN(next)) after = -1;
      // A `<` that starts nothing is text.
      else after = lt + 1;
      if (after === -1) return lt;
      lt = part.indexOf('<', after);
    }
    return part.length;
  }

  /** Skims the start tag at `lt`, telling the parser its name: where it ends, or -1 where the tokenizer must read it. */
  private startTag(lt: number): number {
    const { part } = this;
    const name = lt + 1;
    let at = name + 1;
    while (at < part.length && !endsTagName(part.charCodeAt(at))) at++;
    const nameEnd = at;
    if (readsOn(part, name, nameEnd)) return -1;
    const link = isWord(part, name, nameEnd, 'a');
    while (at < part.length) {
      const c = part.charCodeAt(at);
      if (c === GREATER_THAN) {
        this.parser.onopentagname(this.partStart + name, this.partStart + nameEnd);
        this.parser.onopentagend(this.partStart + at);
        return at + 1;
      }
      if (c === SLASH) {
        // `/`, spaces and `>` close the tag; `/` and anything else is read as if the `/` were not there.
        let after = at + 1;
        while (after < part.length && isWhitespace(part.charCodeAt(after))) after++;
        if (part.charCodeAt(after) === GREATER_THAN) {
          this.parser.onopentagname(this.partStart + name, this.partStart + nameEnd);
          this.parser.onselfclosingtag(this.partStart + after);
          return after + 1;
        }
        at = after;
        continue;
      }
      if (isWhitespace(c)) {
        at++;
        continue;
      }
      // An attribute's name: this character, whatever it is, and those up to `=`, a space, `/` or `>`.
      const attribute = at++;
      while (at < part.length && part.charCodeAt(at) !== EQUALS && !endsTagName(part.charCodeAt(at))) at++;
      if (isWord(part, attribute, at, 'role')) return -1;
      const href = link && isWord(part, attribute, at, 'href');
      while (at < part.length && isWhitespace(part.charCodeAt(at))) at++;
      if (part.charCodeAt(at) !== EQUALS) continue;
      at++;
      while (at < part.length && isWhitespace(part.charCodeAt(at))) at++;
      const quote = part.charCodeAt(at);
      const value = at;
      if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
        at = part.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", value + 1);
        if (at === -1) return -1;
        at++;
      } else {
        while (at < part.length && !isWhitespace(part.charCodeAt(at)) && part.charCodeAt(at) !== GREATER_THAN) at++;
      }
      if (href) {
        const url = part.slice(value, at);
        if (url.includes('#') || url.includes('&')) return -1;
      }
    }
    return -1;
  }

  /** Skims the end tag at `lt`, telling the parser its name: where it ends, or -1 where the tokenizer must read it. */
  private endTag(lt: number): number {
    const { part } = this;
    const name = lt + 2;
    // `</>`, `</ name>` and bogus comments (`</!x>`) are the tokenizer's.
    if (!isLetter(part.charCodeAt(name))) return -1;
    let at = name + 1;
    while (at < part.length && part.charCodeAt(at) !== GREATER_THAN && !isWhitespace(part.charCodeAt(at))) at++;
    const gt = part.indexOf('>', at);
    if (gt === -1) return -1;
    this.parser.onclosetag(this.partStart + name, this.partStart + at);
    return gt + 1;
  }

  // The tokenizer's events, told the parser at their place in the page.
  onattribdata(start: number, endIndex: number): void {
    this.parser.onattribdata(this.base + start, this.base + endIndex);
  }

  onattribentity(codepoint: number): void {
    this.parser.onattribentity(codepoint);
  }

  onattribend(quote: QuoteType, endIndex: number): void {
    this.parser.onattribend(quote, this.base + endIndex);
  }

  onattribname(start: number, endIndex: number): void {
    this.parser.onattribname(this.base + start, this.base + endIndex);
  }

  oncdata(start: number, endIndex: number, endOffset: number): void {
    this.parser.oncdata(this.base + start, this.base + endIndex, endOffset);
    this.skimAfter(this.base + endIndex);
  }

  onclosetag(start: number, endIndex: number): void {
    this.parser.onclosetag(this.base + start, this.base + endIndex);
    this.skimAfter(this.base + endIndex);
  }

  oncomment(start: number, endIndex: number, endOffset: number): void {
    this.parser.oncomment(this.base + start, this.base + endIndex, endOffset);
    this.skimAfter(this.base + endIndex);
  }

  ondeclaration(start: number, endIndex: number): void {
    this.parser.ondeclaration(this.base + start, this.base + endIndex);
    this.skimAfter(this.base + endIndex);
  }

  onend(): void {
    this.parser.onend();
  }

  onopentagend(endIndex: number): void {
    this.parser.onopentagend(this.base + endIndex);
  }

  onopentagname(start: number, endIndex: number): void {
    this.parser.onopentagname(this.base + start, this.base + endIndex);
  }

  onprocessinginstruction(start: number, endIndex: number): void {
    this.parser.onprocessinginstruction(this.base + start, this.base + endIndex);
    this.skimAfter(this.base + endIndex);
  }

  onselfclosingtag(endIndex: number): void {
    this.parser.onselfclosingtag(this.base + endIndex);
    this.skimAfter(this.base + endIndex);
  }

  ontext(start: number, endIndex: number): void {
    this.parser.ontext(this.base + start, this.base + endIndex);
  }

  ontextentity(codepoint: number, endIndex: number): void {
    this.parser.ontextentity(codepoint, this.base + endIndex);
  }
}

/** The parser of `parseContent`: its own tokenizer stays paused, as a `SkimmingTokenizer` reads the page for it. */
class ContentParser extends EndTagReportingParser {
  private readonly skimming: SkimmingTokenizer;

  constructor(handler: ContentHandler, divergence: BrowserDivergence) {
    super(handler, divergence);
    this.pause();
    this.skimming = new SkimmingTokenizer(this, handler);
  }

  override write(part: string): void {
    // Paused, the parser only keeps the part: the names and texts the tokenizers tell it are read from it.
    super.write(part);
    this.skimming.write(part);
  }

  override end(part?: string): void {
    super.end(part);
    this.skimming.end();
  }
}

/**
 * A page's HTML, whole or in parts that follow each other. A large page read in parts never becomes
 * one string: one that takes two bytes a character goes from 64 KB on to V8's large-object space,
 * which only a full collection frees (pages indexed one after the other piled up there).
 */
export type HtmlSource = string | readonly string[];

const partsOf = (html: HtmlSource): readonly string[] => (typeof html === 'string' ? [html] : html);
const wholeOf = (html: HtmlSource): string => (typeof html === 'string' ? html : html.join(''));
const lengthOf = (html: HtmlSource): number => partsOf(html).reduce((sum, part) => sum + part.length, 0);

/**
 * Runs htmlparser2 over the whole page into the handler `handlerFor` makes, through the parser `parserFor` makes;
 * whether a browser would build something else.
 */
function runHtmlparser2<H extends Partial<Handler>>(
  html: HtmlSource,
  handlerFor: (divergence: BrowserDivergence) => H,
  parserFor: (handler: H, divergence: BrowserDivergence) => Parser = (handler, divergence) =>
    new EndTagReportingParser(handler, divergence),
  inBody = false,
): { handler: H; diverges: boolean } {
  const divergence = new BrowserDivergence(inBody);
  const handler = handlerFor(divergence);
  const parser = parserFor(handler, divergence);
  for (const part of partsOf(html)) parser.write(part);
  divergence.finish(parser);
  return { handler, diverges: divergence.diverges };
}

/** Serialized HTML keeps non-ASCII text as it is (cheerio/slim hands its options to dom-serializer). */
const CHEERIO_OPTIONS: CheerioOptions & DomSerializerOptions = { encodeEntities: 'utf8' };

/** Cheerio with no page of its own: it wraps nodes of any tree, for code handed elements rather than a page. */
const detached = load([], CHEERIO_OPTIONS);

/** A cheerio selection of `nodes`, wherever they are. */
export function cheerioOf<T extends AnyNode>(nodes: T | T[]): Cheerio<T> {
  return detached(nodes);
}

/** Serializes nodes as HTML, leaving non-ASCII text as it is. */
export function toHtml(nodes: AnyNode | AnyNode[]): string {
  return detached.html(nodes);
}

/**
 * parse5 building domhandler nodes, scripting on as in a browser (what cheerio's `load` does, without
 * loading cheerio's fetching code). Its repairs (the adoption agency) can nest deeper than the markup.
 */
function parseWithParse5(html: string): Document {
  const document = parseSpec(html, { treeAdapter: domhandlerAdapter, scriptingEnabled: true });
  checkDepth(document);
  return document;
}

/** Throws `TooDeepError` when elements below `root` nest deeper than `MAX_DEPTH` (walked without recursion). */
function checkDepth(root: AnyNode): void {
  const pending: [AnyNode, number][] = [[root, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (depth > MAX_DEPTH + 1) throw new TooDeepError();
    if ('children' in node) for (const child of node.children) pending.push([child, depth + 1]);
  }
}

/**
 * A parsed page. A class, not an object literal with getters: V8 allocates such a literal in the old
 * generation, where it keeps the page's young tree alive through every scavenge after the page is done
 * (splitting a large site spent three times as long collecting garbage).
 */
class ParsedPage implements ParsedHtml {
  private cheerio: CheerioAPI | undefined;

  constructor(
    readonly document: Document,
    readonly parser: ParserName,
    readonly size: number,
    private ids: Map<string, Element> | undefined,
  ) {}

  /** Cheerio takes the tree as it is, whichever parser built it; loaded on first use (a fragment is found by id). */
  get $(): CheerioAPI {
    this.cheerio ??= load(this.document, CHEERIO_OPTIONS);
    return this.cheerio;
  }

  elementById(id: string): Element | undefined {
    this.ids ??= indexIds(this.document);
    return this.ids.get(id);
  }
}

/**
 * Parses a page the way a browser would. htmlparser2 is about three times faster than parse5 on large
 * pages and builds the same tree for well-formed markup (what Sphinx and MkDocs write); pages where it
 * would diverge from a browser are parsed again with the spec-compliant parse5.
 */
export function parseHtml(html: HtmlSource): ParsedHtml {
  return parsedWhole(html, false);
}

/**
 * Parses what a page's body holds, as the Embed API answers a page (its main content): a browser puts it in a body as
 * it is, where `parseHtml` would take a missing `<body>` for markup a browser repairs and parse it again with parse5
 * (three times the time on Django's 480 KB `querysets.html`).
 */
export function parseBodyContent(html: string): ParsedHtml {
  return parsedWhole(html, true);
}

function parsedWhole(html: HtmlSource, inBody: boolean): ParsedHtml {
  const { handler, diverges } = runHtmlparser2(html, (divergence) => new WholePageHandler(divergence), undefined, inBody);
  if (diverges) return new ParsedPage(parseWithParse5(wholeOf(html)), 'parse5', lengthOf(html), undefined);
  return new ParsedPage(handler.root, 'htmlparser2', lengthOf(html), handler.ids);
}

/**
 * Parses what indexing reads of a page that marks its main content (see `ContentHandler`): its head,
 * that content, the links around it that name a fragment. The whole page when it marks none, as
 * `parseHtml` does; with parse5 where a browser would build something else. `observe` sees every
 * start tag of the page, in order, those of no node included (what `doclens build` reads of the links).
 */
export function parseContent(html: HtmlSource, observe?: StartTagObserver): ParsedHtml {
  const { handler, diverges } = runHtmlparser2(
    html,
    (divergence) => new ContentHandler(divergence, observe),
    (content, divergence) => new ContentParser(content, divergence),
  );
  if (diverges) return new ParsedPage(parseWithParse5(wholeOf(html)), 'parse5', lengthOf(html), undefined);
  const document = handler.document();
  return document ? new ParsedPage(document, 'htmlparser2', lengthOf(html), undefined) : parseHtml(html);
}

function indexIds(document: Document): Map<string, Element> {
  const ids = new Map<string, Element>();
  for (const element of descendants(document)) {
    const id = element.attribs.id;
    if (id !== undefined && id !== '' && !ids.has(id)) ids.set(id, element);
  }
  return ids;
}

/** The nodes of an HTML fragment (section HTML, not a page), as htmlparser2 builds them. */
export function parseFragment(html: string): AnyNode[] {
  const handler = new DepthLimitedHandler();
  new Parser(handler, { decodeEntities: true }).end(html);
  return handler.root.children;
}

/** Every element below `node`, in document order (iterative: `yield*` recursion is O(depth) per element). */
export function* descendants(node: AnyNode): Generator<Element> {
  if (!('children' in node)) return;
  const stack: { children: AnyNode[]; index: number }[] = [{ children: node.children, index: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const child = top.children[top.index++];
    if (child === undefined) {
      stack.pop();
    } else if (isTag(child)) {
      yield child;
      if (child.children.length > 0) stack.push({ children: child.children, index: 0 });
    }
  }
}

/** The elements below `node` that pass `test`, in document order, collected before any is changed. */
export function descendantsWhere(node: AnyNode, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  for (const element of descendants(node)) if (test(element)) found.push(element);
  return found;
}

/** All text below a node, as a browser's `textContent` minus comments. */
export function textOf(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!('children' in node)) return '';
  let text = '';
  for (const child of node.children) text += textOf(child);
  return text;
}

export function classList(element: Element): string[] {
  return (element.attribs.class ?? '').split(/\s+/).filter(Boolean);
}

export function hasClass(element: Element, name: string): boolean {
  return classList(element).includes(name);
}
