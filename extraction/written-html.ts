import { type AnyNode, type Element, hasChildren, isTag, isText } from 'domhandler';
import { removeElement } from 'domutils';
import { escapeAttribute, escapeText } from 'entities';
import { withAbsoluteReferences } from './find-section.ts';
import { absolutize, absolutizeSrcset } from './html/links.ts';
import { toHtml } from './html/parse.ts';
import { DomhandlerTree, removePermalinks, removeStyles } from './html/structure.ts';
import { isPermalink } from './structure/targets.ts';

/**
 * A copy of a page's element as a preview writes it: links absolute against `pageUrl`, permalinks
 * (see `isPermalink`), `style` attributes and the elements in `leftOut` dropped below it.
 */
function writtenCopy(element: Element, pageUrl: string, leftOut: ReadonlySet<Element>): Element {
  const copy = withAbsoluteReferences(element, pageUrl);
  if (leftOut.size > 0) for (const inner of counterparts(element, copy, leftOut)) removeElement(inner);
  removePermalinks(copy);
  removeStyles(copy);
  return copy;
}

/** The nodes of `copy` (a copy of `original`) that stand where those of `wanted` stand in `original`. */
function counterparts(original: AnyNode, copy: AnyNode, wanted: ReadonlySet<AnyNode>, found: Element[] = []): Element[] {
  if (wanted.has(original) && isTag(copy)) found.push(copy);
  else if (hasChildren(original) && hasChildren(copy))
    for (const [index, child] of original.children.entries()) counterparts(child, copy.children[index]!, wanted, found);
  return found;
}

/** Elements whose text dom-serializer writes as it is (its `unencodedElements`). */
const RAW_TEXT = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);
/** Elements dom-serializer writes without an end tag (its `singleTag`). */
const NO_END_TAG = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(' '),
);
/** Where dom-serializer switches to its foreign (XML-like) mode: such an element is written from its copy. */
const FOREIGN = new Set(['svg', 'math']);

/**
 * `toHtml(writtenCopy(element, pageUrl, leftOut))` without the copy (`written`: the page's tree read with links
 * absolute against `pageUrl`, whose links the caller may have read already): the HTML dom-serializer writes of the copy
 * (with cheerio's `encodeEntities: 'utf8'`), written straight from the page's tree, links made absolute
 * and permalinks and `style` attributes left out as it goes. A preview writes a few blocks of a page, and copying each first
 * cost more than writing it. SVG and MathML, which dom-serializer writes in a mode of their own, are
 * written from their copy.
 */
export function writtenHtml(
  element: Element,
  pageUrl: string,
  leftOut: ReadonlySet<Element> = new Set(),
  written = new DomhandlerTree(pageUrl),
): string {
  const tag = (inner: Element): string => {
    if (FOREIGN.has(inner.name)) return toHtml(writtenCopy(inner, pageUrl, leftOut));
    let html = `<${inner.name}`;
    const attributes = writtenAttributes(inner, pageUrl, written);
    if (attributes) html += ` ${attributes}`;
    html += '>';
    for (const child of inner.children) {
      if (isTag(child)) {
        if (!leftOut.has(child) && !isPermalink(written, child)) html += tag(child);
      } else if (isText(child)) html += RAW_TEXT.has(inner.name) ? child.data : escapeText(child.data);
      // Comments and the like hold no links.
      else html += toHtml(child);
    }
    return NO_END_TAG.has(inner.name) ? html : `${html}</${inner.name}>`;
  };
  return tag(element);
}

/**
 * An element's attributes as dom-serializer writes them, of the copy: `href`, `src` and `srcset` absolute as
 * `absolutizeReferences` makes them (`written` reads links so), no `style`.
 */
function writtenAttributes(element: Element, pageUrl: string, written: DomhandlerTree): string {
  const { name, attribs } = element;
  let html = '';
  let first = true;
  for (const key of Object.keys(attribs)) {
    if (key === 'style') continue;
    let value = attribs[key] ?? '';
    if (name === 'a' && key === 'href') value = written.attribute(element, key) ?? '';
    else if (name === 'img' && key === 'src') value = absolutize(value, pageUrl);
    else if (name === 'img' && key === 'srcset') value = absolutizeSrcset(value, pageUrl);
    if (!first) html += ' ';
    first = false;
    html += value === '' ? key : `${key}="${escapeAttribute(value)}"`;
  }
  return html;
}
