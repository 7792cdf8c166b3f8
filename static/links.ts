import type { StartTagObserver } from '../extraction/html/parse.ts';
import { fileForPath } from '../host/registry.ts';
import type { SiteVersion } from './site.ts';

/** A page of the site, by its version's folder and its file in it. */
export interface PageKey {
  version: SiteVersion;
  file: string;
}

/** A page's path below the site's root, folder and file: what `LinkTargets` knows it by. */
export const pagePath = (page: PageKey): string => `${page.version.path}${page.file}`;

/**
 * The links of a page that name a fragment of a page of the same origin, each once, as `path#fragment`
 * (the path below the origin, percent-decoded), from the start tags of the page's parse (`parseContent`).
 */
export class FragmentLinks {
  private readonly base: URL;
  private readonly links = new Set<string>();

  constructor(pageUrl: string) {
    this.base = new URL(pageUrl);
  }

  readonly observe: StartTagObserver = (name, attributes) => {
    const href = name === 'a' ? attributes.href : undefined;
    if (!href?.includes('#')) return;
    let url: URL;
    let path: string;
    try {
      url = new URL(href, this.base);
      path = decodeURIComponent(url.pathname.slice(1));
    } catch {
      return;
    }
    if (url.hash.length > 1 && url.origin === this.base.origin) this.links.add(`${path}#${url.hash.slice(1)}`);
  };

  list(): string[] {
    return [...this.links];
  }
}

/**
 * The targets the site's links point to, by page: every fragment some page links to, which previews
 * are written for (a link's target can be any element with an id; the site's own links say which),
 * in the order the links were added.
 */
export class LinkTargets {
  private readonly targets = new Map<string, Set<string>>();

  /** `versionPaths`: the folders of the site's versions (see `SiteVersion.path`). */
  constructor(private readonly versionPaths: readonly string[]) {}

  /** The folder of the version a path below the site's root is in: the longest that starts it (a site of one folder has the empty one). */
  folderOf(path: string): string | undefined {
    return this.versionPaths
      .filter((candidate) => path.startsWith(candidate))
      .reduce<string | undefined>(
        (best, candidate) => (best !== undefined && best.length >= candidate.length ? best : candidate),
        undefined,
      );
  }

  /** The path of the page a link's path names (see `pagePath`), if any. */
  pageOf(path: string): string | undefined {
    const folder = this.folderOf(path);
    return folder === undefined ? undefined : `${folder}${fileForPath(path.slice(folder.length))}`;
  }

  /** Takes a page's links (see `FragmentLinks`). */
  add(links: readonly string[]): void {
    for (const link of links) {
      const hash = link.indexOf('#');
      const page = this.pageOf(link.slice(0, hash));
      if (page === undefined) continue;
      const fragments = this.targets.get(page) ?? new Set();
      this.targets.set(page, fragments.add(link.slice(hash + 1)));
    }
  }

  /** The pages links point to, by their version's folder and their file in it, in the order the links were added. */
  pages(): { folder: string; file: string }[] {
    return [...this.targets.keys()].map((page) => {
      const folder = this.folderOf(page)!;
      return { folder, file: page.slice(folder.length) };
    });
  }

  /** The fragments of a page (by its `pagePath`) that links point to. */
  of(page: string): ReadonlySet<string> {
    return this.targets.get(page) ?? new Set();
  }
}
