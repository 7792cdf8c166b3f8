/**
 * Where a page sits in the site, as the page the dialog is on shows it: its breadcrumbs and its tables
 * of contents (nested lists of links, a list's heading naming its group). Read from what the markup
 * means, not from a theme's class names: a result row says "User guide › Deploying" rather than the
 * URL's slugs.
 */

import { docsPath, mainContent, titleText, words } from '../shared/page.ts';

/** A page's address as a key: no query or fragment, `index.html` and a trailing slash alike. */
function pageKey(href: string): string {
  const url = new URL(href, document.baseURI);
  return `${url.origin}${url.pathname.replace(/\/index\.html?$/, '/').replace(/\/$/, '')}`;
}

/** Longer link texts are sentences, not titles. */
const MAX_TITLE = 80;

/** The current page's key and its site's start (the documentation root, `/en/latest/`). */
interface SiteKeys {
  here: string;
  root: string;
}

function siteKeys(): SiteKeys {
  const here = pageKey(document.baseURI);
  const url = new URL(here);
  const segments = url.pathname.split('/').filter(Boolean);
  const root = segments.slice(0, segments.length - docsPath(url.pathname).page.length);
  return { here, root: `${url.origin}${root.length ? `/${root.join('/')}` : ''}` };
}

interface Place {
  title: string;
  /** Titles of the pages (or groups) above it, outermost first. */
  above: string[];
}

/**
 * The heading just before a list that names it ("User guide" over a table of contents), or the element that
 * labels it (`aria-labelledby`), if any. A heading over a list that holds the page itself or the site's start, or
 * that links to one of them itself (statsmodels' "Table of Contents" over the whole site's, the "Document" menu button
 * of Bootstrap themes over their global table of contents), names the navigation rather than a part of the site
 * ("Navigation", "Table of Contents"), and so does one hidden where its list shows (Sphinx's relbar, under its
 * unseen "Navigation"); a caption given the heading role (a Sphinx toctree's) names its group wherever the reader is.
 */
function listHeading(list: Element, site: SiteKeys): string | undefined {
  const labelled = list.getAttribute('aria-labelledby');
  const previous = labelled ? document.getElementById(labelled) : list.previousElementSibling;
  if (!previous) return undefined;
  if (!labelled && previous.getAttribute('role') === 'heading') return titleText(previous) || undefined;
  if (!labelled && !/^h[1-6]$/.test(previous.localName)) return undefined;
  const links = [...previous.querySelectorAll<HTMLAnchorElement>('a[href]'), ...list.querySelectorAll<HTMLAnchorElement>('a[href]')];
  if (previous instanceof HTMLAnchorElement) links.push(previous);
  const namesNavigation = links.some((link) => {
    const key = pageKey(link.href);
    return key === site.here || key === site.root;
  });
  // A label names its list even where hidden (ARIA); a heading no one sees does not.
  const unseen = !labelled && previous.getClientRects().length === 0 && list.getClientRects().length > 0;
  const title = titleText(previous);
  return namesNavigation || unseen || namesLandmark(title, list) ? undefined : title || undefined;
}

/**
 * Whether a heading only repeats the name of the navigation landmark its list is in (alabaster's "Navigation" in the
 * side bar labelled "main navigation"): it names the navigation wherever the reader is, not a part of the site.
 */
function namesLandmark(title: string, list: Element): boolean {
  const named = new Set(words(list.closest('nav, [role="navigation"]')?.getAttribute('aria-label')).split(' '));
  const said = words(title);
  return said !== '' && said.split(' ').every((word) => named.has(word));
}

/** The link that titles a list item: its first link outside its nested lists. */
function itemLink(item: Element): HTMLAnchorElement | undefined {
  return [...item.querySelectorAll<HTMLAnchorElement>('a[href]')].find((link) => link.closest('li') === item);
}

/** Titles above a link in nested lists: each enclosing item's own link; and the outermost list's heading, its group. */
function placeInLists(
  link: HTMLAnchorElement,
  headingOf: (list: Element) => string | undefined,
): { group: string | undefined; above: string[] } {
  const above: string[] = [];
  let list = link.closest('ul, ol');
  for (let item = list?.parentElement?.closest('li'); item; item = list?.parentElement?.closest('li')) {
    const title = titleText(itemLink(item));
    if (title) above.unshift(title);
    list = item.closest('ul, ol');
  }
  return { group: (list && headingOf(list)) || undefined, above };
}

/**
 * Whether a link's text is a label rather than the title of the page it leads to, its `title` attribute naming
 * that page otherwise: Sphinx's relbar ("next" titled "Logging", "modules") and "previous chapter" links.
 */
function labelsPage(link: HTMLAnchorElement, title: string): boolean {
  const named = link.title.replace(/\s+/g, ' ').trim();
  return named !== '' && named !== title;
}

/** The page's breadcrumbs: a navigation landmark or list labelled so, or marked up as a BreadcrumbList. */
function breadcrumbLinks(): HTMLAnchorElement[] {
  const trail = document.querySelector('[aria-label*="breadcrumb" i], [itemtype*="BreadcrumbList"]');
  return trail ? [...trail.querySelectorAll<HTMLAnchorElement>('a[href]')] : [];
}

export class SiteOutline {
  private readonly places = new Map<string, Place>();

  /** Reads the outline of the current document. */
  constructor() {
    // The breadcrumbs first: each crumb is below the ones before it.
    const crumbs = breadcrumbLinks();
    crumbs.forEach((link, index) => {
      const title = titleText(link);
      if (title && title.length <= MAX_TITLE)
        this.places.set(pageKey(link.href), { title, above: crumbs.slice(0, index).map(titleText).filter(Boolean) });
    });
    const content = mainContent();
    const site = siteKeys();
    // Each list's heading once, not once per link in it (a reference's menu lists thousands).
    const headings = new Map<Element, string | undefined>();
    const headingOf = (list: Element) => {
      if (!headings.has(list)) headings.set(list, listHeading(list, site));
      return headings.get(list);
    };
    const listed: { place: Place; group: string | undefined; key: string }[] = [];
    for (const link of document.querySelectorAll<HTMLAnchorElement>('li a[href]')) {
      if (link.closest('doclens-search') || !/^https?:/.test(link.href)) continue;
      // Lists in the text (a "Next steps" list) are not the site's outline; a navigation landmark in it is.
      if (content.contains(link) && !link.closest('nav, [role="navigation"]')) continue;
      const title = titleText(link);
      const key = pageKey(link.href);
      if (!title || title.length > MAX_TITLE || new URL(link.href).hash || labelsPage(link, title)) continue;
      const { group, above } = placeInLists(link, headingOf);
      const place = { title, above: group ? [group, ...above] : above };
      listed.push({ place, group, key });
      const known = this.places.get(key);
      // The deepest place a page is listed at says most.
      if (!known || known.above.length < place.above.length) this.places.set(key, place);
    }
    // One group every listed page is in, this page too, is the site's contents (fsspec's one toctree caption, "Contents:"),
    // no part of it.
    const groups = new Set(listed.map(({ group }) => group));
    const whole = groups.size === 1 && !groups.has(undefined) && listed.some(({ key }) => key === site.here);
    if (whole) for (const { place } of listed) place.above.shift();
  }

  /**
   * The titles above a page, outermost first: its own place in the outline, or else its nearest
   * ancestor folder's (and that page's title); empty where the page shows nothing of it.
   */
  above(href: string): string[] {
    const key = pageKey(href);
    const own = this.places.get(key);
    if (own) return own.above;
    const url = new URL(key);
    const segments = url.pathname.split('/').filter(Boolean);
    // Not above the documentation's root (`/en/latest/`): that is the whole site, not a place in it.
    const root = segments.length - docsPath(url.pathname).page.length;
    for (let length = segments.length - 1; length > root; length--) {
      const folder = this.places.get(`${url.origin}/${segments.slice(0, length).join('/')}`);
      if (folder) return [...folder.above, folder.title];
    }
    return [];
  }
}
