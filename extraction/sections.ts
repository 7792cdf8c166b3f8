import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { removeElement } from 'domutils';
import { nextDefinition } from './find-section.ts';
import { refreshContent } from './html/refresh.ts';
import { classList, descendants, descendantsWhere, type HtmlSource, parseContent, textOf, type ParsedHtml } from './html/parse.ts';
import { domhandlerTree, structureOf } from './html/structure.ts';
import { findMainContent } from './structure/main-content.ts';
import type { PageStructure } from './structure/page-structure.ts';
import type { PageSection, SplitPage } from './structure/split-page.ts';
import { headingContainer, headingTargets, isAnnotationLink, isPermalink } from './structure/targets.ts';
import { INVISIBLE, isHeadingName } from './structure/tree.ts';
import { titleParts } from './words/title-parts.ts';

/** Same cap as the hosting service's search index. */
const MAX_SECTIONS = 10_000;

/** Elements a browser lays out on lines of their own: in section text they never run into their neighbours. */
const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'canvas',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'noscript',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tfoot',
  'ul',
  'video',
]);

/** Sphinx domains whose `<dl class="DOMAIN OBJTYPE">` entries are indexed as documented objects. */
const SPHINX_DOMAINS = new Set(['py', 'c', 'cpp', 'js', 'rst', 'std', 'http', 'rb', 'php', 'go', 'dotnet', 'erl']);

/**
 * Runs of white space to collapse: two characters or more, or one that is not a space. A single space is left
 * as it is rather than replaced by itself: texts normalized already (a section's inner parts) pass through unchanged,
 * four to ten times faster than replacing every run.
 */
const SPACE_TO_COLLAPSE = /\s\s+|[^\S ]/g;

/** Whitespace runs (including non-breaking spaces) collapse to one space, as in the index. */
export function normalizeSpace(text: string): string {
  return text.replace(SPACE_TO_COLLAPSE, ' ').trim();
}

function isHeading(node: AnyNode): boolean {
  return isTag(node) && isHeadingName(node.name);
}

function isSectionStart(node: AnyNode): boolean {
  return isHeading(node) || (isTag(node) && node.name === 'header');
}

const removeElements = (elements: readonly Element[]) => {
  for (const element of elements) removeElement(element);
};

/** Classes of line numbers of code blocks (Pygments' table and inline forms). */
const LINE_NUMBERS = new Set(['linenos', 'lineno']);

/**
 * Navigation, tables of contents, line numbers and what shows no text (a stylesheet or a script in the content: Django
 * REST framework's release notes open with a `<style>`): what `removeNoise` drops besides permalinks.
 */
function isNoise(element: Element): boolean {
  if (INVISIBLE.has(element.name)) return true;
  const role = element.attribs.role;
  if (element.name === 'nav' || role === 'navigation' || role === 'search') return true;
  const classes = element.attribs.class;
  // The attribute searched before it is split: most elements with a class are none of these, and every element is tested.
  if (classes === undefined || !(classes.includes('toctree-wrapper') || classes.includes('lineno'))) return false;
  return classList(element).some((name) => name === 'toctree-wrapper' || LINE_NUMBERS.has(name));
}

/**
 * What splitting reads of a page's content, found in one walk over it, in document order, before any of it is
 * removed (three walks took a tenth of the splitting): those removed later are passed over where they were.
 */
interface ContentElements {
  /**
   * Navigation, permalinks and line numbers, which say nothing about the page: removed before indexing. The
   * hosting service's search keeps viewcode labels (`[source]`) in section titles (the conformance cases):
   * searchable sections keep them as it does; previews drop them. In text they are noise (a nested signature's
   * `[source]` opened fontTools' excerpts).
   */
  noise: Element[];
  /** Definition lists, whose terms with ids are sections of their own. */
  lists: Element[];
  headings: Element[];
}

/** The elements below `root` that splitting reads (see `ContentElements`). */
function contentElements(root: Element): ContentElements {
  const found: ContentElements = { noise: [], lists: [], headings: [] };
  for (const element of descendants(root)) {
    if (isNoise(element) || isPermalink(domhandlerTree, element, false) || (isAnnotationLink(domhandlerTree, element) && isInText(element)))
      found.noise.push(element);
    if (element.name === 'dl') found.lists.push(element);
    else if (isHeadingName(element.name)) found.headings.push(element);
  }
  return found;
}

/** Whether an element is in a section's text, not in what titles a section (a heading, a term indexed as a section). */
function isInText(element: Element): boolean {
  for (let node = element.parent; node && isTag(node); node = node.parent)
    if (isHeadingName(node.name) || node.name === 'dt') return node.name === 'dt' && !isIndexedTerm(node);
  return true;
}

/** Of `elements`, those still below `root` (not removed, nor inside an element removed). */
function stillIn(root: Element, elements: readonly Element[]): Element[] {
  return elements.filter((element) => {
    for (let node: Element | null = element; node; node = node.parent as Element | null) if (node === root) return true;
    return false;
  });
}

/** A code block (a `highlight…` class around a `<pre>`): its text, or undefined for any other node. */
function codeBlockText(node: AnyNode): string | undefined {
  if (!isTag(node) || !node.attribs.class?.includes('highlight') || !classList(node).some((name) => name.startsWith('highlight')))
    return undefined;
  const pres = descendantsWhere(node, (element) => element.name === 'pre');
  // Line numbers went with the rest of the noise (`removeNoise`).
  return pres.length === 0 ? undefined : pres.map((pre) => normalizeSpace(textOf(pre).replace(/^\n+|\n+$/g, ''))).join(' ');
}

/**
 * A section's text twice: as the hosting service indexes it (`content`: the blocks inside a top-level
 * block run together, as the conformance cases want) and as a reader sees it (`text`: blocks apart).
 */
interface SectionTexts {
  content: string;
  text: string;
}

const bothTexts = (text: string): SectionTexts => ({ content: text, text });

/**
 * The texts from `start` up to the next heading. With depth left, the search for that heading goes
 * into children, so a section that closes inside a wrapper still ends there.
 */
function contentUntilNextSection(start: AnyNode | null, depth: number): SectionTexts & { reachedSection: boolean } {
  const contents: string[] = [];
  const texts: string[] = [];
  let reachedSection = false;
  for (let node = start; node; node = node.next) {
    if (isSectionStart(node)) {
      reachedSection = true;
      break;
    }
    const code = codeBlockText(node);
    let part: SectionTexts;
    if (code !== undefined) {
      part = bothTexts(code);
    } else if (depth <= 0 || !('children' in node) || node.children.length === 0) {
      part = readableTexts(node);
    } else {
      const inner = contentUntilNextSection(node.children[0] ?? null, depth - 1);
      part = inner;
      reachedSection = inner.reachedSection;
    }
    const apart = isTag(node) && BLOCK_ELEMENTS.has(node.name);
    if (part.content) contents.push(apart ? ` ${part.content} ` : part.content);
    if (part.text) texts.push(apart ? ` ${part.text} ` : part.text);
    if (reachedSection) break;
  }
  return { content: normalizeSpace(contents.join('')), text: normalizeSpace(texts.join('')), reachedSection };
}

function domainRole(list: Element): string | undefined {
  const classes = classList(list);
  if (classes.includes('glossary')) return 'std:term';
  const [domain, objectType] = classes;
  return domain && objectType && SPHINX_DOMAINS.has(domain) ? `${domain}:${objectType}` : undefined;
}

/** Texts of a definition without the nested terms that are indexed on their own. */
function definitionTexts(definition: Element): SectionTexts {
  const skipped = new Set<Element>();
  for (const element of descendants(definition)) {
    const list = element.parent;
    if (!isIndexedTerm(element) || !list || !isTag(list) || list.name !== 'dl') continue;
    skipped.add(element);
    const nested = nextDefinition(element);
    if (nested) skipped.add(nested);
  }
  const { content, text } = readableTexts(definition, skipped);
  return { content: normalizeSpace(content), text: normalizeSpace(text) };
}

/**
 * Elements that are no blocks but stand apart from their neighbours on screen: table cells (a field
 * list's name and body, in Sphinx's older HTML), line breaks.
 */
const APART = new Set(['td', 'th', 'caption', 'br']);

/** A letter, digit or underscore at the end of a text, and at the start of one: where two texts would run into one word. */
const WORD_END = /[\p{L}\p{N}_]$/u;
const WORD_START = /^[\p{L}\p{N}_]/u;

/**
 * A node's texts (see `SectionTexts`), `skipped` elements left out. The hosting service's runs its
 * elements together. The reader's sets blocks (paragraphs, list items, a definition's term and its
 * description) and table cells apart from their neighbours, and in a definition's term each element
 * apart from the one before where their words would run together: a term's parts (numpydoc's parameter
 * `<strong>columns</strong>` and its type `<span class="classifier">str</span>`) are set apart on
 * screen by the stylesheet (" : "), not by the text.
 */
function readableTexts(node: AnyNode, skipped: ReadonlySet<Element> = new Set()): SectionTexts {
  if (isText(node)) return bothTexts(node.data);
  if (!('children' in node)) return bothTexts('');
  const term = isTag(node) && node.name === 'dt';
  let content = '';
  let text = '';
  for (const child of node.children) {
    if (isTag(child) && skipped.has(child)) continue;
    const part = readableTexts(child, skipped);
    content += part.content;
    if (isTag(child) && (BLOCK_ELEMENTS.has(child.name) || APART.has(child.name))) text += ` ${part.text} `;
    else if (term && isTag(child) && WORD_END.test(text) && WORD_START.test(part.text)) text += ` ${part.text}`;
    else text += part.text;
  }
  // A field list's label ("Parameters") ends with a colon on screen, written or left to the stylesheet (older Sphinx).
  if (term && fieldLabel(node) && !/:\s*$/.test(text)) text = `${text.trimEnd()}:`;
  return { content, text };
}

/** Whether a term is a field list's label (docutils' `dl.field-list > dt`: "Parameters", "Returns"). */
const fieldLabel = (term: Element): boolean => !!term.parent && isTag(term.parent) && classList(term.parent).includes('field-list');

/** A term of a definition list with an id (`<dt id="…">`): a section of its own once it has a definition. */
function isIndexedTerm(element: Element): boolean {
  return element.name === 'dt' && Boolean(element.attribs.id);
}

/** Every `<dt id>` with a definition is a section of its own (glossary terms, API entries, options). */
function* definitionSections(lists: readonly Element[], indexed: Element[]): Generator<PageSection> {
  for (const list of lists) {
    const role = domainRole(list);
    for (const term of list.children) {
      if (!isTag(term) || !isIndexedTerm(term)) continue;
      const definition = nextDefinition(term);
      if (!definition) continue;
      indexed.push(term, definition);
      const section: PageSection = {
        id: term.attribs.id!,
        title: normalizeSpace(textOf(term)),
        ...definitionTexts(definition),
      };
      if (role) section.role = role;
      yield section;
    }
  }
}

/** The id a search hit links to: the heading's own, else the one its permalink or the page's links use. */
function headingId(heading: Element, structure: PageStructure<AnyNode, Element>): string {
  const targets = headingTargets(domhandlerTree, heading);
  return heading.attribs.id || targets.find((id) => structure.isLinkedId(id)) || targets[0] || '';
}

function headingSection(heading: Element, structure: PageStructure<AnyNode, Element>): PageSection {
  const { content, text } = contentUntilNextSection(headingContainer(domhandlerTree, heading).next, 2);
  return { id: headingId(heading, structure), title: normalizeSpace(textOf(heading)), content, text };
}

/** The sections of `root`, whose noise is removed, with `lists` and `headings` still in it (see `ContentElements`). */
function* allSections(
  root: Element,
  { lists, headings: headingsBefore }: ContentElements,
  pageTitle: string,
  structure: PageStructure<AnyNode, Element>,
): Generator<PageSection> {
  const indexed: Element[] = [];
  yield* definitionSections(lists, indexed);
  // Definitions are indexed already: keep them out of the sections around them.
  removeElements(indexed);
  const { content, text } = contentUntilNextSection(root.children[0] ?? null, 8);
  if (content) yield { id: '', title: pageTitle, content, text };
  const headings = stillIn(root, headingsBefore);
  for (const level of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']) {
    for (const heading of headings) if (heading.name === level) yield headingSection(heading, structure);
  }
}

/**
 * A page that forwards the reader (`<meta http-equiv="refresh">`). Robots' `noindex` says nothing of
 * the kind: whole sites carry it (development builds kept out of web search).
 */
const sendsElsewhere = (heads: readonly Element[]): boolean => refreshContent(heads) !== undefined;

/** The page's first `<title>` and its `<head>`s, in one walk over the tree (what selectors would find in several). */
function headOf(page: ParsedHtml): { title: Element | undefined; heads: Element[] } {
  let title: Element | undefined;
  const heads: Element[] = [];
  for (const element of descendants(page.document)) {
    if (element.name === 'title') title ??= element;
    else if (element.name === 'head') heads.push(element);
  }
  return { title, heads };
}

/**
 * The first `<h1>` of the content that names this page (not a site name linking elsewhere); else the
 * `<title>` (the host drops the site's name from it, once it knows the site's titles). `headings`: the content's, in document order.
 */
function pageTitleOf(
  root: Element,
  headings: readonly Element[],
  structure: PageStructure<AnyNode, Element>,
  documentTitle: string,
): { title: string; name: string } | undefined {
  const heading = headings.find((element) => element.name === 'h1' && !structure.isLinkToOtherPage(element));
  if (heading) {
    const name = normalizeSpace(textOf(heading));
    const page = pageNamedBesideSite(heading, name, documentTitle);
    if (page) return { title: page, name: page };
    return { title: qualifiedName(root, heading, name) ?? name, name };
  }
  return documentTitle ? { title: documentTitle, name: documentTitle } : undefined;
}

/**
 * The page's name in its `<title>`, where its `<h1>` names the site instead: a banner that no link can lead to (no id,
 * no section's), saying words of the title's site part and not of its page part (fastify's Markdown opens every page
 * with `<h1 align="center">Fastify</h1>`: 34 of 42 results read "Fastify"). A heading a link leads to is the page's.
 */
function pageNamedBesideSite(heading: Element, name: string, documentTitle: string): string | undefined {
  const { page, site } = titleParts(documentTitle);
  if (!page || !site || headingTargets(domhandlerTree, heading).length > 0) return undefined;
  const says = (part: string) => part.toLowerCase().includes(name.toLowerCase());
  return !says(page) && says(site) ? page : undefined;
}

/**
 * A reference page headed by an object's short name (`Column`) and opening with its definition
 * (`<dt id="astropy.table.Column">`) is about that object: its full name tells it from the other
 * `Column`s of the site. A page that tells of the thing first (ezdxf's "Hatch", the DXF entity, then
 * its class) keeps the title the reader sees.
 */
function qualifiedName(root: Element, heading: Element, name: string): string | undefined {
  let afterHeading = false;
  for (const element of descendants(root)) {
    if (element === heading) afterHeading = true;
    else if (afterHeading && (isHeading(element) || (element.name === 'p' && textOf(element).trim()))) return undefined;
    else if (afterHeading && element.name === 'dt' && element.attribs.id) {
      return element.attribs.id.endsWith(`.${name}`) ? element.attribs.id : undefined;
    }
  }
  return undefined;
}

/**
 * Splits a page into searchable sections the way the hosting service's indexer does: definition
 * terms with ids, the content before the first heading, then every heading (all `h1`s, then all `h2`s…)
 * with the text up to the next one. Where the page marks no main content, its structure says where it is.
 */
export function splitSections(html: HtmlSource, path: string): SplitPage {
  return splitParsed(parseContent(html), path);
}

/** `splitSections` of a page parsed by `parseContent`, whose tree it changes (noise is removed from it). */
export function splitParsed(page: ParsedHtml, path: string): SplitPage {
  const structure = structureOf(page, path);
  const head = headOf(page);
  const documentTitle = head.title ? normalizeSpace(textOf(head.title)) : '';
  if (!structure)
    return { title: documentTitle || path, name: documentTitle || path, sections: [], kind: 'content', documentTitle, entryShare: 0 };
  // Where indexing starts: the main role, `<main>`, or the region the structure detection finds.
  const root = findMainContent(domhandlerTree, structure.root, { structure });
  const entryShare = structure.entryShare(root);
  removeElements(structure.furnitureIn(root));
  const found = contentElements(root);
  removeElements(found.noise);
  const content: ContentElements = { ...found, lists: stillIn(root, found.lists), headings: stillIn(root, found.headings) };
  const { title, name } = pageTitleOf(root, content.headings, structure, documentTitle) ?? { title: path, name: path };
  const sections: PageSection[] = [];
  for (const section of allSections(root, content, name, structure)) {
    sections.push(section);
    if (sections.length >= MAX_SECTIONS) break;
  }
  return { title, name, sections, kind: sendsElsewhere(head.heads) ? 'redirect' : structure.kind(), documentTitle, entryShare };
}
