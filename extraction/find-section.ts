import { isTag, type Element } from 'domhandler';
import { compile, is } from 'css-select';
import { appendChild, textContent } from 'domutils';
import { absolutizeReferences } from './html/links.ts';
import { cheerioOf, parseHtml, toHtml, type ParsedHtml } from './html/parse.ts';
import { domhandlerTree, findMainContent } from './html/structure.ts';
import { simpleSelector } from './selector.ts';
import { percentDecoded } from './structure/tree.ts';

export { toHtml } from './html/parse.ts';

/** What to embed from a page, as the Embed API v3 takes it. */
export interface SectionQuery {
  /** Element id; without one the page's main content is embedded. */
  fragment?: string | null;
  /** `sphinx` turns bare targets (empty spans, terms) into the section a reader expects. */
  doctool?: string | null;
  /** CSS selector for the main content when there is no fragment; only simple ones are run (`simpleSelector`). */
  maincontent?: string | null;
}

/** A selector that is not valid CSS, or not simple enough to run on a request's behalf. */
export class InvalidSelectorError extends Error {
  constructor(readonly selector: string) {
    super(`Invalid or too complex CSS selector: ${selector}`);
    this.name = 'InvalidSelectorError';
  }
}

/** The element with id `fragment`, as written or percent-decoded. */
export function findByFragment(page: ParsedHtml, fragment: string): Element | undefined {
  const exact = page.elementById(fragment);
  if (exact) return exact;
  const decoded = percentDecoded(fragment);
  return decoded === fragment ? undefined : page.elementById(decoded);
}

function selectMainContent(page: ParsedHtml, selector: string): Element | undefined {
  const simple = simpleSelector(selector);
  if (simple === undefined) throw new InvalidSelectorError(selector);
  // `find`, not `$(selector)`: a query's selector is never taken for markup to create.
  return page.$.root().find(simple).get(0);
}

/** A section as Sphinx writes one (see `isSphinxLabelTarget`); compiled once, not for every target of every page. */
const SPHINX_SECTION = compile('div.section, section[id]:not([id=""])');
/** Lists whose terms are each taken alone (see `singleEntryList`). */
const SINGLE_ENTRY_LISTS = compile('.glossary, .citation');

/**
 * Sphinx writes `.. _label:` targets as an empty span at the top of their section (a `div.section`
 * before docutils 0.18, a `section` with an id after): the section is what a reader wants.
 */
function isSphinxLabelTarget(element: Element): boolean {
  const parent = domhandlerTree.parent(element);
  return element.name === 'span' && textContent(element) === '' && parent !== undefined && is(parent, SPHINX_SECTION);
}

/**
 * A glossary or citation list trimmed to one term (and the other terms it shares a definition with, dropped): a
 * copy of the list with its text between entries, of whose elements only the term and its definition are copied
 * (a glossary has hundreds of entries, each previewed).
 */
export function singleEntryList(term: Element, list: Element): Element {
  const definition = nextDefinition(term);
  const copy = list.cloneNode(false);
  for (const child of list.children) if (!isTag(child) || child === term || child === definition) appendChild(copy, child.cloneNode(true));
  return copy;
}

/** The `<dd>` that defines a `<dt>`: several terms in a row share the next definition. */
export function nextDefinition(term: Element): Element | undefined {
  for (let node = term.next; node; node = node.next) if (isTag(node) && node.name === 'dd') return node;
  return undefined;
}

function applySphinxRules(element: Element): Element {
  const node = isSphinxLabelTarget(element) ? domhandlerTree.parent(element)! : element;
  const list = domhandlerTree.parent(node);
  if (node.name !== 'dt' || list === undefined) return node;
  return is(list, SINGLE_ENTRY_LISTS) ? singleEntryList(node, list) : list;
}

/** Finds the element the Embed API v3 would return for `query`, before any rewriting. */
export function findSection(page: ParsedHtml, query: SectionQuery): Element | undefined {
  const found = query.fragment
    ? findByFragment(page, query.fragment)
    : query.maincontent
      ? selectMainContent(page, query.maincontent)
      : findMainContent(page);
  if (!found) return undefined;
  return query.doctool === 'sphinx' ? applySphinxRules(found) : found;
}

/** A copy of `element` with every link and image made absolute against `pageUrl`. */
export function withAbsoluteReferences(element: Element, pageUrl: string): Element {
  const copy = cheerioOf(element).clone().get(0)!;
  absolutizeReferences(copy, pageUrl);
  return copy;
}

/**
 * Embed API v3 extraction: the HTML of the section `query` names in the page at `pageUrl`, with links
 * and images absolute, or `null` when the page has no such section.
 */
export function extractSection(page: string | ParsedHtml, pageUrl: string, query: SectionQuery): string | null {
  const parsed = typeof page === 'string' ? parseHtml(page) : page;
  const section = findSection(parsed, query);
  return section ? toHtml(withAbsoluteReferences(section, pageUrl)) : null;
}
