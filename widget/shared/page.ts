import { findMainContent } from '../../extraction/structure/main-content.ts';
import { PageStructure } from '../../extraction/structure/page-structure.ts';
import { percentDecoded, type TreeAdapter } from '../../extraction/structure/tree.ts';
import { isStopWord } from '../../extraction/words/stop-words.ts';
import { VERSION_NUMBER } from '../../extraction/words/version-number.ts';
import { titleParts } from '../../extraction/words/title-parts.ts';
import { FORMULA, LAID_OUT_FORMULA } from './formulas.ts';

/** Project, version and language of the page the widget is on. */
export interface PageInfo {
  project?: string | undefined;
  version?: string | undefined;
  language?: string | undefined;
}

/** The structure detection over the browser's DOM: the same algorithm the proxy and the docs host run. */
const domTree: TreeAdapter<Node, Element> = {
  isElement: (node): node is Element => node.nodeType === Node.ELEMENT_NODE,
  textData: (node) => (node.nodeType === Node.TEXT_NODE ? (node as Text).data : undefined),
  tagName: (element) => element.localName,
  attribute: (element, name) => element.getAttribute(name) ?? undefined,
  childNodes: (element) => element.childNodes,
  parent: (element) => element.parentElement ?? undefined,
};

let detected: Element | undefined;

/**
 * The main content of the page (or of `scope`), found from its structure (landmarks, headings, the
 * amount of prose), not from class names: the element marked as main (narrowed to its content when it
 * holds the navigation too), or else the region of the page heading and most of the prose. The
 * page's is measured once and kept while it stays in the document.
 */
export function mainContent(scope: Document | Element = document): Element {
  const isPage = scope === document;
  if (isPage && detected?.isConnected) return detected;
  const root = scope instanceof Document ? (scope.body ?? scope.documentElement) : scope;
  const found = findMainContent(domTree, root, { pagePath: isPage ? location.pathname : '', narrowMarked: true });
  if (isPage) detected = found;
  return found;
}

let menus: { main: Element; found: Element[] } | undefined;

/**
 * Whether `node` is in the page's own text: in its main content, and not in a menu of the site's before the page's
 * title there (see `PageStructure.menusIn`). The content is measured only when a link comes before its `<h1>`, once.
 */
export function inPageText(node: Node): boolean {
  const main = mainContent();
  if (!main.contains(node)) return false;
  if (menus?.main !== main) {
    const title = main.querySelector('h1');
    const link = main.querySelector('a[href]');
    const linkBefore = !!title && !!link && !!(link.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING);
    menus = { main, found: linkBefore ? new PageStructure(domTree, main, location.pathname).menusIn(main) : [] };
  }
  return !menus.found.some((menu) => menu.contains(node));
}

const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
const LANGUAGE = /^[a-z]{2,3}(?:[-_][a-z]{2,4})?$/i;

/** A text's words, lower-case, one space apart: what two names are compared by. */
export const words = (text: string | null | undefined) =>
  (text ?? '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();

/** An element's text as a title: permalink marks and icon glyphs ("¶", "#", private-use characters) at its end left out. */
export const titleText = (element: Element | null | undefined) =>
  (element?.textContent ?? '')
    .replace(/\s+/g, ' ')
    .replace(/[^\p{L}\p{N})\]]+$/u, '')
    .trim();

/**
 * The site's name as the page shows it: its `og:site_name`, else the part of its title that is not the
 * page's own heading ("Quickstart — Flask Documentation (3.1.x)", "Setup - MkDocs"), else a heading
 * that names the site in full where the title names it short (a start page titled "3.11.2
 * Documentation" under "Python 3.11.2 documentation"); undefined when the page shows none.
 */
export function siteName(doc: Document = document): string | undefined {
  const declared = doc.querySelector<HTMLMetaElement>('meta[property="og:site_name"]')?.content.trim();
  if (declared) return declared;
  const parts = doc.title
    .split(/\s+[—–|·:-]\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
  // The page's own heading: a theme may head its side bar with the site's name in an <h1> (Dask's).
  const h1 = titleText(doc.querySelector('main h1, [role="main"] h1') ?? doc.querySelector('h1'));
  const heading = words(h1);
  if (parts.length === 1) {
    const title = words(parts[0]);
    if (title && heading !== title && ` ${heading} `.endsWith(` ${title} `)) return h1;
    // A site's start page is titled by the site's name alone (MkDocs' `site_name`).
    return isStartPage(doc) ? parts[0] : undefined;
  }
  if (parts.length === 0) return undefined;
  return parts.filter((part) => words(part) !== heading).at(-1);
}

/** Whether `doc` is its site's start page: the documentation root, or its `index.html`. */
function isStartPage(doc: Document): boolean {
  const page = docsPath(new URL(doc.URL).pathname).page;
  return page.length === 0 || (page.length === 1 && /^index\.html?$/.test(page[0]!));
}

/** A documentation URL's path, split the way the hosting service builds it. */
export interface DocsPath {
  /** The subproject's alias, for `/projects/<alias>/…`. */
  alias?: string | undefined;
  language?: string | undefined;
  version?: string | undefined;
  /** The segments after the version (all of them when the path has no language and version). */
  page: string[];
}

/** The names of languages the browser knows; none where it has no such table (then a code's form decides). */
const LANGUAGE_NAMES =
  typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }) : undefined;

/** A language code (`en`, `pt_BR`), not a folder of a site named in two or three letters (`ref/`, `api/`, `dev/`). */
function isLanguage(segment: string): boolean {
  if (!LANGUAGE.test(segment)) return false;
  try {
    return !LANGUAGE_NAMES || LANGUAGE_NAMES.of(segment.replace('_', '-')) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Splits `[/projects/<alias>]/<language>/<version>/<page…>`; language and version only when the path has them, the
 * version a folder (`ref/filters.html` of a site served at its root is a page, not version `filters.html`).
 */
export function docsPath(pathname: string): DocsPath {
  const segments = pathname.split('/').filter(Boolean);
  const offset = segments[0] === 'projects' ? 2 : 0;
  const alias = offset ? segments[1] : undefined;
  const [language, version] = [segments[offset], segments[offset + 1]];
  const folder = segments.length > offset + 2 || pathname.endsWith('/');
  if (!language || !isLanguage(language) || !version || !folder) return { alias, page: segments.slice(offset) };
  return { alias, language, version: percentDecoded(version), page: segments.slice(offset + 2) };
}

/**
 * Where the page sits, from (in order) what the author configured, the meta tags the hosting service
 * adds, and the URL's `/<language>/<version>/` (or `/projects/<alias>/<language>/<version>/`).
 */
export function detectPage(configured: PageInfo, location: Location | URL = window.location): PageInfo {
  const fromUrl = docsPath(location.pathname);
  return {
    project: configured.project ?? meta('readthedocs-project-slug'),
    version: configured.version ?? meta('readthedocs-version-slug') ?? fromUrl.version,
    language: configured.language ?? meta('readthedocs-language') ?? fromUrl.language ?? (document.documentElement.lang || undefined),
  };
}

/** The URL parameter a search result link carries so that the destination page highlights the terms. */
export const HIGHLIGHT_PARAM = 'highlight';
/** Words marked at most: the reader's and the forms the search matched. */
const MAX_HIGHLIGHTED_WORDS = 20;
/** The marks `highlightSearchedTerms` adds. */
export const HIGHLIGHT_SELECTOR = 'mark.doclens-highlight';
const HIGHLIGHT_STYLE_ID = 'doclens-highlight-style';
/**
 * The marks' look is doclens' own: a theme's `mark` rule (padded boxes, bold italic) would break a
 * name in code apart ("dd . read_csv"). Dark text on light yellow whatever the theme's scheme (an
 * author's `--doclens-color-highlight` on the page applies); the current match (the matches bar's) outlined.
 */
const HIGHLIGHT_STYLE =
  `${HIGHLIGHT_SELECTOR}{all:unset!important;` +
  'background:var(--doclens-color-highlight,#fff2a8)!important;color:var(--doclens-color-highlight-text,#1f2328)!important}' +
  `${HIGHLIGHT_SELECTOR}[aria-current="true"]{outline:2px solid var(--doclens-color-accent,#0b62d6)!important;` +
  'outline-offset:1px!important;border-radius:2px!important}';

/** Puts the marked words back as plain text, joined with their neighbours. */
export function removeHighlights(marks: Iterable<Element> = document.querySelectorAll(HIGHLIGHT_SELECTOR)): void {
  for (const mark of marks) {
    const parent = mark.parentNode;
    mark.replaceWith(...mark.childNodes);
    parent?.normalize();
  }
}

/** Whether an element shows in the window as it is scrolled now. */
function inSight(element: Element): boolean {
  const { top, bottom } = element.getBoundingClientRect();
  return bottom > 0 && top < window.innerHeight;
}

/** A word as the widget marks it: letters, digits, `_` and `-`, or a version number whole ("2.0", a release's section). */
const WORD = new RegExp(`${VERSION_NUMBER.source.replace(/^\^|\$$/g, '')}|[\\p{L}\\p{N}_-]+`, 'giu');

/** A text's words, as marked, in lower case, two characters at least. */
export const markableWords = (text: string): string[] =>
  (text.toLowerCase().match(WORD) ?? []).filter((word) => word.length >= 2 && /[\p{L}\p{N}]/u.test(word));

/** The words of a `highlight=` value that are marked: each once, no stop word ("the", "how"). */
function highlightedWords(value: string): string[] {
  return [...new Set(markableWords(value).filter((word) => !isStopWord(word)))].slice(0, MAX_HIGHLIGHTED_WORDS);
}

/**
 * Marks the searched terms in the page's main content with `<mark>` (styled by doclens, not the
 * theme) and drops the parameter from the address bar. Text only: no HTML is parsed.
 */
export function highlightSearchedTerms(root: Document | Element = document): number {
  const url = new URL(window.location.href);
  const value = url.searchParams.get(HIGHLIGHT_PARAM);
  if (value === null) return 0;
  url.searchParams.delete(HIGHLIGHT_PARAM);
  history.replaceState(history.state, '', url);
  const searched = highlightedWords(value);
  if (searched.length === 0) return 0;
  // The site's name is on every page: marked, it buries the words that tell ("is pymongo thread safe": 58 "PyMongo").
  const siteName = new Set(titleParts(document.title).site.toLowerCase().split(/\s+/));
  const telling = searched.filter((word) => !siteName.has(word.toLowerCase()));
  const words = telling.length ? telling : searched;
  const container = mainContent(root);
  // Whole words only ("nav" is not marked in "navigation"): the forms the search matched come as words of
  // their own; a version number is not part of a longer one ("2.0" of "2.0.1"). The words hold letters, digits, `_`, `-`
  // and a version number's dots: only those to escape.
  const alternatives = words.map((word) => word.replaceAll('.', '\\.')).join('|');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_]|\\p{N}\\.)(${alternatives})(?![\\p{L}\\p{N}_]|\\.\\p{N})`, 'giu');
  // Nor in formulas: a mark in TeX keeps MathJax from reading it, and in laid-out math it stands over symbols.
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest(`script, style, mark, textarea, [contenteditable], ${LAID_OUT_FORMULA}`) ||
      FORMULA.test((node as Text).data)
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const texts: Text[] = [];
  while (walker.nextNode()) texts.push(walker.currentNode as Text);
  let marked = 0;
  for (const text of texts) {
    const parts = text.data.split(pattern);
    if (parts.length === 1) continue;
    const fragment = document.createDocumentFragment();
    parts.forEach((part, index) => {
      if (!part) return;
      if (index % 2 === 1) {
        const mark = document.createElement('mark');
        mark.className = 'doclens-highlight';
        mark.textContent = part;
        fragment.append(mark);
        marked++;
      } else fragment.append(part);
    });
    text.replaceWith(fragment);
  }
  if (marked && !document.getElementById(HIGHLIGHT_STYLE_ID)) {
    const style = document.createElement('style');
    style.id = HIGHLIGHT_STYLE_ID;
    style.textContent = HIGHLIGHT_STYLE;
    document.head.append(style);
  }
  // The browser scrolled to the fragment before the marks existed; keep the section in view.
  const target = url.hash ? document.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
  if (target) target.scrollIntoView({ block: 'start' });
  // A page opened at its top (a result of a page without sections) with no match in sight shows the first, as a browser's
  // find does: not "3 matches" with each far below.
  else if (!url.hash && marked) {
    // Those shown only: one in a closed `<details>` has no place to scroll to (a browser without the check: all).
    const marks = [...container.querySelectorAll<HTMLElement>(HIGHLIGHT_SELECTOR)].filter((mark) => mark.checkVisibility?.() ?? true);
    if (!marks.some(inSight)) marks[0]?.scrollIntoView({ block: 'center' });
  }
  return marked;
}
