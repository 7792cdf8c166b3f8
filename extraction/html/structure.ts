import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { PageStructure, type TreeAdapter } from '../structure/page-structure.ts';
import { findFirst, type ParsedHtml } from './parse.ts';

/** The structure detection over htmlparser2/parse5 trees. */
export const domhandlerTree: TreeAdapter<AnyNode, Element> = {
  isElement: (node): node is Element => isTag(node),
  textData: (node) => (isText(node) ? node.data : undefined),
  tagName: (element) => element.name,
  attribute: (element, name) => element.attribs[name],
  childNodes: (element) => element.children,
  parent: (element) => (element.parent && isTag(element.parent) ? element.parent : undefined),
};

/** The structure of a parsed page, from its `<body>` (the document's root element without one). */
export function structureOf(page: ParsedHtml, pagePath = ''): PageStructure<AnyNode, Element> | undefined {
  const root = findFirst(page.document, (element) => element.name === 'body') ?? findFirst(page.document, () => true);
  return root && new PageStructure(domhandlerTree, root, pagePath);
}

/** The content a page marks as main itself (`role="main"`, then `<main>`), as the hosting service looks for it. */
export function explicitMainContent(page: ParsedHtml): Element | undefined {
  return findFirst(page.document, (element) => element.attribs.role === 'main') ?? findFirst(page.document, (element) => element.name === 'main');
}
