import { type Cheerio, type CheerioAPI, type CheerioOptions, load } from 'cheerio/slim';
import type { DomSerializerOptions } from 'dom-serializer';
import { DomHandler, isTag, isText, type AnyNode, type Document, type Element } from 'domhandler';
import { Parser } from 'htmlparser2';
import { parse as parseSpec } from 'parse5';
import { adapter as domhandlerAdapter } from 'parse5-htmlparser2-tree-adapter';

/**
 * Deepest element nesting parsed, as in Chromium's parser (which stops nesting at 512). Deeper trees
 * are refused: the tree walks of extraction recurse by depth, and no documentation nests that deep.
 */
export const MAX_DEPTH = 512;

/** HTML nested deeper than `MAX_DEPTH`. */
export class TooDeepError extends Error {
  override name = 'TooDeepError';
  constructor() {
    super(`the HTML nests elements more than ${MAX_DEPTH} deep`);
  }
}

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
 * Builds the htmlparser2 tree and notes whatever a browser would build differently: formatting
 * elements closed out of order (browsers run the adoption agency and reopen them), an element other
 * than those with optional end tags closed by the next start tag, a `<tr>` straight in a `<table>`
 * (browsers insert `<tbody>`), or no `<body>` (browsers create one).
 */
class BrowserDivergenceHandler extends DepthLimitedHandler {
  diverges = false;
  /** First element with each id, collected while parsing: a second walk over a large page costs more. */
  readonly ids = new Map<string, Element>();
  /** Source offsets of the end tag being processed, while the parser closes elements for it (-1: none). */
  endTagStart = -1;
  endTagEnd = -1;
  /** Set while a self-closing tag (`<path/>` in SVG) closes itself. */
  selfClosing = false;
  private sawBody = false;
  private atEnd = false;

  /** `source` is the whole page, written in one chunk, so tokenizer offsets index it. */
  constructor(private readonly source: string) {
    super();
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    if (name === 'body') this.sawBody = true;
    if (name === 'tr' && this.currentParentName() === 'table') this.diverges = true;
    super.onopentag(name, attribs);
    const id = attribs.id;
    if (id && !this.ids.has(id)) this.ids.set(id, this.tagStack[this.tagStack.length - 1] as Element);
  }

  override onclosetag(name?: string, isImplied?: boolean): void {
    if (isImplied && !this.atEnd && !this.selfClosing && name) {
      // Sliced only here: implied closes are rare in generated docs, end tags are not.
      const endTag = this.endTagStart === -1 ? undefined : this.source.slice(this.endTagStart, this.endTagEnd).toLowerCase();
      const closedByEndTag = endTag !== undefined && endTag !== name;
      if (closedByEndTag && (FORMATTING_ELEMENTS.has(endTag) || FORMATTING_ELEMENTS.has(name))) this.diverges = true;
      if (!closedByEndTag && !VOID_ELEMENTS.has(name) && !OPTIONAL_END_TAGS.has(name)) this.diverges = true;
    }
    super.onclosetag();
  }

  finish(parser: Parser): void {
    this.atEnd = true;
    parser.end();
    if (!this.sawBody) this.diverges = true;
  }

  private currentParentName(): string | undefined {
    const parent = this.tagStack[this.tagStack.length - 1];
    return parent && isTag(parent) ? parent.name : undefined;
  }
}

/** Tells the handler which end tag the elements it is asked to close belong to. */
class EndTagReportingParser extends Parser {
  constructor(private readonly divergence: BrowserDivergenceHandler) {
    super(divergence, { decodeEntities: true });
  }

  override onclosetag(start: number, endIndex: number): void {
    this.divergence.endTagStart = start;
    this.divergence.endTagEnd = endIndex;
    super.onclosetag(start, endIndex);
    this.divergence.endTagStart = -1;
  }

  override onselfclosingtag(endIndex: number): void {
    this.divergence.selfClosing = true;
    super.onselfclosingtag(endIndex);
    this.divergence.selfClosing = false;
  }
}

function parseWithHtmlparser2(html: string): { document: Document; ids: Map<string, Element>; diverges: boolean } {
  const handler = new BrowserDivergenceHandler(html);
  const parser = new EndTagReportingParser(handler);
  parser.write(html);
  handler.finish(parser);
  return { document: handler.root, ids: handler.ids, diverges: handler.diverges };
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
export function parseHtml(html: string): ParsedHtml {
  const fast = parseWithHtmlparser2(html);
  if (fast.diverges) return new ParsedPage(parseWithParse5(html), 'parse5', html.length, undefined);
  return new ParsedPage(fast.document, 'htmlparser2', html.length, fast.ids);
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
