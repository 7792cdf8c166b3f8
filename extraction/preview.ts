import { isTag, type AnyNode, type Element } from 'domhandler';
import { removeElement } from 'domutils';
import { escapeAttribute } from 'entities';
import { findByFragment, nextDefinition, singleEntryList, toHtml } from './find-section.ts';
import { descendants, descendantsWhere, hasClass, parseFragment, textOf, type ParsedHtml } from './html/parse.ts';
import { DomhandlerTree, domhandlerTree, removePermalinks, removeStyles } from './html/structure.ts';
import { normalizeSpace } from './sections.ts';
import { mayHoldFurniture, PageStructure } from './structure/page-structure.ts';
import { mayHoldSurroundings } from './structure/surroundings.ts';
import {
  enclosingBlock,
  headingBefore,
  headingContainer,
  isEmptyAnchor,
  isLinksOnly,
  isPermalink,
  isPhrasing,
  labelledBy,
} from './structure/targets.ts';
import { hasOwnText, hasText as hasAnyText, headingRank, INVISIBLE, isHeadingName, percentDecoded } from './structure/tree.ts';
import { writtenHtml } from './written-html.ts';

export interface Preview {
  /** Plain-text title of the section (its heading, or the term a definition describes). */
  title: string;
  /** HTML of the first blocks of the section. */
  content: string;
  /** Whether the section has more than `content` shows. */
  truncated: boolean;
}

export interface PreviewLimits {
  maxBlocks: number;
  /** Upper bound on the length of `content`. */
  maxChars: number;
}

export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = { maxBlocks: 3, maxChars: 4000 };

/** Wrappers whose children are the blocks (Sphinx sections, definition bodies, admonitions stay whole). */
const CONTAINERS = new Set(['section', 'div', 'article', 'main', 'dd', 'body']);

const elementsOf = (nodes: AnyNode[]): Element[] => nodes.filter(isTag);

/** About `chars` characters of a block's text, cut after a word with "…", escaped. */
function cutText(block: Element, chars: number, shown: Shown): string {
  const text = shown.text(block);
  const cut = text.length > chars ? `${text.slice(0, chars).replace(/\s+\S*$/, '')}…` : text;
  return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A block cut to about `chars` characters of text, as a code block or paragraph. */
function shortened(block: Element, chars: number, shown: Shown): string {
  const escaped = cutText(block, chars, shown);
  return block.name === 'pre' || (block.name === 'div' && hasClass(block, 'highlight'))
    ? `<pre>${escaped}</pre>`
    : `<p>${normalizeSpace(escaped)}</p>`;
}

/** Characters of a signature shown where its markup is too large (a class with fifty typed parameters). */
const SIGNATURE_CHARS = 240;

/** Characters a signature leaves for its description at least: the sentence that says what it is. */
const DESCRIPTION_ROOM = 1000;

/**
 * A term's HTML, undefined when its text is larger than `room`; a signature that would leave its description too little
 * room shows its beginning as text.
 */
function termHtml(term: Element, room: number, shown: Shown): string | undefined {
  const limit = isSignature(term) ? room - DESCRIPTION_ROOM : room;
  const html = shown.length(term, limit + 1) > limit ? undefined : shown.html(term);
  if (!isSignature(term) || (html !== undefined && html.length <= limit)) return html;
  return `<dt class="${escapeAttribute(term.attribs.class ?? '')}">${normalizeSpace(cutText(term, SIGNATURE_CHARS, shown))}</dt>`;
}

const hasText = (element: Element): boolean => hasAnyText(domhandlerTree, element);

/**
 * How a preview reads the elements it shows and writes them. A page's elements (`pageUrl` given) are read
 * where they are and written as their copies would be (see `writtenHtml`), without making the copies; a
 * section's copy already (links absolute, permalinks removed: `previewOf`) as it is. Either is read without
 * its permalinks, noise in a tooltip, and without what the preview drops (a theme's furniture).
 */
class Shown {
  private readonly dropped = new Set<Element>();
  /** The elements as shown (a page's with links absolute, as its copy reads), without what is left out: what a structure is measured on. */
  readonly tree: DomhandlerTree;

  /**
   * @param isPermalinkHere how permalinks are told: as a target's blocks are read (on the links as they are),
   *   or exactly as on the copy (`asCopied`)
   * @param links the page's tree read with links absolute against `pageUrl` (see `DomhandlerTree`)
   */
  private constructor(
    private readonly pageUrl: string | undefined,
    private readonly isPermalinkHere: (element: Element) => boolean,
    private readonly links = new DomhandlerTree(pageUrl),
  ) {
    this.tree = links.leaving(this.isLeftOut);
  }

  /** A section's copy already (links absolute, permalinks removed). */
  static ofCopy(): Shown {
    return new Shown(undefined, (element) => isPermalink(domhandlerTree, element));
  }

  /** A page's elements, their permalinks told as a target's blocks are read (on the links as they are). */
  static onPage(pageUrl: string): Shown {
    return new Shown(pageUrl, (element) => isPermalink(domhandlerTree, element));
  }

  /**
   * Read exactly as the copy would be, permalinks told on the links as written: what a tree's structure is
   * measured on, where a link's target can tell a banner (see `PageStructure.furnitureIn`).
   */
  asCopied(): Shown {
    const { pageUrl, links } = this;
    return pageUrl === undefined ? this : new Shown(pageUrl, (element) => isPermalink(links, element), links);
  }

  /** Whether the preview leaves `node` out: what shows no text (a `<style>`), a permalink, or an element it dropped. */
  readonly isLeftOut = (node: AnyNode): node is Element =>
    isTag(node) && (INVISIBLE.has(node.name) || this.isPermalinkHere(node) || (this.dropped.size > 0 && this.dropped.has(node)));

  /** Leaves `elements` out from now on: a copy's removed, a page's passed over. */
  drop(elements: Element[]): void {
    for (const element of elements) {
      if (this.pageUrl === undefined) removeElement(element);
      else this.dropped.add(element);
    }
  }

  /** The HTML the preview writes of an element. */
  html(element: Element): string {
    return this.pageUrl === undefined ? toHtml(element) : writtenHtml(element, this.pageUrl, this.dropped, this.links);
  }

  elements(nodes: AnyNode[]): Element[] {
    return nodes.filter((node): node is Element => isTag(node) && !this.isLeftOut(node));
  }

  hasText(element: Element): boolean {
    return hasAnyText(this.tree, element);
  }

  text(node: AnyNode): string {
    if (!isTag(node)) return textOf(node);
    let text = '';
    for (const child of node.children) if (!this.isLeftOut(child)) text += this.text(child);
    return text;
  }

  /** How much of a node's shown text there is, counted up to `cap` at most: a class's entry with all its members is read no further. */
  length(node: AnyNode, cap: number): number {
    if (!isTag(node)) return textOf(node).length;
    let length = 0;
    for (const child of node.children) {
      if (this.isLeftOut(child)) continue;
      length += this.length(child, cap - length);
      if (length >= cap) break;
    }
    return length;
  }

  /** The last character of a node's shown text that is not a space (read from its end), or undefined when it has no text. */
  lastChar(node: AnyNode): string | undefined {
    if (!isTag(node)) return textOf(node).trimEnd().at(-1);
    for (let index = node.children.length - 1; index >= 0; index--) {
      const child = node.children[index]!;
      const last = this.isLeftOut(child) ? undefined : this.lastChar(child);
      if (last) return last;
    }
    return undefined;
  }

  /** Whether `element` sits in what is left out (a permalink) below `root`. */
  leftOutBelow(element: Element, root: Element): boolean {
    for (let node = element.parent; node && node !== root; node = node.parent) if (this.isLeftOut(node)) return true;
    return false;
  }
}

/**
 * A notebook's execution prompt, as Jupyter writes it beside a cell (`[2]:`, `[ ]:`, `In [2]:`, `Out[2]:`): nbsphinx
 * and nbconvert give it a block of its own, which a preview would show as a listing that says nothing.
 */
const PROMPT = /^(?:In|Out)?\s*\[[\s\d*]*\]:$/;

/** The blocks at or below `root` that are a notebook's execution prompts (see `PROMPT`), read as `shown` reads them. */
function promptsIn(root: Element, shown: Shown): Element[] {
  const isPrompt = (element: Element) =>
    (element.name === 'pre' || element.name === 'div') &&
    shown.length(element, MAX_PROMPT + 1) <= MAX_PROMPT &&
    PROMPT.test(normalizeSpace(shown.text(element)));
  return isPrompt(root) ? [] : descendantsWhere(root, isPrompt);
}

/** The longest text a prompt has (`Out[12345]:` and spaces). */
const MAX_PROMPT = 16;

/** Blocks a table of contents is written as (a signature's links to its types are none). */
const CONTENTS_BLOCKS = new Set(['div', 'nav', 'ol', 'p', 'section', 'ul']);
/** Links a table of contents has at least. */
const CONTENTS_LINKS = 3;

/**
 * Whether a block is a table of contents: links, and no more words besides than a title ("Contents", a toctree's
 * caption). CherryPy's pages open with one after their first sentence; a module's section has its own.
 */
function isContents(block: Element): boolean {
  let links = 0;
  let words = 0;
  const walk = (node: AnyNode): void => {
    if (!isTag(node)) {
      words += wordCount(node);
      return;
    }
    if (node.name === 'a' && hasText(node)) links++;
    else for (const child of node.children) walk(child);
  };
  if (!CONTENTS_BLOCKS.has(block.name)) return false;
  walk(block);
  return block.name === 'nav' || (links >= CONTENTS_LINKS && words <= MIN_WORDS);
}

/** Words of a field that tells of the page rather than its subject: a name, a year, a licence. */
const FIELD_WORDS = 12;

/**
 * Whether a block is a page's fields before its text: a list of short labels with one short value each (MDAnalysis'
 * modules open with their "Author", "Year" and "Copyright"; Python's "What's New" pages with their "Editor").
 */
function isFrontMatter(block: Element): boolean {
  // An entry's own fields ("Parameters", "Returns") are what it documents.
  if (block.name !== 'dl' || (block.parent && isTag(block.parent) && block.parent.name === 'dd')) return false;
  const items = elementsOf(block.children);
  const terms = items.filter((item) => item.name === 'dt');
  return (
    terms.length >= 2 &&
    items.every((item) =>
      item.name === 'dt'
        ? !item.attribs.id && wordCount(item) <= MIN_WORDS
        : item.name === 'dd' && wordCount(item) <= FIELD_WORDS && elementsOf(item.children).every((child) => child.name === 'p'),
    )
  );
}

/**
 * Blocks without their tables of contents, nor the fields a page opens with, which say nothing a preview can, unless
 * they are most of what the blocks say.
 */
function withoutContents(blocks: Element[]): Element[] {
  // A list a sentence announces ("The following views are described:") is what it says.
  const announced = (index: number) =>
    index > 0 &&
    textOf(blocks[index - 1]!)
      .trimEnd()
      .endsWith(':');
  const opening = blocks.findIndex((block) => hasText(block));
  const told = blocks.filter((block, index) => (!isContents(block) || announced(index)) && !(index === opening && isFrontMatter(block)));
  return wordsIn(told) >= SAYS_SOMETHING ? told : blocks;
}

/** Words that tell of something: fewer (a date, "New in version 4.0.") leave a preview's room to what follows. */
const SAYS_SOMETHING = 12;
/** Characters of a block's beginning worth showing after other blocks. */
const MIN_CUT = 200;
const wordCount = (node: AnyNode): number => textOf(node).match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
/** Words as written, a name of parts (`FST_ERR_CTP_BODY_TOO_LARGE`, `os.path`) one: how many a target shows a reader. */
const writtenWords = (node: AnyNode): number => textOf(node).match(/\S*[\p{L}\p{N}]\S*/gu)?.length ?? 0;
/** Fewer words than this say nothing yet ("Options", "speed"). */
const MIN_WORDS = 3;
/** Where a short target sits within an entry: a paragraph of a list item, a cell of a row. */
const ENTRY_PARTS = new Set(['p', 'li', 'td', 'th', 'tr', 'dd']);

interface Part {
  html: string;
  /** Whether it counts as a block: it has text, and is no signature. */
  textual: boolean;
  /**
   * Whether it announces what follows it (a heading, "Example:", "For instance:"), and says nothing without it.
   * A MkDocs page's headings sit beside the paragraphs they head.
   */
  leadIn: boolean;
}

/**
 * The first blocks of a section within the limits, counted by their text: rules, images and other
 * blocks without text come along but do not use up the count, nor do signatures (they head their
 * description, as a heading does). Where the cut falls, the last block is never a lead-in.
 */
function firstBlocks(section: Element[], limits: PreviewLimits, shown: Shown): { content: string; truncated: boolean } {
  const blocks = withoutContents(section);
  const parts: Part[] = [];
  let length = 0;
  let index = 0;
  let truncated = false;
  // Words of the blocks shown that say something themselves (no lead-in).
  let said = 0;
  const textual = () => parts.filter((part) => part.textual).length;
  for (; index < blocks.length; index++) {
    const block = blocks[index]!;
    // Only the end of a block's text tells a lead-in, and only its length whether it fits: a large one is not read whole.
    const lastChar = block.name === 'dt' ? undefined : shown.lastChar(block);
    const kind = { textual: lastChar !== undefined, leadIn: lastChar === ':' };
    const last = parts.findLast((part) => part.textual);
    if (kind.textual && textual() >= limits.maxBlocks && !last?.leadIn) break;
    // A block's HTML is at least as long as its text: one whose text is too long already is not written out.
    const room = limits.maxChars - length;
    const html = block.name === 'dt' ? termHtml(block, room, shown) : shown.length(block, room + 1) > room ? undefined : shown.html(block);
    if (html === undefined || length + html.length > limits.maxChars) {
      // A wrapper too large (lmfit's quote of a table's caption and the table) is read as its blocks.
      if (WRAPPERS.has(block.name) && !hasClass(block, 'highlight')) {
        blocks.splice(index--, 1, ...withoutContents(shown.elements(block.children)));
        continue;
      }
      // A first block too large on its own (a long listing) still shows its beginning; so do a table (its first rows)
      // and an entry too large (a class with all its members, after a module's one-line description).
      const entry =
        block.name === 'dl'
          ? entryBeginning(block, { maxBlocks: Math.max(1, limits.maxBlocks - textual()), maxChars: limits.maxChars - length }, shown)
          : block.name === 'table'
            ? tableBeginning(block, limits.maxChars - length, shown)
            : undefined;
      // So does one after too little to tell of anything (a release's date), where there is room for some of it.
      // Half the room: escaping may double a text's length.
      const cut = Math.floor((limits.maxChars - length) / 2) - (textual() === 0 ? 0 : '<pre></pre>'.length);
      const tells = said < SAYS_SOMETHING && !kind.leadIn && !isHeadingName(block.name) && cut >= MIN_CUT;
      if (entry) parts.push({ html: entry, ...kind });
      // A list's beginning is its first items, one apiece (a class's twenty parameters), not their text run together.
      else if (textual() === 0 || tells) {
        const room = { maxBlocks: Math.max(1, limits.maxBlocks - textual()), maxChars: limits.maxChars - length };
        parts.push({ html: listBeginning(block, room, shown) ?? shortened(block, cut, shown), ...kind });
      }
      truncated = true;
      break;
    }
    const part = { html, ...kind, leadIn: kind.leadIn || isHeadingName(block.name) };
    parts.push(part);
    if (part.textual && !part.leadIn) said += wordCount(block);
    length += html.length + 1;
  }
  truncated ||= blocks.slice(index).some((block) => block.name !== 'dt' && shown.hasText(block));
  // Where the cut falls after a lead-in, what it announces is not shown: the lead-in goes too.
  while (truncated && textual() > 1 && parts.findLast((part) => part.textual)!.leadIn) {
    parts.splice(parts.findLastIndex((part) => part.textual));
  }
  return { content: asLists(parts.map((part) => part.html)), truncated };
}

/**
 * Blocks joined, each signature heading the blocks after it as in the page, in a list of its own
 * (nested where the entry it belongs to follows it): a `<dt>` outside a `<dl>` is no term to a screen reader.
 */
function asLists(blocks: string[]): string {
  const term = blocks.findIndex((block) => block.startsWith('<dt'));
  if (term < 0) return blocks.join('\n');
  const before = blocks.slice(0, term).map((block) => `${block}\n`);
  return `${before.join('')}<dl>${blocks[term]}<dd>${asLists(blocks.slice(term + 1))}</dd></dl>`;
}

/** Wrappers of blocks that a preview reads inside where they are too large to show whole. */
const WRAPPERS = new Set(['article', 'blockquote', 'div', 'section']);

/** A table's head and as many of its first rows as fit in `room` characters, or undefined when none does. */
function tableBeginning(table: Element, room: number, shown: Shown): string | undefined {
  // Its own rows: a nested table's are in theirs.
  const ownTable = (row: Element) => {
    let node = row.parent;
    while (node && isTag(node) && node.name !== 'table') node = node.parent;
    return node;
  };
  const rows = descendantsWhere(
    table,
    (element) => element.name === 'tr' && ownTable(element) === table && !shown.leftOutBelow(element, table),
  );
  const isHead = (row: Element) => row.parent !== null && isTag(row.parent) && row.parent.name === 'thead';
  const head = rows
    .filter(isHead)
    .map((row) => shown.html(row))
    .join('');
  const body: string[] = [];
  let left = room - head.length - '<table><thead></thead><tbody></tbody></table>'.length;
  for (const row of rows.filter((row) => !isHead(row))) {
    const html = shown.length(row, left + 1) > left ? undefined : shown.html(row);
    if (html === undefined || html.length > left) break;
    body.push(html);
    left -= html.length;
  }
  return body.length ? `<table><thead>${head}</thead><tbody>${body.join('')}</tbody></table>` : undefined;
}

/**
 * A list's first items that fit in `limits`, one item apiece as on the page, or the first one's beginning when even it
 * does not fit (its first blocks: a parameter's description over a list of its own); undefined when there is no room
 * for that or the block is no list. An ordered list keeps where it starts.
 */
function listBeginning(list: Element, limits: PreviewLimits, shown: Shown): string | undefined {
  if (list.name !== 'ul' && list.name !== 'ol') return undefined;
  const start = list.name === 'ol' && list.attribs.start ? ` start="${escapeAttribute(list.attribs.start)}"` : '';
  const [open, close] = [`<${list.name}${start}>`, `</${list.name}>`];
  let left = limits.maxChars - open.length - close.length;
  const items: string[] = [];
  for (const item of shown.elements(list.children).filter((child) => child.name === 'li')) {
    const html = shown.length(item, left + 1) > left ? undefined : shown.html(item);
    if (html !== undefined && html.length <= left) {
      items.push(html);
      left -= html.length;
      continue;
    }
    if (!items.length) {
      left -= '<li></li>'.length;
      const inner = shown.elements(item.children);
      const ofBlocks = inner.length > 0 && !hasOwnText(domhandlerTree, item) && !inner.some((child) => isPhrasing(child.name));
      const blocks = ofBlocks ? firstBlocks(inner, { ...limits, maxChars: left }, shown).content : '';
      // Half the room for text: escaping may double its length.
      const cut = Math.floor(left / 2);
      const text = cut >= MIN_CUT ? normalizeSpace(cutText(item, cut, shown)) : '';
      // Its blocks where they show as much of it as its text would (not a lead-in alone where the room is short).
      const begun = blocks && blocks.replace(/<[^>]*>/g, '').length >= text.length / 2 ? blocks : text || blocks;
      if (begun) items.push(`<li>${begun}</li>`);
    }
    break;
  }
  return items.length ? `${open}${items.join('')}${close}` : undefined;
}

/** The term of a definition list whose id is `fragment`. */
const termNamed = (list: Element, fragment: string): Element | undefined =>
  elementsOf(list.children).find((child) => child.name === 'dt' && child.attribs.id === fragment);

/** A definition list's first term. */
const firstTerm = (list: Element): Element | undefined => elementsOf(list.children).find((child) => child.name === 'dt');

/** Whether a term is an API entry's signature (Sphinx's `dt.sig`). */
const isSignature = (term: Element | undefined): boolean => !!term && hasClass(term, 'sig');

/** A list's first entry: its term and the first blocks of its definition within `limits`, or undefined when even its term is too large. */
function entryBeginning(list: Element, limits: PreviewLimits, shown: Shown): string | undefined {
  const term = firstTerm(list);
  const definition = term && nextDefinition(term);
  if (!term || !definition) return undefined;
  const head = termHtml(term, limits.maxChars, shown);
  if (head === undefined) return undefined;
  // The list's kind stays (docutils' `field-list`: its labels' colon, an API entry's `py method`).
  const open = list.attribs.class ? `<dl class="${escapeAttribute(list.attribs.class)}">` : '<dl>';
  const room = limits.maxChars - head.length - `${open}<dd></dd></dl>`.length;
  if (room <= 0) return undefined;
  return `${open}${head}<dd>${firstBlocks(shown.elements(definition.children), { ...limits, maxChars: room }, shown).content}</dd></dl>`;
}

/**
 * The tooltip form of an extracted section: its title and first blocks, bounded in size. The section's
 * HTML (links already absolute) in, or its nodes parsed already (then changed: permalinks and styles removed), the
 * preview out. A whole page's content (its main element may hold navigation too) previews the page's prose.
 * `pageUrl`: the page's, against which its links were made absolute, which tells the links to the page itself;
 * `fragment`: the id the link names, which tells a term from others documented with it.
 */
export function previewOf(
  section: string | AnyNode[],
  { limits = DEFAULT_PREVIEW_LIMITS, pageUrl, fragment }: { limits?: PreviewLimits; pageUrl?: string; fragment?: string } = {},
): Preview {
  const roots = elementsOf(typeof section === 'string' ? parseFragment(section) : section);
  for (const root of roots) {
    removePermalinks(root);
    removeStyles(root);
  }
  return previewOfElements(roots, Shown.ofCopy(), limits, pageUrl, fragment);
}

/** {@link previewOf} of a section in a parsed page (a copy of it, links absolute against `pageUrl`): no HTML in between. */
export function previewOfElement(section: Element, pageUrl: string, limits: PreviewLimits = DEFAULT_PREVIEW_LIMITS): Preview {
  return previewOfElements([section], Shown.onPage(pageUrl), limits, pageUrl);
}

/** Whether a container's text opens with a heading, in it or in the containers it opens with (`section > section > h2`). */
function opensWithHeading(container: Element, shown: Shown): boolean {
  const first = shown.elements(container.children).find((block) => shown.hasText(block));
  return !!first && (isHeadingName(first.name) || (CONTAINERS.has(first.name) && opensWithHeading(first, shown)));
}

/**
 * A definition list entry's title and blocks: its term, then its definition and the blocks that describe it when its
 * definition is empty (`after`). An API entry is titled by the object's name, its full signature the first block.
 */
function entryPreview(entry: Element, after: Element[], shown: Shown, fragment?: string): { title: string; blocks: Element[] } {
  // Of terms documented together (Logbook's `CRITICAL`, `ERROR`, `WARNING`… over one description), the one linked to.
  const term = (fragment && termNamed(entry, fragment)) || firstTerm(entry);
  const definition = elementsOf(entry.children).find((child) => child.name === 'dd');
  const blocks = [...(definition ? shown.elements(definition.children) : []), ...after];
  if (!term) return { title: '', blocks };
  // A glossary's or another term: the title says it already.
  if (!isSignature(term)) return { title: normalizeSpace(shown.text(term)), blocks };
  const { name, prefixed } = signatureName(term, shown);
  const owner = prefixed ? undefined : memberOwner(entry, term, name);
  return { title: owner ? `${owner}.${name}` : name || normalizeSpace(shown.text(term)), blocks: [term, ...blocks] };
}

/** An API entry's name as its signature writes it: the name, after the module or class it is written with. */
function signatureName(term: Element, shown: Shown): { name: string; prefixed: boolean } {
  const parts = [...descendants(term)].filter(
    (element) => (hasClass(element, 'sig-prename') || hasClass(element, 'sig-name')) && !shown.leftOutBelow(element, term),
  );
  const prefixed = parts.some((element) => hasClass(element, 'sig-prename') && /\w/.test(shown.text(element)));
  return { name: normalizeSpace(parts.map((part) => shown.text(part)).join('')), prefixed };
}

/** Kinds of Python objects that belong to a class (Sphinx's `dl.py.method`): their signatures often leave the class out. */
const MEMBER_KINDS = /\b(?:method|attribute|property|classmethod|staticmethod)\b/;

/**
 * The class a member's signature leaves out (`property args`, documented in `class Request`), from
 * its id, the member's full name (`werkzeug.wrappers.Request.args`): the part before its own name.
 */
function memberOwner(entry: Element, term: Element, name: string): string | undefined {
  const id = term.attribs.id ?? '';
  if (!MEMBER_KINDS.test(entry.attribs.class ?? '') || !name || !id.endsWith(`.${name}`)) return undefined;
  return (
    id
      .slice(0, -name.length - 1)
      .split('.')
      .at(-1) || undefined
  );
}

/**
 * {@link previewOf} over elements, read where they are (see `Shown`). A tree that may hold a theme's
 * furniture is measured where it is too, read exactly as its copy would be, its links to the page at `pageUrl` as such.
 */
function previewOfElements(
  sectionRoots: Element[],
  shownFirst: Shown,
  limits: PreviewLimits,
  pageUrl?: string,
  fragment?: string,
): Preview {
  let roots = sectionRoots;
  let shown = shownFirst;
  if (roots.length === 1 && mayHoldFurniture(domhandlerTree, roots[0]!)) {
    const root = roots[0]!;
    shown = shown.asCopied();
    const structure = new PageStructure(shown.tree, root, pageUrl);
    // A theme's buttons, banners and previous/next links around the page's text are none of it.
    shown.drop(structure.furnitureIn(root));
    // The count first: most such trees hold no landmark, and the look walks the whole tree.
    roots = [structure.hasSurroundings() && mayHoldSurroundings(shown.tree, root) ? structure.mainContent() : root];
  }
  shown.drop(roots.flatMap((root) => promptsIn(root, shown)));
  let title = '';
  let blocks: Element[] = roots;
  const only = roots.length === 1 ? roots[0]! : undefined;
  // A target that is a link (a table of contents entry) says nothing but its label: where it leads does (see `previewOfTarget`).
  if (only?.name === 'a') return { title: normalizeSpace(shown.text(only)), content: '', truncated: false };
  const [entry, ...after] = roots;
  if (entry?.name === 'dl') ({ title, blocks } = entryPreview(entry, after, shown, fragment));
  else {
    // Main content is often wrappers in wrappers (`div[role=main] > section`): the blocks are inside. So is the title of a
    // page of several top-level sections (Beautiful Soup's manual: an `<h1>` each), in the first, read on into the next.
    for (;;) {
      const textual = blocks.filter((block) => shown.hasText(block));
      const first = textual[0];
      if (!first || !CONTAINERS.has(first.name) || hasClass(first, 'admonition')) break;
      const inner = shown.elements(first.children);
      if (textual.length === 1) blocks = inner;
      else if (opensWithHeading(first, shown)) blocks = [...inner, ...blocks.slice(blocks.indexOf(first) + 1)];
      else break;
    }
  }
  // Empty anchors before the heading (`<span id="label"></span><h2>`) are no content; a heading that is a logo is one.
  const textual = blocks.filter((block) => shown.hasText(block) || (isHeadingName(block.name) && headingName(block, shown)));
  const heading = textual[0];
  // A page with no heading that documents one object (pygame's module pages: a `dl` whose signature names the module)
  // is titled by it, as a preview of that entry is.
  if (!title && heading?.name === 'dl' && textual.length === 1 && isSignature(firstTerm(heading)))
    ({ title, blocks } = entryPreview(heading, [], shown));
  else if (heading && isHeadingName(heading.name)) {
    title = headingName(heading, shown);
    blocks = blocks.slice(blocks.indexOf(heading) + 1);
  } else if (only?.name === 'dt' || (only && isHeadingName(only.name))) {
    title = normalizeSpace(shown.text(only));
  }
  return { title, ...firstBlocks(blocks, limits, shown) };
}

/**
 * What a heading says: its text, or where it has none (a project's logo as its home page's `<h1>`: Tornado's) the
 * text of its images, as a screen reader reads it.
 */
function headingName(heading: Element, shown: Shown): string {
  const text = normalizeSpace(shown.text(heading));
  if (text) return text;
  const images = descendantsWhere(heading, (element) => element.name === 'img' && !shown.leftOutBelow(element, heading));
  return normalizeSpace(images.map((image) => image.attribs.alt ?? '').join(' '));
}

/** A heading's section: the wrapper it opens (`<section>`), or the blocks after it up to the next heading of its rank or higher. */
function headingSection(heading: Element): Element[] {
  const container = headingContainer(domhandlerTree, heading);
  const wrapper = container.parent;
  if (wrapper && isTag(wrapper) && wrapper.name !== 'body' && leads(container, wrapper)) return [wrapper];
  return [container, ...blocksUntilHeading(container.next, headingRank(heading.name))];
}

/** The elements from `first` on up to the next heading of `rank` or higher. */
function blocksUntilHeading(first: AnyNode | null, rank: number): Element[] {
  const blocks: Element[] = [];
  for (let next = first; next; next = next.next) {
    if (!isTag(next)) continue;
    const nextRank = headingRank(next.name);
    if (nextRank > 0 && nextRank <= rank) break;
    blocks.push(next);
  }
  return blocks;
}

/**
 * The section of the heading an empty anchor follows (see `headingBefore`), from the anchor on where blocks stand between
 * them: a table of contents (Kombu's module target after its page's local contents) is the section's, not what the
 * anchor marks.
 */
function anchorSection(heading: Element, anchor: Element): Element[] {
  let between = false;
  for (let node = anchor.prev; node && node !== heading; node = node.prev) between ||= isTag(node) && !isEmptyAnchor(domhandlerTree, node);
  if (!between || anchor.parent !== heading.parent) return headingSection(heading);
  return [heading, ...blocksUntilHeading(anchor, headingRank(heading.name))];
}

/** Whether nothing but empty anchors comes before `element` in `wrapper`. */
function leads(element: Element, wrapper: Element): boolean {
  for (const child of wrapper.children) {
    if (child === element) return true;
    if (isTag(child) ? !isEmptyAnchor(domhandlerTree, child) : /\S/.test(textOf(child))) return false;
  }
  return false;
}

/** What an empty anchor stands for: what it labels, or the section of the heading it follows when it labels no heading. */
function anchored(anchor: Element): Element {
  const labelled = labelledBy(domhandlerTree, anchor);
  if (labelled && headingRank(labelled.name) > 0) return labelled;
  return headingBefore(domhandlerTree, anchor) ?? labelled ?? anchor;
}

/** Sphinx's target of a Python module (`.. module::`, `.. automodule::`): an empty anchor `module-<name>`. */
const isModuleTarget = (element: Element): boolean => /^module-/.test(element.attribs.id ?? '') && isEmptyAnchor(domhandlerTree, element);

/**
 * The section a module target stands in, from its heading, without its tables of contents: the directive marks the
 * section that documents the module wherever in it it stands (after a version note, an introduction: ezdxf's `bbox`,
 * `acadctb`), not the paragraph or entry after it. Not where it heads a section of its own, nor in a section of
 * several modules (Tornado's implementations, SymPy's number theory), where it marks its part.
 */
function moduleSection(anchor: Element): Element[] | undefined {
  const labelled = labelledBy(domhandlerTree, anchor);
  const heading = previousElement(anchor, (element) => headingRank(element.name) > 0);
  if (!heading || (labelled && headingRank(labelled.name) > 0)) return undefined;
  const blocks = blocksUntilHeading(heading.next, headingRank(heading.name));
  // Another module's target: among the blocks, or the section's own id (docutils merges the first target into it).
  const section = heading.parent && isTag(heading.parent) ? heading.parent : undefined;
  const another = /^module-/.test(section?.attribs.id ?? '') || blocks.some((block) => block !== anchor && isModuleTarget(block));
  if (another) return undefined;
  return [heading, ...blocks.filter((block) => !isContents(block) && !isLinksOnly(domhandlerTree, block))];
}

/**
 * What a preview of the element with a fragment's id shows: an empty anchor what it labels, a heading
 * its section, a term its definition (alone, even when the terms of its list share one).
 */
function previewParts(element: Element): Element[] {
  const section = isModuleTarget(element) ? moduleSection(element) : undefined;
  if (section) return section;
  const labelled = isEmptyAnchor(domhandlerTree, element) ? anchored(element) : element;
  let target = labelled.name === 'dt' ? labelled : enclosingBlock(domhandlerTree, labelled);
  // A target of a word or two (a table cell, a list item's caption, an error's code) previews its row or item.
  while (target.parent && isTag(target.parent) && ENTRY_PARTS.has(target.parent.name) && writtenWords(target) < MIN_WORDS)
    target = target.parent;
  if (headingRank(target.name) > 0) return labelled === element ? headingSection(target) : anchorSection(target, element);
  const parent = target.parent;
  const list = target.name === 'dl' ? target : target.name === 'dt' && parent && isTag(parent) && parent.name === 'dl' ? parent : undefined;
  if (!list) return [target];
  const entry = target.name === 'dt' && !holdsOnly(list, target) ? singleEntryList(target, list) : list;
  return [entry, ...describingBlocks(entry, list)];
}

/**
 * Whether `term` and its definition are all the entries `list` holds (an API object's list): the list is then
 * read as it is, not copied with them alone (see `singleEntryList`), as it reads the same.
 */
function holdsOnly(list: Element, term: Element): boolean {
  const definition = nextDefinition(term);
  return list.children.every((child) => !isTag(child) || child === term || child === definition);
}

/**
 * An entry with an empty definition (`<dt>signature</dt><dd></dd>`) is often described by the blocks
 * after its list (or after the other empty entries of its group), up to the next heading or entry, or
 * by the definition the group shares; an undocumented one at least by what introduces it:
 * what it belongs to (the signature and description of the entry around its list, or what introduces
 * that one), or the last paragraph before its list ("These roles are provided:").
 */
function describingBlocks(entry: Element, list: Element): Element[] {
  const definition = elementsOf(entry.children).find((child) => child.name === 'dd');
  if (definition && hasText(definition)) return [];
  const after: Element[] = [];
  for (let next = list.next; next; next = next.next) {
    if (!isTag(next)) continue;
    if (headingRank(next.name) > 0) break;
    if (next.name === 'dl') {
      // Only entries of the same kind as this one (`dl.py.class`, `dl.std.option`) make one group.
      if (after.length > 0 || next.attribs.class !== list.attribs.class) break;
      // Entries documented together (`class A`, `class B`, then one description): the group's description.
      const shared = elementsOf(next.children).find((child) => child.name === 'dd');
      if (shared && hasText(shared)) {
        after.push(...elementsOf(shared.children));
        break;
      }
      continue;
    }
    after.push(next);
  }
  return wordsIn(after) >= MIN_WORDS ? after : introduction(list);
}

/** What introduces a list of entries: the entry it is a member of, or the last paragraph before it. */
function introduction(list: Element): Element[] {
  const owner = list.parent;
  if (owner && isTag(owner) && owner.name === 'dd') {
    const ownerTerm = previousElement(owner, (element) => element.name === 'dt');
    const description = elementsOf(owner.children).filter((child) => child.name !== 'dl' && hasText(child));
    const ownerList = owner.parent && isTag(owner.parent) ? owner.parent : undefined;
    const context = wordsIn(description) >= MIN_WORDS || !ownerList ? description : introduction(ownerList);
    return ownerTerm ? [ownerTerm, ...context] : context;
  }
  const paragraph = previousElement(
    list,
    (element) => headingRank(element.name) > 0 || (element.name !== 'dl' && wordCount(element) >= MIN_WORDS),
  );
  return paragraph && headingRank(paragraph.name) === 0 ? [paragraph] : [];
}

const wordsIn = (blocks: Element[]): number => blocks.reduce((words, block) => words + wordCount(block), 0);

/** The nearest element sibling before `element` that passes `test`. */
function previousElement(element: Element, test: (element: Element) => boolean): Element | undefined {
  for (let previous = element.prev; previous; previous = previous.prev) if (isTag(previous) && test(previous)) return previous;
  return undefined;
}

/**
 * Whether a section is what an empty label in its middle stands in (the Embed API's Sphinx rule
 * answers a `<span id>` inside a section with the whole section: Python's `sys.html#auditing`, after
 * the module's opening): the page around the label tells what it labels.
 */
export function labelledWithin(section: AnyNode[], fragment: string): boolean {
  const root = elementsOf(section).length === 1 ? elementsOf(section)[0]! : undefined;
  if (!root || !fragment || root.attribs.id === fragment) return false;
  const ids = new Set([fragment, percentDecoded(fragment)]);
  const label = elementsOf(root.children).find((child) => ids.has(child.attribs.id ?? ''));
  return !!label && isEmptyAnchor(domhandlerTree, label) && !leads(label, root);
}

/** Lines of a definition's code shown at most. */
const MAX_CODE_LINES = 40;
/** Blocks that make a section more than a piece of a line: a section cut out of a code listing has none. */
// Not `div`: a listing's definitions nest as divs (Sphinx's viewcode blocks of a class and its methods).
const BLOCKS = new Set(['p', 'pre', 'ul', 'ol', 'dl', 'table', 'section', 'article', 'blockquote']);

const indentOf = (line: string) => line.length - line.trimStart().length;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The `<pre>` a target sits inside (not the listing itself): a definition in highlighted source, a numbered line. */
function listingAround(element: Element): Element | undefined {
  for (let node = element.parent; node && isTag(node); node = node.parent) if (node.name === 'pre') return node;
  return undefined;
}

/**
 * Whether a section (its HTML, or its nodes) is a piece of a code listing cut out of its `<pre>` (an Embed API answer for a
 * definition's id on a source page): its root holds no block, and its text runs over several lines,
 * or over two whose second is indented deeper (a signature and its body: Kombu's two-line methods).
 * Taken for one wrongly, a section is only read again around its target in the page.
 */
export function cutFromListing(section: string | AnyNode[]): boolean {
  const roots = elementsOf(typeof section === 'string' ? parseFragment(section) : section);
  const root = roots.length === 1 ? roots[0]! : undefined;
  if (!root || root.name === 'pre' || [...descendants(root)].some((element) => BLOCKS.has(element.name) || isHeadingName(element.name)))
    return false;
  const lines = textOf(root).trim().split('\n');
  return lines.length > 2 || (lines.length === 2 && indentOf(lines[1]!) > indentOf(lines[0]!));
}

/**
 * The lines of a definition starting at the first of `lines`: the lines indented deeper than it, and
 * the decorators and continued lines before its body at the same depth.
 */
function definitionLines(lines: string[]): string[] {
  const depth = indentOf(lines[0] ?? '');
  const kept = lines.slice(0, 1);
  for (const line of lines.slice(1)) {
    const last = kept.findLast((previous) => previous.trim())!.trimEnd();
    const continues =
      kept.every((previous) => !previous.trim() || indentOf(previous) === depth) && (/^\s*@/.test(last) || /[([{,\\]$/.test(last));
    if (line.trim() && indentOf(line) <= depth && !continues) break;
    kept.push(line);
    if (kept.length >= MAX_CODE_LINES) break;
  }
  while (kept.length > 1 && !kept.at(-1)!.trim()) kept.pop();
  return dedented(kept);
}

/** Lines moved left by the first line's indentation (a method's lines start at the left edge). */
function dedented(lines: string[]): string[] {
  const depth = indentOf(lines[0] ?? '');
  return lines.map((line) => line.slice(Math.min(depth, indentOf(line))));
}

/**
 * The preview of a target inside a code listing: the definition's code, as code, from the target's line
 * to the end of what it wraps (a block of source around a definition) or of the definition that starts
 * there (a line's anchor); its name as title. Links that only annotate (`[docs]`) are no code.
 */
function listingPreview(target: Element, listing: Element, limits: PreviewLimits): Preview {
  let text = '';
  let [start, end] = [-1, -1];
  const walk = (node: AnyNode) => {
    if (node === target) start = text.length;
    if (isTag(node)) {
      if (!isPermalink(domhandlerTree, node)) node.children.forEach(walk);
    } else text += textOf(node);
    if (node === target) end = text.length;
  };
  walk(listing);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const wrapped = text.slice(start, end).trim().includes('\n');
  const all = (wrapped ? text.slice(lineStart, end) : text.slice(lineStart)).split('\n');
  const lines = wrapped ? dedented(all.slice(0, MAX_CODE_LINES)) : definitionLines(all);
  let code = lines.join('\n');
  const truncated = lines.length < all.filter((line, index) => index < lines.length || line.trim()).length || code.length > limits.maxChars;
  if (code.length > limits.maxChars) code = `${code.slice(0, limits.maxChars).replace(/\n[^\n]*$/, '')}\n…`;
  const id = target.attribs.id ?? '';
  const name = id.split('.').at(-1) ?? '';
  const first = normalizeSpace(lines.find((line) => line.trim() && !/^\s*@/.test(line)) ?? '');
  return { title: name && first.includes(name) ? id : first, content: `<pre><code>${escapeHtml(code)}</code></pre>`, truncated };
}

/** The fragment a link points to in the page at `pageUrl` (`#id`, or the page's own URL as the Embed API writes links), if it does. */
function fragmentWithin(href: string, pageUrl: string): string | undefined {
  if (!URL.canParse(href, pageUrl)) return undefined;
  const [url, page] = [new URL(href, pageUrl), new URL(pageUrl)];
  return url.origin === page.origin && url.pathname === page.pathname && url.hash.length > 1 ? url.hash.slice(1) : undefined;
}

/**
 * The preview of what `#fragment` points to in a page: the text the link leads to (see `previewParts`),
 * links absolute against `pageUrl`; null when the page has no such element.
 */
export function previewOfTarget(
  page: ParsedHtml,
  fragment: string,
  pageUrl: string,
  limits: PreviewLimits = DEFAULT_PREVIEW_LIMITS,
): Preview | null {
  let found = findByFragment(page, fragment);
  if (!found) return null;
  // A target that is itself a link within the page (a table of contents entry a heading links back to) stands for where it leads.
  const leadsTo = found.name === 'a' ? fragmentWithin(found.attribs.href ?? '', pageUrl) : undefined;
  if (leadsTo) found = findByFragment(page, leadsTo) ?? found;
  const listing = listingAround(found);
  if (listing) return listingPreview(found, listing, limits);
  const parts = previewParts(found);
  const after = parts.length === 1 && isTitleParagraph(parts[0]!) ? titledBlocks(parts[0]!) : [];
  if (wordsIn(after) >= MIN_WORDS) {
    const shown = Shown.onPage(pageUrl);
    return { title: normalizeSpace(shown.text(parts[0]!)), ...firstBlocks(after, limits, shown) };
  }
  const preview = previewOfElements(parts, Shown.onPage(pageUrl), limits, pageUrl, fragment);
  // A block right under a heading, with no title of its own (jsonpickle's `git clone` listing under "Get the Code"), is
  // where that heading's section starts: titled by it.
  const above = !preview.title && parts.length === 1 ? previousElement(parts[0]!, () => true) : undefined;
  return above && isHeadingName(above.name) ? { ...preview, title: headingName(above, Shown.onPage(pageUrl)) } : preview;
}

/** Words a title says at most. */
const TITLE_WORDS = 8;

/**
 * Whether a paragraph reads as the title of what follows it, not as a sentence (Sphinx's rubric, "Bulge value"): a few
 * words, no sentence's end, among a section's or a description's blocks (not a list item's or a cell's text).
 */
function isTitleParagraph(block: Element): boolean {
  const words = wordCount(block);
  const parent = block.parent;
  return (
    block.name === 'p' &&
    words > 0 &&
    words <= TITLE_WORDS &&
    !/[.,:;!?…]$/.test(normalizeSpace(textOf(block))) &&
    !!parent &&
    isTag(parent) &&
    CONTAINERS.has(parent.name)
  );
}

/** What a title paragraph heads: the blocks after it up to the next heading or the next title of its kind. */
function titledBlocks(title: Element): Element[] {
  const blocks: Element[] = [];
  for (const block of blocksUntilHeading(title.next, 6)) {
    if (block.attribs.class === title.attribs.class && isTitleParagraph(block)) break;
    blocks.push(block);
  }
  return blocks;
}

/** Whether a preview says something besides its headings and signatures (a few words at least). */
export function hasTextBeyondTitle(preview: Preview): boolean {
  const words = (node: AnyNode): number => {
    if (isTag(node))
      return isHeadingName(node.name) || node.name === 'dt' ? 0 : node.children.reduce((sum, child) => sum + words(child), 0);
    return wordCount(node);
  };
  return parseFragment(preview.content).reduce((sum, node) => sum + words(node), 0) >= MIN_WORDS;
}
