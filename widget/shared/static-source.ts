import type {
  ContextTranslation,
  ContextVersion,
  EmbedPreview,
  PageContext,
  SearchResponse,
  StaticPageList,
  StaticPreviewFile,
  StaticPreviews,
  StaticProject,
  StaticSiteFile,
  StaticVersion,
} from '../../contract/index.ts';
import { fetchBytes, fetchJson, ProxyRequestError, type DataSource, type PageContextParams, type SearchParams } from './api.ts';
import type { VersionSearch } from './static-search.ts';

/** A page of the static site: its project, its version, and its path below the version's folder. */
interface Located {
  project: StaticProject;
  version: StaticVersion;
  path: string;
}

const notFound = (message: string) => new ProxyRequestError('not_found', 404, 'not_found', message);

/**
 * The file of the version's `pages` that `path` opens, as a static server finds it: `guide/` is the folder's
 * `index.html`, and so is `guide` (MkDocs' links written without the slash, which servers redirect), else
 * `guide.html`; undefined for a page the build did not write.
 */
function pageFile({ pages }: StaticPageList, path: string): string | undefined {
  const files = path === '' || path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`, `${path}.html`];
  return files.find((file) => pages.includes(file));
}

/** A forward's page and fragment (see `StaticPageList.forwards`). */
function splitFragment(forward: string): [string, string] {
  const hash = forward.indexOf('#');
  return hash === -1 ? [forward, ''] : [forward.slice(0, hash), forward.slice(hash + 1)];
}

const encodedPath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

/**
 * The files `doclens build` wrote (`data-static` on the tag names their folder), as a data source:
 * answers in the proxy's shapes, built in the browser from the site's versions, page lists and previews.
 */
export class StaticSource implements DataSource {
  private readonly files = new Map<string, Promise<unknown>>();
  /** The files read so far, for the answers that cannot wait (`mayPreview`). */
  private readonly readFiles = new Map<string, unknown>();
  /** Each version's search, by its data folder, created on the first search (its code a chunk of its own). */
  private readonly searches = new Map<string, VersionSearch>();

  /** `base`: the absolute URL of the build's folder. */
  constructor(private readonly base: string) {}

  /** A file of the build, fetched once for the page's life (a failure is asked again next time). */
  private read<T>(path: string): Promise<T> {
    let pending = this.files.get(path);
    if (!pending) {
      pending = fetchJson(new URL(path, this.base));
      pending.then(
        (file) => this.readFiles.set(path, file),
        () => this.files.delete(path),
      );
      this.files.set(path, pending);
    }
    return pending as Promise<T>;
  }

  private site(): Promise<StaticSiteFile> {
    return this.read<StaticSiteFile>('site.json');
  }

  /** The site's root URL. */
  private root(site: StaticSiteFile): URL {
    return new URL(site.root, this.base);
  }

  /** The page `url` names on the site; a project and version named (and known) take precedence over its URL. */
  private locate(site: StaticSiteFile, url: URL, project?: string, version?: string): Located | undefined {
    const root = this.root(site).href;
    const address = url.origin + url.pathname;
    if (!address.startsWith(root)) return undefined;
    let path: string;
    try {
      path = decodeURIComponent(address.slice(root.length));
    } catch {
      return undefined;
    }
    // The version named, else the one whose folder is the longest start of the path.
    const rank = ({ project: candidate, version: entry }: Located) =>
      (candidate.slug === project && (version === undefined || entry.slug === version) ? 1e6 : 0) + entry.path.length;
    const found = site.projects
      .flatMap((candidate) =>
        candidate.versions.map((entry) => ({ project: candidate, version: entry, path: path.slice(entry.path.length) })),
      )
      .filter((candidate) => path.startsWith(candidate.version.path));
    return found.sort((a, b) => rank(b) - rank(a))[0];
  }

  private async exists(version: StaticVersion, path: string): Promise<boolean | null> {
    try {
      return pageFile(await this.read<StaticPageList>(`${version.data}pages.json`), path) !== undefined;
    } catch {
      return null;
    }
  }

  async pageContext({ url, project, version }: PageContextParams): Promise<PageContext> {
    const site = await this.site();
    const located = this.locate(site, new URL(url), project, version);
    if (!located) throw notFound('The page is not part of this documentation site.');
    const root = this.root(site);
    const { path } = located;
    const main = site.projects.find((entry) => entry.slug === located.project.translation_of) ?? located.project;
    const languages = [main, ...site.projects.filter((entry) => entry.translation_of === main.slug)];
    const samePage = async (entry: StaticVersion, current: boolean) => ({
      current,
      url: new URL(encodedPath(entry.path + path), root).href,
      root_url: new URL(encodedPath(entry.path), root).href,
      exists: current ? true : await this.exists(entry, path),
    });
    const versions = await Promise.all(
      located.project.versions.map(
        async (entry): Promise<ContextVersion> => ({
          slug: entry.slug,
          verbose_name: entry.verbose_name,
          type: entry.type,
          downloads: entry.downloads,
          ...(await samePage(entry, entry === located.version)),
        }),
      ),
    );
    const translations = await Promise.all(
      languages.map(async (language): Promise<ContextTranslation> => {
        const own = language === located.project;
        // The same version where the translation has it, else its default one.
        const same =
          language.versions.find((entry) => entry.slug === located.version.slug) ??
          language.versions.find((entry) => entry.slug === language.default_version) ??
          language.versions[0]!;
        return { slug: language.slug, name: language.name, language: language.language, ...(await samePage(same, own)) };
      }),
    );
    const stableEntry =
      versions.find((entry) => entry.slug === 'stable') ?? versions.find((entry) => entry.slug === located.project.default_version);
    const stableVersion = located.project.versions.find((entry) => entry.slug === stableEntry?.slug);
    return {
      project: {
        slug: located.project.slug,
        name: located.project.name,
        language: located.project.language,
        default_version: located.project.default_version,
      },
      version: {
        slug: located.version.slug,
        verbose_name: located.version.verbose_name,
        type: located.version.type,
        status: located.version.status,
      },
      path,
      versions,
      translations: translations.sort((a, b) => a.language.code.localeCompare(b.language.code)),
      stable:
        stableEntry && stableVersion
          ? {
              slug: stableEntry.slug,
              verbose_name: stableEntry.verbose_name,
              release: stableVersion.release ?? stableEntry.slug,
              url: stableEntry.exists === false ? stableEntry.root_url : stableEntry.url,
            }
          : null,
      subprojects: 0,
    };
  }

  /** A file of the build if it has been read, else undefined (and it is asked for). */
  private readNow<T>(path: string): T | undefined {
    if (!this.readFiles.has(path)) this.read<T>(path).catch(() => undefined);
    return this.readFiles.get(path) as T | undefined;
  }

  /**
   * Whether a link to `url` can preview: not once the site's files show it leads to no page the build wrote
   * (the project's home page beside the docs, another package's documentation on the same host); yes
   * while they are still being read.
   */
  mayPreview(url: string): boolean {
    const site = this.readNow<StaticSiteFile>('site.json');
    if (!site) return true;
    const located = this.locate(site, new URL(url));
    if (!located) return false;
    const pages = this.readNow<StaticPageList>(`${located.version.data}pages.json`);
    return !pages || pageFile(pages, located.path) !== undefined;
  }

  async preview(url: string): Promise<EmbedPreview> {
    const site = await this.site();
    const target = new URL(url);
    const located = this.locate(site, target);
    if (!located) throw notFound('The link leads outside this documentation site.');
    const pages = await this.read<StaticPageList>(`${located.version.data}pages.json`);
    const linked = pageFile(pages, located.path);
    if (!linked) throw notFound('The link leads to no page of this documentation site.');
    // A page that forwards the reader at once: where a browser lands, at the fragment it forwards to if any.
    const forward = pages.forwards?.[linked];
    const [page, fragment] = forward === undefined ? [linked, target.hash.slice(1)] : splitFragment(forward);
    const file = `${located.version.data}previews/${encodedPath(page)}`;
    const { previews, parts } = await this.read<StaticPreviewFile>(`${file}.json`);
    let found = previews[fragment];
    if (!found && fragment && parts) {
      // Parts hold fragments in sorted order, each from the one it names.
      const part = parts.findLastIndex((first) => first <= fragment);
      if (part !== -1) found = (await this.read<StaticPreviews>(`${file}.${part}.json`))[fragment];
    }
    const shown = found ?? previews[''];
    if (!shown) throw notFound('The page has nothing to preview.');
    return {
      url,
      fragment: fragment || null,
      external: false,
      title: shown.title,
      // Links were written under a stand-in origin: the site's root takes its place.
      content: shown.content.replaceAll(site.origin, this.root(site).href),
      truncated: shown.truncated,
      missing_fragment: !found && fragment !== '',
    };
  }

  /** The version a query's scope term names (the widget's `scopedQuery`), else the page's, else the main project's default. */
  private searched(site: StaticSiteFile, q: string): { located: Located | undefined; words: string } {
    const scope = /^(?:project|subprojects):([^/\s]+)(?:\/(\S+))?\s*/.exec(q);
    const words = scope ? q.slice(scope[0].length) : q;
    const project = site.projects.find((entry) => entry.slug === scope?.[1]);
    const version = project?.versions.find((entry) => entry.slug === scope?.[2]);
    if (project && version) return { located: { project, version, path: '' }, words };
    const here = globalThis.location ? this.locate(site, new URL(globalThis.location.href), scope?.[1], scope?.[2]) : undefined;
    const main = site.projects[0];
    const fallback = main?.versions.find((entry) => entry.slug === main.default_version) ?? main?.versions[0];
    return { located: here ?? (main && fallback && { project: main, version: fallback, path: '' }), words };
  }

  async search({ q, page, page_size }: SearchParams, signal?: AbortSignal): Promise<SearchResponse> {
    const site = await this.site();
    const { located, words } = this.searched(site, q);
    if (!located) throw notFound('This documentation site has no versions to search.');
    const { project, version } = located;
    let search = this.searches.get(version.data);
    if (!search) {
      const { VersionSearch } = await import('./static-search.ts');
      const folder = new URL(encodedPath(version.path), this.root(site));
      search = new VersionSearch({ project: project.slug, version: version.slug, folder }, (name, partSignal) =>
        fetchBytes(new URL(`${version.data}search/${name}.json.gz`, this.base), partSignal),
      );
      this.searches.set(version.data, search);
    }
    const [number, size] = [Number(page) || 1, Number(page_size) || 10];
    const { count, results } = await search.search(words, (number - 1) * size, number * size, signal);
    return {
      count,
      next: count > number * size ? `?page=${number + 1}` : null,
      previous: number > 1 ? `?page=${number - 1}` : null,
      projects: [{ slug: project.slug, versions: [{ slug: version.slug }] }],
      query: q.trim().replace(/\s+/g, ' '),
      results,
      indexing: false,
    };
  }
}
