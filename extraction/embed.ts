import { selectOne } from 'css-select';
import render from 'dom-serializer';
import { cloneNode, isTag, type AnyNode, type Element } from 'domhandler';
import { absolutizeReferences } from './html/links.ts';
import { hasClass, nextElementSibling, parseHtml, textOf, type ParsedHtml } from './html/parse.ts';
import { findMainContent } from './html/structure.ts';
import { simpleSelector } from './selector.ts';
import { percentDecoded } from './structure/tree.ts';

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
  return selectOne<AnyNode, Element>(simple, page.document) ?? undefined;
}

/**
 * Sphinx writes `.. _label:` targets as an empty span at the top of their section (a `div.section`
 * before docutils 0.18, a `section` with an id after): the section is what a reader wants.
 */
function isSphinxLabelTarget(element: Element): boolean {
  const parent = element.parent;
  if (element.name !== 'span' || textOf(element) !== '' || !parent || !isTag(parent)) return false;
  return (parent.name === 'div' && hasClass(parent, 'section')) || (parent.name === 'section' && Boolean(parent.attribs.id));
}

/** A glossary or citation list trimmed to one term (and the other terms it shares a definition with, dropped). */
export function singleEntryList(term: Element, list: Element): Element {
  const definition = nextDefinition(term);
  const copy = cloneNode(list, true);
  const keep = new Set([list.children.indexOf(term), definition ? list.children.indexOf(definition) : -1]);
  copy.children = copy.children.filter((child, index) => !isTag(child) || keep.has(index));
  copy.children.forEach((child, index, children) => {
    child.prev = children[index - 1] ?? null;
    child.next = children[index + 1] ?? null;
  });
  return copy;
}

/** The `<dd>` that defines a `<dt>`: several terms in a row share the next definition. */
export function nextDefinition(term: Element): Element | undefined {
  for (let next = nextElementSibling(term); next; next = nextElementSibling(next)) {
    if (next.name === 'dd') return next;
  }
  return undefined;
}

function applySphinxRules(element: Element): Element {
  let node = element;
  if (isSphinxLabelTarget(node) && node.parent && isTag(node.parent)) node = node.parent;
  const list = node.parent;
  if (node.name === 'dt' && list && isTag(list)) {
    return hasClass(list, 'glossary') || hasClass(list, 'citation') ? singleEntryList(node, list) : list;
  }
  return node;
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

/** Serializes an element as HTML, leaving non-ASCII text as it is. */
export function toHtml(element: Element): string {
  return render(element, { encodeEntities: 'utf8' });
}

/** A copy of `element` with every link and image made absolute against `pageUrl`. */
export function withAbsoluteReferences(element: Element, pageUrl: string): Element {
  const copy = cloneNode(element, true);
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
