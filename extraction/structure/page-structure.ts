/**
 * Page structure from what HTML means, for any tree: the proxy and the docs host run it over domhandler
 * trees, the widget over the browser's DOM, each through a small adapter. Landmarks, headings, links
 * and the amount of text decide; class names of themes never do.
 */

import { marksMain, opensSectioning, surroundsContent } from './surroundings.ts';
import { findFirst, hasText, headingRank, INVISIBLE, percentDecoded, visibleLength, type TreeAdapter } from './tree.ts';

/**
 * What a page is, for a search index: generated indexes, search pages and pages that only send the
 * reader elsewhere are not content.
 */
export type PageKind = 'content' | 'index' | 'search' | 'redirect';

interface Measure {
  /** Visible characters below the element, white space not counted. */
  text: number;
  /** Of those, characters inside links. */
  linkText: number;
  /** Characters of text outside links: what a reader reads rather than clicks. */
  prose: number;
  /** Prose of list items, table rows and terms that are links with a short note: entries of an index. */
  listedProse: number;
  /** Headings below the element (with itself) that are not just a link. */
  headings: number;
  /** Whether the element's first visible text is a link to another page. */
  ledByLink: boolean;
  /** Text of list items, table rows and terms led by a link to another page: entries of an overview, whatever their notes. */
  entryText: number;
}

const emptyMeasure = (): Measure => ({ text: 0, linkText: 0, prose: 0, listedProse: 0, headings: 0, ledByLink: false, entryText: 0 });

/** Blocks the region search does not descend into: their children are the content's own parts. */
const LEAF_BLOCKS = new Set([
  'p',
  'pre',
  'table',
  'ul',
  'ol',
  'dl',
  'blockquote',
  'figure',
  'form',
  'details',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
/** Prose (characters outside links) of a block after the page's text that may still be furniture: a copyright line, "Built with…". */
const FURNITURE_PROSE = 200;
/** How many characters of links a menu has for each of prose (its labels: "Menu", a group's name). */
const MENU_LINKS_PER_PROSE = 4;
/** Where an index lists its entries. */
const ENTRIES = new Set(['li', 'tr', 'dt']);

/** The page's URL, against which its links resolve. */
function pageUrl(pagePath: string): URL | undefined {
  try {
    return new URL(pagePath.replace(/^\/*/, '/'), 'http://page.invalid');
  } catch {
    return undefined;
  }
}

/** The path of `reference` resolved against the page's URL, with `index.html` and a trailing slash alike. */
function resolvedPath(reference: string, page: URL | undefined): string | undefined {
  if (!page) return undefined;
  try {
    return new URL(reference, page).pathname.replace(/\/index\.html?$/, '/');
  } catch {
    return undefined;
  }
}

/**
 * The structure of one page (or one fragment of it). Text is measured in one pass when the structure
 * is built; every question after that is answered from the measures, without walking subtrees again.
 */
export class PageStructure<Node, Element extends Node> {
  private readonly measures = new Map<Element, Measure>();
  /** Elements around the content (navigation, sidebars, banners…), whose text is not the page's. */
  private readonly around = new Set<Element>();
  /** Every element outside those, in document order. */
  private readonly order: Element[] = [];
  /** Fragments that links on the page point to (`#id` and `page.html#id` of this page). */
  private readonly linkedIds = new Set<string>();
  private region?: Element;
  /** How many landmarks around the content (navigation, sidebars…) the tree holds. */
  private landmarks = 0;
  /** The page's URL and its own path as links resolve (worked out once: pages have thousands of links). */
  private readonly url: URL | undefined;
  private readonly ownPath: string | undefined;

  /**
   * @param root the document's root element (or a fragment's root)
   * @param pagePath the page's path, to tell links to this page from links to others
   */
  constructor(
    private readonly tree: TreeAdapter<Node, Element>,
    readonly root: Element,
    private readonly pagePath = '',
  ) {
    this.url = pagePath ? pageUrl(pagePath) : undefined;
    this.ownPath = resolvedPath(pagePath, this.url);
    this.measure(root, false, false, false);
  }

  private measure(element: Element, inLink: boolean, inSectioning: boolean, inLinkElsewhere: boolean): Measure {
    const { tree } = this;
    const name = tree.tagName(element);
    const measure = emptyMeasure();
    this.measures.set(element, measure);
    if (INVISIBLE.has(name) || tree.attribute(element, 'hidden') !== undefined || tree.attribute(element, 'aria-hidden') === 'true') {
      this.around.add(element);
      return measure;
    }
    const role = tree.attribute(element, 'role');
    const isAround = element !== this.root && surroundsContent(name, role, inSectioning);
    if (isAround) {
      this.around.add(element);
      this.landmarks++;
    } else this.order.push(element);
    const href = name === 'a' ? tree.attribute(element, 'href') : undefined;
    const isLink = href !== undefined;
    // Resolved once: pages have thousands of links.
    const elsewhere = isLink && this.leadsElsewhere(href);
    if (isLink && !elsewhere) this.noteOwnFragment(href);
    const childInLink = inLink || isLink;
    const childInLinkElsewhere = inLinkElsewhere || elsewhere;
    const childInSectioning = inSectioning || opensSectioning(name, role);
    const children = tree.childNodes(element);
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      if (tree.isElement(child)) {
        const inner = this.measure(child, childInLink, childInSectioning, childInLinkElsewhere);
        if (this.around.has(child)) continue;
        if (measure.text === 0) measure.ledByLink = inner.ledByLink;
        measure.entryText += inner.entryText;
        measure.text += inner.text;
        measure.linkText += inner.linkText;
        measure.prose += inner.prose;
        measure.listedProse += inner.listedProse;
        measure.headings += inner.headings;
      } else {
        const length = visibleLength(tree.textData(child) ?? '');
        if (measure.text === 0 && length > 0) measure.ledByLink = childInLinkElsewhere;
        measure.text += length;
        if (childInLink) measure.linkText += length;
        else measure.prose += length;
      }
    }
    if (isAround) return emptyMeasure();
    // A heading all of whose text links to another page is a menu's entry or the site's name; one that links to itself
    // (MkDocs' `anchorlink`) is a heading.
    if (headingRank(name) > 0 && measure.text > 0 && !this.isLinkToOtherPage(element)) measure.headings++;
    // An entry: a link with at most a short note ("(in module x)", a one-line synopsis).
    if (ENTRIES.has(name) && measure.linkText > 0 && measure.prose <= 2 * measure.linkText) measure.listedProse = measure.prose;
    if (ENTRIES.has(name) && measure.ledByLink) measure.entryText = measure.text;
    return measure;
  }

  /** Whether a link's target is another page (not a fragment of this one). */
  private leadsElsewhere(href: string): boolean {
    const path = href.split('#')[0]!;
    if (path === '') return false;
    return !this.pagePath || resolvedPath(path, this.url) !== this.ownPath;
  }

  /** Notes the fragment a link to this page points to (`#id`, `page.html#id`). */
  private noteOwnFragment(href: string): void {
    const hash = href.indexOf('#');
    if (hash !== -1) this.linkedIds.add(percentDecoded(href.slice(hash + 1)));
  }

  /** Visible text length of an element, navigation and other surroundings not counted. */
  textLength(element: Element): number {
    return this.measures.get(element)?.text ?? 0;
  }

  /** Of that, the text outside links. */
  proseLength(element: Element): number {
    return this.measures.get(element)?.prose ?? 0;
  }

  /**
   * The share of an element's text that is entries led by a link to another page (0 to 1): near 1 on
   * an overview (a module's summary table, a list of guides), whose every line belongs to the page it
   * links to.
   */
  entryShare(element: Element): number {
    const measure = this.measures.get(element);
    return measure && measure.text > 0 ? measure.entryText / measure.text : 0;
  }

  /** Whether the tree holds more than content: navigation, sidebars, a site header or footer. */
  hasSurroundings(): boolean {
    return this.landmarks > 0;
  }

  /** Whether a page links to `id` on itself (a table of contents, a permalink, a cross-reference). */
  isLinkedId(id: string): boolean {
    return this.linkedIds.has(id);
  }

  /**
   * Whether a heading is nothing but a link to another page: a site name or logo in the page header,
   * which names the site, not the page. Not one that links to itself (MkDocs' `anchorlink`: Django REST framework's
   * `<h1 id="authentication"><a href="#authentication">`; made absolute by an embed answer, it is told by the page's path).
   */
  isLinkToOtherPage(heading: Element): boolean {
    const { tree } = this;
    const measure = this.measures.get(heading);
    if (!measure || measure.text === 0 || measure.linkText < measure.text) return false;
    let href: string | undefined;
    const find = (element: Element): void => {
      const children = tree.childNodes(element);
      for (let index = 0; index < children.length && href === undefined; index++) {
        const child = children[index]!;
        if (!tree.isElement(child)) continue;
        if (tree.tagName(child) === 'a') href = tree.attribute(child, 'href') ?? '';
        else find(child);
      }
    };
    find(heading);
    return href !== undefined && this.leadsElsewhere(href);
  }

  /**
   * The heading that names the page: the first `<h1>` among the content that is not a link elsewhere; else the
   * first heading of the best rank.
   */
  primaryHeading(): Element | undefined {
    let best: Element | undefined;
    for (const element of this.order) {
      const rank = headingRank(this.tree.tagName(element));
      if (rank === 0 || this.textLength(element) === 0 || this.isLinkToOtherPage(element)) continue;
      if (rank === 1) return element;
      if (!best || rank < headingRank(this.tree.tagName(best))) best = element;
    }
    return best;
  }

  /**
   * The main content: the region that holds the page's primary heading and most of its prose. From the
   * heading it widens to every ancestor that adds a good share of prose (a second top-level section),
   * never to one that only adds a footer or a byline. Without a heading it narrows from the root
   * while one child holds nearly all the prose.
   */
  mainContent(): Element {
    this.region ??= this.findRegion();
    return this.region;
  }

  private findRegion(): Element {
    const heading = this.primaryHeading();
    if (!heading) return this.narrowed(this.root);
    let region = heading;
    for (let child = heading, parent = this.tree.parent(heading); parent; child = parent, parent = this.tree.parent(parent)) {
      const headingOnly = region === heading || this.textLength(region) <= this.textLength(heading);
      const addedProse = this.proseLength(parent) - this.proseLength(region);
      const addedText = this.textLength(parent) - this.textLength(region);
      // The heading sits in a small header of its own and the content's prose follows it, beside it (not a sidebar of
      // links). Small by all its text, and followed at one level: a page of links under its heading (a toctree) is no
      // header before a sidebar's "Last update" line, nor before the previous and next links and copyright around it.
      const besideProse = this.proseLength(parent) - this.proseLength(child);
      const smallerPart = besideProse > this.textLength(region) && besideProse > 0.5 * addedText;
      const addedHeadings = this.measures.get(parent)!.headings - this.measures.get(region)!.headings;
      // A further section of the page, not a footer or a byline: headings of its own and a good share of the prose.
      const furtherSection = addedHeadings > 0 && addedProse > Math.max(200, 0.25 * this.proseLength(parent));
      if (headingOnly || smallerPart || furtherSection) region = parent;
      if (parent === this.root) break;
    }
    return region;
  }

  private narrowed(start: Element): Element {
    let current = start;
    for (;;) {
      const total = this.proseLength(current);
      let next: Element | undefined;
      const children = this.tree.childNodes(current);
      for (let index = 0; index < children.length; index++) {
        const child = children[index]!;
        if (this.tree.isElement(child) && !this.around.has(child) && this.proseLength(child) >= 0.8 * total) next = child;
      }
      if (!next || total === 0 || LEAF_BLOCKS.has(this.tree.tagName(next))) return current;
      current = next;
    }
  }

  /**
   * What a theme puts inside the element it marks as main (`main`), around the page's own text: download
   * and print buttons, a "Contents" label and version banners before the page's `<h1>` ("This document
   * is for Kombu's development version"); previous/next links and a copyright line after its text.
   * Found by position, not by class names: the part that holds the `<h1>` and what follows it (its
   * parent) is the page's when it holds every heading of `main`; beside it, up to `main`, blocks
   * before it without a heading of their own, and blocks after it without a heading and with hardly
   * any prose (links, labels, a line), are not. When `main` has headings beside that part (several
   * top-level sections), what is before the first may be the page's introduction: only a short block
   * that points to another site (a banner sending readers to other docs), holds buttons or navigation
   * (a bar of page actions) or is links with hardly any prose (a menu) is furniture there, as before an
   * `<h1>` that `main` holds directly; and so are
   * such banners opening a page's marked main content without any heading, all of which is before one
   * (Kombu's changelog: the banner alone; a definition, whose links often lead elsewhere, is no page), and the links
   * with hardly any prose after its text (pygame's "Edit on GitHub").
   * None when `main` holds headings but no `<h1>`.
   */
  furnitureIn(main: Element): Element[] {
    const { tree } = this;
    if (this.measures.get(main)?.headings === 0) {
      if (!marksMain(tree.tagName(main), tree.attribute(main, 'role'))) return [];
      const blocks = Array.from(tree.childNodes(main)).filter((child): child is Element => tree.isElement(child) && hasText(tree, child));
      const text = blocks.findIndex((child) => !this.isBanner(child));
      if (text < 0) return blocks;
      // After the text, links with hardly any prose are the theme's, as after an `<h1>`'s part (pygame's "Edit on GitHub");
      // a page of nothing but links keeps them.
      const last = blocks.findLastIndex((child) => !this.isMenu(child));
      return [...blocks.slice(0, text), ...(last < text ? [] : blocks.slice(last + 1))];
    }
    const heading = this.titleIn(main);
    const part = heading && this.tree.parent(heading);
    if (!heading || !part) return [];
    // The page's text is one part, with every heading: a heading beside it would make what is there the page's too.
    if (part !== main && this.measures.get(part)?.headings === this.measures.get(main)?.headings && !this.isStrayTitle(part, main))
      return this.besidePart(part, main, (child, before) => before || this.proseLength(child) < FURNITURE_PROSE);
    const furniture = (child: Element, before: boolean) => before && (this.isBanner(child) || this.isToolbar(child));
    return [...new Set([...this.besidePart(part === main ? heading : part, main, furniture), ...this.menusIn(main)])];
  }

  /**
   * The site's menus in `main` before the page's `<h1>`: blocks of links with hardly any prose, where no landmark marks
   * them (lxml's docutils pages hold theirs in the `<div>` of their `<h1>`), or a bar of previous and next links there.
   * The widget previews no link in them.
   */
  menusIn(main: Element): Element[] {
    const heading = this.titleIn(main);
    return heading ? this.besidePart(heading, main, (child, before) => before && this.isMenu(child)) : [];
  }

  /**
   * An `<h1>` opens its page's text: one whose part has less prose than the blocks before it stands astray late in the
   * text (Black's Markdown, read by Sphinx as reStructuredText, has its one heading, ")", near its end), and what is
   * before it is the page's.
   */
  private isStrayTitle(part: Element, main: Element): boolean {
    const before = this.besidePart(part, main, (_, before) => before);
    return before.reduce((prose, child) => prose + this.proseLength(child), 0) > this.proseLength(part);
  }

  /** The page's `<h1>` (see `primaryHeading`) when `main` holds it. */
  private titleIn(main: Element): Element | undefined {
    const heading = this.primaryHeading();
    return heading && heading !== main && this.tree.tagName(heading) === 'h1' && this.contains(main, heading) ? heading : undefined;
  }

  /** Links with hardly any prose (see `menusIn`). */
  private isMenu(element: Element): boolean {
    const measure = this.measures.get(element);
    return !!measure && measure.prose < FURNITURE_PROSE && measure.linkText > MENU_LINKS_PER_PROSE * measure.prose;
  }

  /** A short block that points to another site: a banner sending readers to other docs. */
  private isBanner(element: Element): boolean {
    return this.proseLength(element) < FURNITURE_PROSE && this.linksToOtherSite(element);
  }

  /**
   * A short block that holds buttons or navigation: the theme's bar of page actions (sphinx-book-theme's
   * download and print buttons, its "Contents" label and the page's table of contents). A page's own
   * introduction holds prose, not controls.
   */
  private isToolbar(element: Element): boolean {
    const { tree } = this;
    return (
      this.proseLength(element) < FURNITURE_PROSE &&
      !!findFirst(tree, element, (inner) => tree.tagName(inner) === 'button' || this.around.has(inner))
    );
  }

  /** The blocks without a heading beside `part` and its ancestors up to `main` that `isFurniture` picks. */
  private besidePart(part: Element, main: Element, isFurniture: (child: Element, before: boolean) => boolean): Element[] {
    const { tree } = this;
    const found: Element[] = [];
    for (let inner = part; inner !== main; ) {
      const parent = tree.parent(inner);
      if (!parent) break;
      let before = true;
      const children = tree.childNodes(parent);
      for (let index = 0; index < children.length; index++) {
        const child = children[index]!;
        if (child === inner) before = false;
        else if (tree.isElement(child) && this.measures.get(child)?.headings === 0 && isFurniture(child, before)) found.push(child);
      }
      inner = parent;
    }
    return found;
  }

  /** Whether `element` holds a link with a host of its own: generators link a site's pages by relative paths. */
  private linksToOtherSite(element: Element): boolean {
    const { tree } = this;
    return !!findFirst(
      tree,
      element,
      (inner) => tree.tagName(inner) === 'a' && /^(?:[a-z][a-z\d+.-]*:)?\/\//i.test(tree.attribute(inner, 'href') ?? ''),
    );
  }

  /**
   * What the page is: a search page (a search box in the content and hardly any text, or no content
   * at all but the site's search box: results a script fills in), a generated index (its content is
   * entries of lists and tables that link elsewhere, with little prose of its own), or content.
   */
  kind(): PageKind {
    const main = this.mainContent();
    const measure = this.measures.get(main)!;
    const ownProse = measure.prose - measure.listedProse;
    if (ownProse < 400 && this.hasSearchInput(main, false)) return 'search';
    if (measure.text === 0 && this.hasSearchInput(this.root, true)) return 'search';
    const entries = measure.linkText + measure.listedProse;
    const listing = entries > 8 * ownProse || (entries > 4 * ownProse && ownProse < 600) || (entries > ownProse && ownProse < 40);
    if (listing && measure.linkText > 0) return 'index';
    return 'content';
  }

  /** Whether `within` holds a search box; `around`: one in its navigation or sidebars too (the site's own, on every page). */
  private hasSearchInput(within: Element, around: boolean): boolean {
    const { tree } = this;
    for (let index = this.order.indexOf(within); index >= 0 && index < this.order.length; index++) {
      const element = this.order[index]!;
      if (!this.contains(within, element)) break;
      if (tree.tagName(element) !== 'input' || (!around && this.isAround(element, within))) continue;
      const type = tree.attribute(element, 'type') ?? 'text';
      if (type === 'search' || (type === 'text' && tree.attribute(element, 'name') === 'q')) return true;
    }
    return false;
  }

  private contains(ancestor: Element, element: Element): boolean {
    for (let node: Element | undefined = element; node; node = this.tree.parent(node)) if (node === ancestor) return true;
    return false;
  }

  /** Whether `element` sits in navigation, a sidebar or the like below `within`. */
  private isAround(element: Element, within: Element): boolean {
    for (let node = this.tree.parent(element); node && node !== within; node = this.tree.parent(node))
      if (this.around.has(node)) return true;
    return false;
  }
}

/**
 * Whether a tree may hold what {@link PageStructure.furnitureIn} finds in it (furniture is found only in a
 * marked main element, beside the part that holds its `<h1>` when that part is not the root itself, or before
 * an `<h1>` the root holds) or surroundings: a quick look that spares measuring trees (most sections, a page's
 * top section, which opens with its title) that hold neither.
 */
export function mayHoldFurniture<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, root: Element): boolean {
  if (marksMain(tree.tagName(root), tree.attribute(root, 'role'))) return true;
  return !!findFirst(tree, root, (element) => {
    const name = tree.tagName(element);
    if (name === 'h1') return tree.parent(element) !== root || textBefore(tree, root, element);
    return surroundsContent(name, tree.attribute(element, 'role'), false);
  });
}

/** Whether a child of `root` before `child` holds visible text. */
function textBefore<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, root: Element, child: Element): boolean {
  const children = tree.childNodes(root);
  for (let index = 0; index < children.length && children[index] !== child; index++) {
    const node = children[index]!;
    if (tree.isElement(node) ? hasText(tree, node) : visibleLength(tree.textData(node) ?? '') > 0) return true;
  }
  return false;
}
