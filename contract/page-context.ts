/** `GET /api/v3/page-context/?url=…`: everything the version switcher needs for one page. */
export interface PageContext {
  project: { slug: string; name: string; language: Language; default_version: string };
  version: { slug: string; verbose_name: string; type: string; status: VersionStatus };
  /** The page's path below its version's root (`guide/install.html`; empty for the root). */
  path: string;
  /** Active, built, non-hidden versions: `latest` and `stable`, releases newest first, then branches. */
  versions: ContextVersion[];
  translations: ContextTranslation[];
  /** The stable version, and the release it points to. */
  stable: { slug: string; verbose_name: string; release: string; url: string } | null;
  /** How many subprojects of the page's project are searched with it when the reader includes them (0: none to include). */
  subprojects: number;
}

/** `old`: a release older than stable; `dev`: `latest` or another branch; null otherwise. */
export type VersionStatus = 'old' | 'dev' | null;

export interface Language {
  code: string;
  name: string;
}

/** The same page in another version or translation. */
interface SamePage {
  current: boolean;
  url: string;
  /** The start page of that version or translation, where a missing page leads instead. */
  root_url: string;
  /** Whether the page is there; null when the proxy cannot tell (session credentials, a failed check). */
  exists: boolean | null;
}

export interface ContextVersion extends SamePage {
  slug: string;
  verbose_name: string;
  type: string;
  downloads: Partial<Record<'pdf' | 'htmlzip' | 'epub', string>>;
}

export interface ContextTranslation extends SamePage {
  slug: string;
  name: string;
  language: Language;
}
