/**
 * How the structure detection reads a tree, and the small questions it asks of any element. The proxy
 * and the docs host read domhandler trees, the widget the browser's DOM, each through an adapter.
 */

/** How the detection reads a tree. `Element` is a subtype of `Node` in both trees it serves. */
export interface TreeAdapter<Node, Element extends Node> {
  isElement(node: Node): node is Element;
  /** The data of a text node; undefined for anything else. */
  textData(node: Node): string | undefined;
  /** Lower-case tag name. */
  tagName(element: Element): string;
  attribute(element: Element, name: string): string | undefined;
  childNodes(element: Element): ArrayLike<Node>;
  parent(element: Element): Element | undefined;
}

const HEADING = /^h[1-6]$/;

/** 1 for `h1` … 6 for `h6`; 0 for anything that is not a heading. */
export const headingRank = (name: string): number => (HEADING.test(name) ? Number(name[1]) : 0);

/** Whether a tag name is a heading's (`h1` … `h6`). */
export const isHeadingName = (name: string): boolean => HEADING.test(name);

/** Elements that never show text to a reader. */
export const INVISIBLE = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'svg',
  'math',
  'iframe',
  'object',
  'select',
  'datalist',
]);

/** Characters of `text` that are not white space. */
export function visibleLength(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code > 32 && code !== 160) count++;
  }
  return count;
}

/** A URL part (a fragment, a path segment) percent-decoded as a browser shows it; as written when it does not decode. */
export function percentDecoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The first element in and below `root` (in document order, `root` first) that passes `test`. */
export function findFirst<Node, Element extends Node>(
  tree: TreeAdapter<Node, Element>,
  root: Element,
  test: (element: Element) => boolean,
): Element | undefined {
  const stack: Element[] = [root];
  for (let element = stack.pop(); element; element = stack.pop()) {
    if (test(element)) return element;
    const children = tree.childNodes(element);
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index]!;
      if (tree.isElement(child)) stack.push(child);
    }
  }
  return undefined;
}

/** Whether any text shows below `element` (a short look: it stops at the first character). */
export function hasText<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): boolean {
  if (INVISIBLE.has(tree.tagName(element))) return false;
  const children = tree.childNodes(element);
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (tree.isElement(child) ? hasText(tree, child) : visibleLength(tree.textData(child) ?? '') > 0) return true;
  }
  return false;
}

/** Whether text shows straight in `element`, not only in its children. */
export function hasOwnText<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): boolean {
  const children = tree.childNodes(element);
  for (let index = 0; index < children.length; index++) if (visibleLength(tree.textData(children[index]!) ?? '') > 0) return true;
  return false;
}

/** Whether any text below `element`, shown or not, holds a letter or a digit. */
export function hasWord<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, element: Element): boolean {
  const children = tree.childNodes(element);
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (tree.isElement(child) ? hasWord(tree, child) : /[\p{L}\p{N}]/u.test(tree.textData(child) ?? '')) return true;
  }
  return false;
}
