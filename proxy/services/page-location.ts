import { percentDecoded } from '../../extraction/structure/tree.ts';
import type { ProjectSummary } from '../upstream/api.ts';
import type { ScopedProject } from '../upstream/metadata.ts';

/** Where a page sits: its project, version and path below the version's root. */
export interface PageLocation {
  project: ProjectSummary;
  versionSlug: string;
  /** Path below the version root, such as `guide/install.html` (empty for the root). */
  path: string;
}

/** The documentation root of a project without its `<language>/<version>/` tail. */
function projectRoot(project: ProjectSummary): string | undefined {
  const match = /^(.*\/)[^/]+\/[^/]+\/?$/.exec(project.urls.documentation);
  return match?.[1];
}

/**
 * Finds which project in scope a page URL belongs to, by the longest documentation root it starts with
 * (a subproject's `/projects/<alias>/` root is longer than its parent's), or by the slug given.
 */
export function locatePage(
  url: URL,
  scope: ReadonlyMap<string, ScopedProject>,
  projectSlug?: string,
  versionSlug?: string,
): PageLocation | undefined {
  const page = url.origin + url.pathname;
  const candidates = projectSlug ? [scope.get(projectSlug)].filter((entry) => entry !== undefined) : [...scope.values()];
  let best: { project: ProjectSummary; root: string } | undefined;
  for (const { project } of candidates) {
    const root = projectRoot(project);
    if (!root || !page.startsWith(root)) continue;
    // Translations share the parent's root: the language segment tells them apart.
    const language = page.slice(root.length).split('/')[0];
    if (!projectSlug && language !== project.language.code) continue;
    if (!best || root.length > best.root.length) best = { project, root };
  }
  if (!best) {
    const named = projectSlug ? scope.get(projectSlug) : undefined;
    return named && versionSlug ? { project: named.project, versionSlug, path: '' } : undefined;
  }
  const [, urlVersion = '', ...rest] = page.slice(best.root.length).split('/');
  return { project: best.project, versionSlug: versionSlug ?? percentDecoded(urlVersion), path: rest.join('/') };
}

/** The project whose translations a project's languages are: its original when that is in scope, else itself. */
export function mainProject(project: ProjectSummary, scope: ReadonlyMap<string, ScopedProject>): ProjectSummary {
  return (project.translation_of && scope.get(project.translation_of.slug)?.project) ?? project;
}
