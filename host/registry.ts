import type { Manifest, ProjectEntry, VersionEntry } from './manifest.ts';

export interface Version extends Omit<VersionEntry, 'path' | 'verboseName' | 'identifier'> {
  id: number;
  verboseName: string;
  identifier: string;
  /** Absolute folder of built HTML; undefined when the version is not built. */
  root: string | undefined;
  project: Project;
}

export interface Project extends Omit<ProjectEntry, 'versions' | 'translationOf' | 'subprojectOf'> {
  id: number;
  versions: Version[];
  /** The project this one translates. */
  translationOf: Project | undefined;
  /** The parent of a subproject (of its main project, for a translated subproject). */
  subprojectOf: Project | undefined;
  translations: Project[];
  subprojects: Project[];
  site: Site;
}

/** A documentation domain: one top-level project with its translations and subprojects. */
export interface Site {
  main: Project;
  /** `http://127.0.0.1:PORT`, known once the site listens. */
  origin: string;
}

/** A documentation page a URL points to. */
export interface PageLocation {
  project: Project;
  version: Version;
  /** Path of the HTML file below the version's folder, decoded, without a leading slash. */
  file: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function sameDocsOrigin(a: URL, b: URL): boolean {
  if (a.protocol !== b.protocol || a.port !== b.port) return false;
  return a.hostname === b.hostname || (LOOPBACK_HOSTS.has(a.hostname) && LOOPBACK_HOSTS.has(b.hostname));
}

/** `guide/`, `guide` (a folder) and `guide/index.html` name the same file, as on a static host. */
export function fileForPath(path: string): string {
  return path === '' || path.endsWith('/') ? `${path}index.html` : path;
}

export class Registry {
  readonly projects: Project[];
  readonly sites: Site[];
  private readonly bySlug: Map<string, Project>;

  constructor(manifest: Manifest) {
    let versionId = 0;
    this.projects = manifest.projects.map((entry, index) => {
      const project = {
        ...entry,
        id: index + 1,
        versions: [] as Version[],
        translationOf: undefined,
        subprojectOf: undefined,
        translations: [],
        subprojects: [],
      } as unknown as Project;
      project.versions = entry.versions.map((version) => this.buildVersion(version, project, ++versionId));
      return project;
    });
    this.bySlug = new Map(this.projects.map((project) => [project.slug, project]));
    for (const [index, entry] of manifest.projects.entries()) {
      const project = this.projects[index]!;
      if (entry.translationOf) {
        project.translationOf = this.bySlug.get(entry.translationOf);
        project.translationOf?.translations.push(project);
      }
      if (entry.subprojectOf) {
        project.subprojectOf = this.bySlug.get(entry.subprojectOf);
        project.subprojectOf?.subprojects.push(project);
      }
    }
    this.sites = [];
    for (const project of this.projects) {
      if (project.translationOf || project.subprojectOf) continue;
      const site: Site = { main: project, origin: '' };
      this.sites.push(site);
      this.assignSite(project, site);
    }
  }

  private buildVersion(entry: VersionEntry, project: Project, id: number): Version {
    const { path, verboseName, identifier, ...rest } = entry;
    return { ...rest, id, verboseName: verboseName ?? entry.slug, identifier: identifier ?? entry.slug, root: path, project };
  }

  private assignSite(project: Project, site: Site): void {
    project.site = site;
    for (const related of [...project.translations, ...project.subprojects]) this.assignSite(related, site);
  }

  project(slug: string): Project | undefined {
    return this.bySlug.get(slug);
  }

  projectById(id: number): Project | undefined {
    return this.projects.find((project) => project.id === id);
  }

  versionById(id: number): Version | undefined {
    return this.projects.flatMap((project) => project.versions).find((version) => version.id === id);
  }

  /** A subproject's alias, whether asked for the subproject or one of its translations. */
  aliasOf(project: Project): string | undefined {
    return project.alias ?? project.translationOf?.alias;
  }

  /** The path prefix of a project on its site: empty, or `/projects/<alias>`. */
  basePath(project: Project): string {
    const alias = this.aliasOf(project);
    return alias ? `/projects/${alias}` : '';
  }

  docsUrl(version: Version, file = ''): string {
    const project = version.project;
    return `${project.site.origin}${this.basePath(project)}/${project.language}/${version.slug}/${file}`;
  }

  /** Projects on a site that a path prefix can name: the main project (or the subproject) and translations. */
  private projectsAt(site: Site, alias: string | undefined): Project[] {
    const owner = alias ? site.main.subprojects.find((project) => project.alias === alias) : site.main;
    return owner ? [owner, ...owner.translations] : [];
  }

  /** The page a path on `site` names, or a reason it names none. */
  resolvePath(site: Site, pathname: string): PageLocation | undefined {
    let segments: string[];
    try {
      segments = pathname.split('/').map((segment) => decodeURIComponent(segment));
    } catch {
      return undefined;
    }
    segments.shift();
    let alias: string | undefined;
    if (segments[0] === 'projects' && segments.length > 1) {
      alias = segments[1];
      segments = segments.slice(2);
    }
    const [language, versionSlug, ...rest] = segments;
    if (!language || !versionSlug) return undefined;
    if (rest.some((segment) => segment === '..' || segment === '.' || segment.includes('\0') || segment.includes('\\'))) {
      return undefined;
    }
    const project = this.projectsAt(site, alias).find((candidate) => candidate.language === language);
    const version = project?.versions.find((candidate) => candidate.slug === versionSlug);
    if (!project || !version) return undefined;
    return { project, version, file: fileForPath(rest.join('/')) };
  }

  /** The site whose origin `url` is on, treating the loopback names as one host. */
  siteFor(url: URL): Site | undefined {
    return this.sites.find((site) => site.origin && sameDocsOrigin(new URL(site.origin), url));
  }

  resolveUrl(url: URL): PageLocation | undefined {
    const site = this.siteFor(url);
    return site && this.resolvePath(site, url.pathname);
  }
}
