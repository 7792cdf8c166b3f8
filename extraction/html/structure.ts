import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { removeElement } from 'domutils';
import { findMainContent as mainContentOf } from '../structure/main-content.ts';
import { PageStructure } from '../structure/page-structure.ts';
import { isPermalink } from '../structure/targets.ts';
import { findFirst, type TreeAdapter } from '../structure/tree.ts';
import { absolutize } from './links.ts';
import { descendants, descendantsWhere, type ParsedHtml } from './parse.ts';

/**
 * The structure detection over htmlparser2/parse5 trees: as they are, or as a copy of them would read
 * (what a preview writes) without making it: links absolute against `linksAgainst` (as `absolutize`
 * makes them), the elements `leavesOut` picks as if removed. One class for both, so that the
 * detection's calls see one kind of tree and stay compiled for it.
 */
export class DomhandlerTree implements TreeAdapter<AnyNode, Element> {
  /**
   * @param absolute links' `href`s made absolute, by link (a link is read several times), shared by the trees
   *   `leaving` makes
   */
  constructor(
    readonly linksAgainst?: string,
    private readonly leavesOut?: (element: Element) => boolean,
    private readonly absolute = new Map<Element, string>(),
  ) {}

  /** The same tree, the elements `leavesOut` picks left out. */
  leaving(leavesOut: (element: Element) => boolean): DomhandlerTree {
    return new DomhandlerTree(this.linksAgainst, leavesOut, this.absolute);
  }

  isElement(node: AnyNode): node is Element {
    return isTag(node);
  }

  textData(node: AnyNode): string | undefined {
    return isText(node) ? node.data : undefined;
  }

  tagName(element: Element): string {
    return element.name;
  }

  attribute(element: Element, name: string): string | undefined {
    const value = element.attribs[name];
    if (this.linksAgainst === undefined || name !== 'href' || element.name !== 'a' || value === undefined) return value;
    let absolute = this.absolute.get(element);
    if (absolute === undefined) {
      absolute = absolutize(value, this.linksAgainst);
      this.absolute.set(element, absolute);
    }
    return absolute;
  }

  childNodes(element: Element): AnyNode[] {
    const { children } = element;
    const { leavesOut } = this;
    if (!leavesOut) return children;
    // A loop, not `some`: the structure's measure asks this of every element.
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      if (isTag(child) && leavesOut(child)) return children.filter((node) => !isTag(node) || !leavesOut(node));
    }
    return children;
  }

  parent(element: Element): Element | undefined {
    const { parent } = element;
    return parent && isTag(parent) ? parent : undefined;
  }
}

/** The structure detection over htmlparser2/parse5 trees as they are. */
export const domhandlerTree = new DomhandlerTree();

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

/**
 * Drops the `style` attributes of `root` and below, in place: a preview shows in the reader's page, whose strict
 * `style-src` reports each one as the widget parses the preview (which leaves them out anyway).
 */
export function removeStyles(root: Element): void {
  for (const element of [root, ...descendants(root)]) delete element.attribs.style;
}

/** Drops the permalinks in and below `root` (see `isPermalink`; `annotations`: `[source]` labels too), in place. */
export function removePermalinks(root: Element, { annotations = true }: { annotations?: boolean } = {}): void {
  for (const permalink of descendantsWhere(root, (element) => isPermalink(domhandlerTree, element, annotations))) removeElement(permalink);
}
