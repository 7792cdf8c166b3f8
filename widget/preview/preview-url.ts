import { percentDecoded } from '../../extraction/structure/tree.ts';
import { docsPath } from '../shared/page.ts';

/** Links the author opted out of previews. */
export const OPT_OUT = '[data-doclens-preview="off"], .doclens-no-preview';

/**
 * Whether a link points at an element around it — a heading's permalink (¶), a term's own anchor,
 * whatever the theme calls it: its preview would be the very section the reader is in.
 */
export function linksToItself(link: HTMLAnchorElement): boolean {
  const { ownerDocument: page } = link;
  if (!link.hash || link.origin + link.pathname !== page.location.origin + page.location.pathname) return false;
  return !!page.getElementById(percentDecoded(link.hash.slice(1)))?.contains(link);
}
/** Paths of a built site that are files, not documentation pages. */
const NOT_A_PAGE = /\/(_sources|_downloads|_images|_static|_modules\/.*\.txt)\/|\.(?!html?$)[a-z0-9]{1,5}$/i;

/**
 * The documentation address a link's `href` previews, or undefined: web pages only, on this page's
 * origin or one of `domains` (`host` or `host:port`), not files, not this very page without a
 * fragment; the query is dropped.
 */
export function previewTarget(href: string, base: string, here: string, domains: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const page = new URL(here);
  if (url.origin !== page.origin && !domains.includes(url.host) && !domains.includes(url.hostname)) return undefined;
  if (NOT_A_PAGE.test(url.pathname)) return undefined;
  if (isPage(url.href, here) && !url.hash) return undefined;
  url.search = '';
  return url.href;
}

/** Where a documentation URL sits: its site and project (`/projects/<alias>/`), and version. */
function docsLocation(url: URL): { site: string; alias?: string | undefined; version?: string | undefined } {
  const { alias, version } = docsPath(url.pathname);
  return { site: url.origin + (alias ? `/projects/${alias}` : ''), alias, version };
}

/** "Aurora Plugins · latest" when `url` is in another project or version than the page `here`. */
export function contextLabel(url: string, here: string): string | undefined {
  const there = docsLocation(new URL(url));
  const current = docsLocation(new URL(here));
  if (there.site !== current.site) {
    return [there.alias ?? new URL(url).host, there.version].filter(Boolean).join(' · ');
  }
  return there.version && current.version && there.version !== current.version ? there.version : undefined;
}

/** Whether `url` is the page `here` (another fragment of it): a link there does not leave the page. */
export function isPage(url: string, here: string): boolean {
  const [there, page] = [new URL(url), new URL(here)];
  return there.origin === page.origin && there.pathname === page.pathname;
}
