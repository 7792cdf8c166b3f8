import type { PageContext } from '../../contract/index.ts';
import { ProxyError } from '../http/errors.ts';
import type { ProjectSummary, VersionSummary } from '../upstream/api.ts';
import type { ScopedProject } from '../upstream/metadata.ts';
import { pageContextAnswer, pagesToCheck, type PageContextFacts } from './page-context-answer.ts';
import { locatePage, mainProject } from './page-location.ts';

/** Where a page context's facts come from, with the reader's credential already bound. */
export interface PageContextSources {
  scope(): Promise<ReadonlyMap<string, ScopedProject>>;
  versions(projectSlug: string): Promise<VersionSummary[]>;
  translations(projectSlug: string): Promise<ProjectSummary[]>;
  /** Whether a page exists; null when it cannot be told. */
  exists(url: string): Promise<boolean | null>;
}

export interface PageContextRequest {
  /** The page, without its query and fragment. */
  url: URL;
  /** The project and version the page belongs to, when its URL does not tell. */
  project?: string | undefined;
  version?: string | undefined;
}

/** Everything the version switcher needs for one page: its project and version, and the same page in the other versions and languages. */
export async function buildPageContext(sources: PageContextSources, request: PageContextRequest): Promise<PageContext> {
  const scope = await sources.scope();
  if (request.project && !scope.has(request.project))
    throw new ProxyError(404, 'project_not_allowed', `Project "${request.project}" is not available through this proxy.`);
  const location = locatePage(request.url, scope, request.project, request.version);
  if (!location) throw new ProxyError(404, 'not_found', 'The page belongs to no project available through this proxy.');
  const { project } = location;
  const main = mainProject(project, scope);
  const [versions, translations] = await Promise.all([sources.versions(project.slug), sources.translations(main.slug)]);
  const languages = await Promise.all(
    [main, ...translations].map(async (language) => ({
      project: language,
      // A translation whose versions cannot be read is still offered, at its default version.
      versions: language.slug === project.slug ? versions : await sources.versions(language.slug).catch(() => []),
    })),
  );
  const facts: PageContextFacts = { location, versions, languages };
  const existence = await Promise.all(pagesToCheck(facts).map(async (url) => [url, await sources.exists(url)] as const));
  const subprojects = [...scope.values()].filter((entry) => entry.role === 'subproject' && entry.parent === main.slug).length;
  return { ...pageContextAnswer(facts, new Map(existence)), subprojects };
}
