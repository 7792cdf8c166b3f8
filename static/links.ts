import { Parser } from 'htmlparser2';
import { fileForPath } from '../host/registry.ts';
import type { SiteVersion } from './site.ts';

/** A page of the site, by its version's folder and its file in it. */
export interface PageKey {
  version: SiteVersion;
  file: string;
}

/**
 * The links of a page that name a fragment of a page of the same origin, each once, as `path#fragment`
 * (the path below the origin, percent-decoded). A tokenizer, no tree: a page's links are all this needs.
 */
export function fragmentLinks(html: string, pageUrl: string): string[] {
  const base = new URL(pageUrl);
  const links = new Set<string>();
  const parser = new Parser({
    onopentag: (name, attributes) => {
      const href = name === 'a' ? attributes.href : undefined;
      if (!href?.includes('#')) return;
      let url: URL;
      let path: string;
      try {
        url = new URL(href, base);
        path = decodeURIComponent(url.pathname.slice(1));
      } catch {
        return;
      }
      if (url.hash.length > 1 && url.origin === base.origin) links.add(`${path}#${url.hash.slice(1)}`);
    },
  });
  parser.end(html);
  return [...links];
}

/**
 * The targets the site's links point to, by page: every fragment some page links to, which previews
 * are written for (a link's target can be any element with an id; the site's own links say which).
 */
export class LinkTargets {
  private readonly targets = new Map<string, Set<string>>();

  constructor(private readonly versions: readonly SiteVersion[]) {}

  /** The page a path below the site's root names, if any. */
  private pageOf(path: string): PageKey | undefined {
    // The version whose folder is the longest start of the path (a site of one folder has the empty one).
    const version = this.versions
      .filter((candidate) => path.startsWith(candidate.path))
      .reduce<SiteVersion | undefined>(
        (best, candidate) => (best && best.path.length >= candidate.path.length ? best : candidate),
        undefined,
      );
    return version && { version, file: fileForPath(path.slice(version.path.length)) };
  }

  /** Takes a page's links (see `fragmentLinks`). */
  add(links: readonly string[]): void {
    for (const link of links) {
      const hash = link.indexOf('#');
      const page = this.pageOf(link.slice(0, hash));
      if (!page) continue;
      const key = `${page.version.path}${page.file}`;
      const fragments = this.targets.get(key) ?? new Set();
      this.targets.set(key, fragments.add(link.slice(hash + 1)));
    }
  }

  /** The fragments of a page that links point to. */
  of(page: PageKey): ReadonlySet<string> {
    return this.targets.get(`${page.version.path}${page.file}`) ?? new Set();
  }
}
