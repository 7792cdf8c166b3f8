import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { removeElement } from 'domutils';
import { findMainContent as mainContentOf } from '../structure/main-content.ts';
import { PageStructure } from '../structure/page-structure.ts';
import { isPermalink } from '../structure/targets.ts';
import { findFirst, type TreeAdapter } from '../structure/tree.ts';
import { descendantsWhere, type ParsedHtml } from './parse.ts';

/** The structure detection over htmlparser2/parse5 trees. */
export const domhandlerTree: TreeAdapter<AnyNode, Element> = {
  isElement: (node): node is Element => isTag(node),
  textData: (node) => (isText(node) ? node.data : undefined),
  tagName: (element) => element.name,
  attribute: (element, name) => element.attribs[name],
  childNodes: (element) => element.children,
  parent: (element) => (element.parent && isTag(element.parent) ? element.parent : undefined),
};

/** Where a page's structure is read from: its `<body>`, else the document's root element. */
function pageRoot(page: ParsedHtml): Element | undefined {
  const { children } = page.document;
  for (const child of children) {
    const body = isTag(child) ? findFirst(domhandlerTree, child, (element) => element.name === 'body') : undefined;
    if (body) return body;
  }
  return children.find(isTag);
}

/** The structure of a parsed page, from its `<body>` (the document's root element without one). */
export function structureOf(page: ParsedHtml, pagePath = ''): PageStructure<AnyNode, Element> | undefined {
  const root = pageRoot(page);
  return root && new PageStructure(domhandlerTree, root, pagePath);
}

/**
 * The page's content: where the page marks it (`role="main"`, `<main>`, as the hosting service looks),
 * or else the region its structure shows.
 */
export function findMainContent(page: ParsedHtml): Element | undefined {
  const root = pageRoot(page);
  return root && mainContentOf(domhandlerTree, root);
}

/** Drops the permalinks in and below `root` (see `isPermalink`; `annotations`: `[source]` labels too), in place. */
export function removePermalinks(root: Element, { annotations = true }: { annotations?: boolean } = {}): void {
  for (const permalink of descendantsWhere(root, (element) => isPermalink(domhandlerTree, element, annotations))) removeElement(permalink);
}
