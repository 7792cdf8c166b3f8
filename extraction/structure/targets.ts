/**
 * What a fragment points to and what a reader reaches a heading by: empty anchors and what they label,
 * the block around a target within a line, a heading's ids, and its permalink.
 */

import { hasOwnText, hasText, hasWord, isHeadingName, percentDecoded, visibleLength, type TreeAdapter } from './tree.ts';

/** Elements that run within a line of text rather than making a block of their own. */
const PHRASING = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
]);

/** Whether an element runs within a line of text (`strong`, `a`) rather than making a block of its own. */
export const isPhrasing = (name: string): boolean => PHRASING.has(name);

/** The block a target within a line of text belongs to (`<p><span id="x">[orm]</span> …</p>` → the paragraph). */
export function enclosingBlock<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): Element {
  let block = element;
  for (let parent = tree.parent(block); PHRASING.has(tree.tagName(block)) && parent; parent = tree.parent(block)) block = parent;
  return block;
}

/** An element that only marks a place: an id or name and no text and no image (`<span id="label"></span>`). */
export function isEmptyAnchor<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): boolean {
  if (tree.attribute(element, 'id') === undefined && tree.attribute(element, 'name') === undefined) return false;
  const empty = (node: Element): boolean => {
    const children = tree.childNodes(node);
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      if (tree.isElement(child)) {
        if (tree.tagName(child) === 'img' || !empty(child)) return false;
      } else if (visibleLength(tree.textData(child) ?? '') > 0) return false;
    }
    return true;
  };
  return !isHeadingName(tree.tagName(element)) && tree.tagName(element) !== 'img' && empty(element);
}

/** The element after `element` in reading order: its next element sibling, or its parent's. */
function nextInReadingOrder<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): Element | undefined {
  for (let node: Element | undefined = element; node; node = tree.parent(node)) {
    const parent = tree.parent(node);
    if (!parent) return undefined;
    const siblings = tree.childNodes(parent);
    let seen = false;
    for (let index = 0; index < siblings.length; index++) {
      const sibling = siblings[index]!;
      if (sibling === node) seen = true;
      else if (seen && tree.isElement(sibling)) return sibling;
    }
  }
  return undefined;
}

/**
 * What an empty anchor labels: the first element after it that has text (a Sphinx label before a
 * heading labels the heading; an index target before a paragraph, the paragraph).
 */
export function labelledBy<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, anchor: Element): Element | undefined {
  const parent = tree.parent(anchor);
  if (parent && isHeadingName(tree.tagName(parent))) return parent;
  // An anchor within a line of text (an index entry's target in a paragraph) labels that paragraph.
  if (parent && hasOwnText(tree, parent)) return parent;
  let next = nextInReadingOrder(tree, anchor);
  while (next && !hasText(tree, next)) next = nextInReadingOrder(tree, next);
  return next;
}

/**
 * The heading an empty anchor follows with nothing between but other empty anchors: a target placed after a section's
 * title (Sphinx's module target, `<h1>…</h1><span id="module-x"></span><p>`) marks what the section documents, not only
 * its first paragraph. So does one after blocks of links too (a table of contents: fontTools' `subset` page) where
 * text follows it; at a section's end it labels what comes next (Astropy's `astropy-samp-performance`).
 */
export function headingBefore<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, anchor: Element): Element | undefined {
  // An anchor alone in a block stands where the block does: Python-Markdown wraps a line of raw `<a id="…"></a>` under a
  // heading in a paragraph of its own (fastify's option targets).
  let place = anchor;
  let parent = tree.parent(anchor);
  while (parent && !isHeadingName(tree.tagName(parent)) && !hasText(tree, parent)) [place, parent] = [parent, tree.parent(parent)];
  if (!parent) return undefined;
  const siblings = Array.from(tree.childNodes(parent));
  const at = siblings.indexOf(place);
  // Read only where a block of links stands between.
  const textFollows = () =>
    siblings
      .slice(at + 1)
      .some((sibling) => (tree.isElement(sibling) ? hasText(tree, sibling) : visibleLength(tree.textData(sibling) ?? '') > 0));
  let heading: Element | undefined;
  for (const sibling of siblings.slice(0, at)) {
    if (!tree.isElement(sibling)) {
      if (visibleLength(tree.textData(sibling) ?? '') > 0) heading = undefined;
    } else if (isHeadingName(tree.tagName(sibling))) heading = sibling;
    else if (!isEmptyAnchor(tree, sibling) && !(heading && isLinksOnly(tree, sibling) && textFollows())) heading = undefined;
  }
  return heading;
}

/** Whether all the text of an element that has some is links' (a table of contents). */
export function isLinksOnly<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): boolean {
  let links = 0;
  const outsideLinks = (node: Element): boolean => {
    if (tree.tagName(node) === 'a') {
      links++;
      return false;
    }
    return Array.from(tree.childNodes(node)).some((child) =>
      tree.isElement(child) ? outsideLinks(child) : visibleLength(tree.textData(child) ?? '') > 0,
    );
  };
  return !outsideLinks(element) && links > 0;
}

/**
 * The ids a reader may reach a heading by, best first: the id its own permalink points to, its own id,
 * the id of the section it opens, and the empty anchors just before it (which label it).
 */
export function headingTargets<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, heading: Element): string[] {
  const candidates: string[] = [];
  const own = tree.attribute(heading, 'id');
  if (own) candidates.push(own);
  const parent = tree.parent(heading);
  const parentId = parent && tree.attribute(parent, 'id');
  if (parentId) candidates.push(parentId);
  if (parent) {
    const siblings = tree.childNodes(parent);
    const before: string[] = [];
    for (let index = 0; index < siblings.length && siblings[index] !== heading; index++) {
      const sibling = siblings[index]!;
      if (!tree.isElement(sibling)) continue;
      if (!isEmptyAnchor(tree, sibling)) {
        before.length = 0;
        continue;
      }
      const id = tree.attribute(sibling, 'id') ?? tree.attribute(sibling, 'name');
      if (id) before.push(id);
    }
    candidates.push(...before);
  }
  const permalink = permalinkTarget(tree, heading);
  if (permalink && candidates.includes(permalink)) return [permalink, ...candidates.filter((id) => id !== permalink)];
  return candidates;
}

/** The fragment a heading's own link to itself points to (its "¶" or "#" permalink). */
function permalinkTarget<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, heading: Element): string | undefined {
  const children = tree.childNodes(heading);
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (!tree.isElement(child) || tree.tagName(child) !== 'a') continue;
    const href = tree.attribute(child, 'href') ?? '';
    if (href.startsWith('#') && href.length > 1) return percentDecoded(href.slice(1));
  }
  return undefined;
}

/** A link's label that only annotates what it sits beside: `[source]`, `[docs]`, `[edit]` (Sphinx's viewcode links, wiki edit links). */
const BRACKETED_LABEL = /^\s*\[[^[\]]{1,24}\]\s*$/;

/** The text in and below `element`. */
function textIn<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): string {
  let text = '';
  const children = tree.childNodes(element);
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    text += tree.isElement(child) ? textIn(tree, child) : (tree.textData(child) ?? '');
  }
  return text;
}

/** Blocks of running text, where a bracketed link is read: a citation ("see [ZLIB]", "[R1]"). */
const PROSE = new Set(['p', 'li', 'td', 'th', 'dd', 'blockquote', 'caption', 'figcaption']);

/**
 * A link whose label only annotates what it sits beside: `[source]`, `[docs]` (Sphinx's viewcode links), `[edit]`. Beside
 * a signature, a heading or code, not in running text, where a bracketed link is a citation (PyTables' "(see [ZLIB])"
 * read "(see )"), nor alone, where it is a term's own label (a bibliography's `[ZLIB]`).
 */
export function isAnnotationLink<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): boolean {
  if (tree.tagName(element) !== 'a' || (tree.attribute(element, 'href') ?? '') === '') return false;
  const label = textIn(tree, element);
  if (!BRACKETED_LABEL.test(label)) return false;
  const block = enclosingBlock(tree, element);
  return !PROSE.has(tree.tagName(block)) && visibleLength(textIn(tree, block)) > visibleLength(label);
}

/**
 * A link that is a mark beside the text rather than text: a "¶", "#" or icon permalink, a "↩"
 * back-reference (a place in a page, no word), or (`annotations`) a bracketed label such as `[source]` or
 * `[docs]` and a footnote's numbered back-references (see `isBackReferences`), which the hosting service's search
 * keeps in titles as written. Noise wherever a section's text or title is read.
 */
export function isPermalink<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element, annotations = true): boolean {
  if (tree.tagName(element) !== 'a') return annotations && isBackReferences(tree, element);
  if (/#./.test(tree.attribute(element, 'href') ?? '') && !hasWord(tree, element)) return true;
  return annotations && isAnnotationLink(tree, element);
}

/**
 * The places a footnote or citation is cited from, after its label: "(1,2,3)", numbered links into the page in
 * parentheses (docutils writes them so). Read as text, MDAnalysis' citation "Maginn2018" was titled "Maginn2018(1,2,3)".
 */
function isBackReferences<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): boolean {
  if (tree.tagName(element) !== 'span') return false;
  const children = tree.childNodes(element);
  let links = 0;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (!tree.isElement(child)) {
      if (!/^[\s(),]*$/.test(tree.textData(child) ?? '')) return false;
    } else if (tree.tagName(child) === 'a' && /^#./.test(tree.attribute(child, 'href') ?? '') && /^\s*\d+\s*$/.test(textIn(tree, child)))
      links++;
    else return false;
  }
  return links > 0 && /^\s*\(/.test(textIn(tree, element));
}

/** A heading inside a `<header>` belongs to the header: the section's content follows the header. */
export function headingContainer<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, heading: Element): Element {
  const parent = tree.parent(heading);
  return parent && tree.tagName(parent) === 'header' ? parent : heading;
}
