import type { ContextTranslation, ContextVersion, PageContext } from '../../contract/index.ts';
import type { ProjectSummary, VersionSummary } from '../upstream/api.ts';
import type { PageLocation } from './page-location.ts';
import { compareVersions, versionStatus } from '../../versions/version-order.ts';

/** A language of the page's project (the main project or a translation) with its versions. */
export interface ProjectLanguage {
  project: ProjectSummary;
  versions: readonly VersionSummary[];
}

/** What a page context is built from, once read from the upstream. */
export interface PageContextFacts {
  location: PageLocation;
  /** Every version of the page's project. */
  versions: readonly VersionSummary[];
  /** The project's languages, its own among them. */
  languages: readonly ProjectLanguage[];
}

/** The same page under another documentation root. */
interface SamePage {
  current: boolean;
  url: string;
  root_url: string;
}

function samePage(documentationUrl: string, path: string, current: boolean): SamePage {
  const root = documentationUrl.endsWith('/') ? documentationUrl : `${documentationUrl}/`;
  return { current, url: root + path, root_url: root };
}

/** The same page in every version readers can open (in switcher order) and in every language. */
function samePages({ location, versions, languages }: PageContextFacts) {
  const listed = versions.filter((version) => version.active && !version.hidden && version.built).sort(compareVersions);
  return {
    listed,
    versions: listed.map((version) => ({
      version,
      page: samePage(version.urls.documentation, location.path, version.slug === location.versionSlug),
    })),
    translations: languages.map(({ project, versions: translated }) => {
      const own = project.slug === location.project.slug;
      // The same version when the translation has it, else its default one: the same page either way.
      const sameVersion = (own ? listed : translated).find((version) => version.slug === location.versionSlug && version.active);
      return { project, page: samePage(sameVersion?.urls.documentation ?? project.urls.documentation, location.path, own) };
    }),
  };
}

/** The pages whose existence the answer tells: the page in other versions and languages (the current one is there). */
export function pagesToCheck(facts: PageContextFacts): string[] {
  const { versions, translations } = samePages(facts);
  return [...versions, ...translations].filter(({ page }) => !page.current).map(({ page }) => page.url);
}

/** The version switcher's answer for one page; `existence` holds what was found of `pagesToCheck` (null: cannot be told). */
export function pageContextAnswer(
  facts: PageContextFacts,
  existence: ReadonlyMap<string, boolean | null>,
): Omit<PageContext, 'subprojects'> {
  const { project, versionSlug, path } = facts.location;
  const { listed, versions, translations } = samePages(facts);
  const exists = (page: SamePage) => (page.current ? true : (existence.get(page.url) ?? null));
  const contextVersions = versions.map(
    ({ version, page }): ContextVersion => ({
      slug: version.slug,
      verbose_name: version.verbose_name,
      type: version.type,
      ...page,
      exists: exists(page),
      downloads: version.downloads,
    }),
  );
  const contextTranslations = translations.map(
    ({ project: translation, page }): ContextTranslation => ({
      slug: translation.slug,
      name: translation.name,
      language: translation.language,
      ...page,
      exists: exists(page),
    }),
  );
  const stableEntry =
    contextVersions.find((version) => version.slug === 'stable') ??
    contextVersions.find((version) => version.slug === project.default_version);
  const stable = stableEntry
    ? {
        slug: stableEntry.slug,
        verbose_name: stableEntry.verbose_name,
        // What `stable` points to (`2.0`), so that readers of `1.0` can be told it is older.
        release: listed.find((version) => version.slug === stableEntry.slug)?.ref ?? stableEntry.slug,
        url: stableEntry.exists === false ? stableEntry.root_url : stableEntry.url,
      }
    : null;
  const current = listed.find((version) => version.slug === versionSlug);
  const version = current
    ? { slug: current.slug, verbose_name: current.verbose_name, type: current.type }
    : { slug: versionSlug, verbose_name: versionSlug, type: 'unknown' };
  return {
    project: { slug: project.slug, name: project.name, language: project.language, default_version: project.default_version },
    version: { ...version, status: versionStatus(version, stable) },
    path,
    versions: contextVersions,
    translations: contextTranslations.sort((a, b) => a.language.code.localeCompare(b.language.code)),
    stable,
  };
}
