/**
 * The files `doclens build` writes beside a built site, which the widget reads in static mode instead of
 * asking a proxy. Every path is relative to the folder of these files (`_doclens/` by default).
 */
import type { EmbedPreview } from './embed.ts';
import type { Language, VersionStatus } from './page-context.ts';

/** `site.json`: the projects, versions and translations of the site. */
export interface StaticSiteFile {
  format: 1;
  /** The site's root, relative to this file's folder (`../`). */
  root: string;
  /** The origin the build wrote previews' links under, for the site's own (which it cannot know): the widget puts back the root. */
  origin: string;
  projects: StaticProject[];
}

export interface StaticProject {
  slug: string;
  name: string;
  language: Language;
  default_version: string;
  /** The project it translates (the main project lists none). */
  translation_of: string | null;
  /** Its versions readers can open, in the switcher's order. */
  versions: StaticVersion[];
}

export interface StaticVersion {
  slug: string;
  verbose_name: string;
  type: string;
  /** Whether it is older than stable or a development version. */
  status: VersionStatus;
  /** For `stable`, the release it points to. */
  release: string | null;
  downloads: Partial<Record<'pdf' | 'htmlzip' | 'epub', string>>;
  /** Its folder's URL path below the site's root: `en/2.0/`, or empty for a site of one folder. */
  path: string;
  /** The folder of its data below this file's folder: `pages.json`, `previews/`, `search/`. */
  data: string;
}

/** `<data>/pages.json`: the version's pages, as paths below its folder (`guide/install.html`). */
export interface StaticPageList {
  pages: string[];
  /**
   * The pages that forward the reader at once to another page of the version (a refresh without delay),
   * to where the reader lands (`reference/api/x.html`, with the fragment if any: `x.html#y`): they have
   * no previews of their own, a link to one previews where it lands.
   */
  forwards?: Record<string, string>;
}

/** Previews by fragment: the empty fragment is the page's opening. Links are absolute under `StaticSiteFile.origin`. */
export type StaticPreviews = Record<string, Pick<EmbedPreview, 'title' | 'content' | 'truncated'>>;

/**
 * `<data>/previews/<page>.json`: the previews of a page's opening and of every target in it that the site
 * links to. A page with many (an API reference) has them in parts, `<page>.<n>.json`, fragments in sorted
 * order: `parts[n]` is the first fragment of part n, and this file holds the opening alone.
 */
export interface StaticPreviewFile {
  previews: StaticPreviews;
  parts?: string[];
}
