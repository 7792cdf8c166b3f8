import { Parser } from 'htmlparser2';
import { fileForPath } from '../host/registry.ts';
import type { SiteVersion } from './site.ts';

/** A page of the site, by its version's folder and its file in it. */
export interface PageKey {
  version: SiteVersion;
  file: string;
}

/**
 * The targets the site's links point to, by page: every fragment some page links to, which previews
 * are written for (a link's target can be any element with an id; the site's own links say which).
 */
export class LinkTargets {
  private readonly targets = new Map<string, Set<string>>();

  constructor(
    private readonly versions: readonly SiteVersion[],
    /** The origin pages are read under (the site's own is unknown to the build). */
    private readonly origin: string,
  ) {}

  /** The page a URL names on the site, if any. */
  pageOf(url: URL): PageKey | undefined {
    if (url.origin !== new URL(this.origin).origin) return undefined;
    let path: string;
    try {
      path = decodeURIComponent(url.pathname.slice(1));
    } catch {
      return undefined;
    }
    // The version whose folder is the longest start of the path (a site of one folder has the empty one).
    const version = this.versions
      .filter((candidate) => path.startsWith(candidate.path))
      .reduce<SiteVersion | undefined>(
        (best, candidate) => (best && best.path.length >= candidate.path.length ? best : candidate),
        undefined,
      );
    return version && { version, file: fileForPath(path.slice(version.path.length)) };
  }

  /** Reads the links of one page (a tokenizer, no tree: a page's links are all this pass needs). */
  read(page: PageKey, html: string): void {
    const base = new URL(page.version.path + page.file, this.origin);
    const parser = new Parser({
      onopentag: (name, attributes) => {
        const href = name === 'a' ? attributes.href : undefined;
        if (!href?.includes('#')) return;
        let url: URL;
        try {
          url = new URL(href, base);
        } catch {
          return;
        }
        const fragment = url.hash.slice(1);
        const target = fragment ? this.pageOf(url) : undefined;
        if (target) this.add(target, fragment);
      },
    });
    parser.end(html);
  }

  private add(page: PageKey, fragment: string): void {
    const key = `${page.version.path}${page.file}`;
    const fragments = this.targets.get(key) ?? new Set();
    this.targets.set(key, fragments.add(fragment));
  }

  /** The fragments of a page that links point to. */
  of(page: PageKey): ReadonlySet<string> {
    return this.targets.get(`${page.version.path}${page.file}`) ?? new Set();
  }
}
