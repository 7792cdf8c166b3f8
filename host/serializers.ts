import type { Project, Registry, Version } from './registry.ts';

/** Every object of the demo host was created and last changed at the same moment: responses are stable. */
const TIMESTAMP = '2026-01-15T10:00:00.000000Z';

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  pt: 'Portuguese',
  it: 'Italian',
  ja: 'Japanese',
  zh: 'Chinese',
  ru: 'Russian',
  ko: 'Korean',
  nl: 'Dutch',
  pl: 'Polish',
};

const PROGRAMMING_LANGUAGE_NAMES: Record<string, string> = {
  py: 'Python',
  js: 'JavaScript',
  ts: 'TypeScript',
  go: 'Go',
  rb: 'Ruby',
  rs: 'Rust',
  c: 'C',
  cpp: 'C++',
  java: 'Java',
  words: 'Only Words',
  other: 'Other',
};

/** Builds the hosting service's JSON shapes for the objects of a registry. */
export class Serializers {
  constructor(
    private readonly registry: Registry,
    /** `http://HOST:PORT` of the API, for links to the dashboard. */
    private readonly apiOrigin: string,
  ) {}

  private projectPath(project: Project): string {
    return `/api/v3/projects/${project.slug}/`;
  }

  private vcsUrl(version: Version): string {
    const repository = version.project.repository.replace(/\.git$/, '');
    return repository ? `${repository}/tree/${version.identifier}/` : '';
  }

  build(version: Version, withConfig: boolean): Record<string, unknown> {
    const project = version.project;
    const build: Record<string, unknown> = {
      id: version.id * 1000,
      version: version.slug,
      project: project.slug,
      created: TIMESTAMP,
      finished: TIMESTAMP,
      duration: 42,
      state: { code: 'finished', name: 'Finished' },
      success: true,
      error: null,
      commit: version.identifier,
      _links: {
        _self: `${this.projectPath(project)}builds/${version.id * 1000}/`,
        project: this.projectPath(project),
        version: `${this.projectPath(project)}versions/${version.slug}/`,
      },
    };
    if (withConfig) {
      build.config = { version: '2', formats: Object.keys(version.downloads), build: { image: 'ubuntu-24.04' }, doctype: 'html' };
    }
    return build;
  }

  /** Version (v3). `expand` takes `last_build` and `last_build.config`. */
  version(version: Version, expand: ReadonlySet<string> = new Set()): Record<string, unknown> {
    const project = version.project;
    const shape: Record<string, unknown> = {
      id: version.id,
      slug: version.slug,
      verbose_name: version.verboseName,
      identifier: version.identifier,
      ref: version.ref,
      built: version.root !== undefined,
      active: version.active,
      hidden: version.hidden,
      type: version.type,
      privacy_level: version.privacyLevel,
      downloads: version.downloads,
      urls: {
        documentation: this.registry.docsUrl(version),
        vcs: this.vcsUrl(version),
        dashboard: { edit: `${this.apiOrigin}/dashboard/${project.slug}/version/${version.slug}/edit/` },
      },
      _links: {
        _self: `${this.projectPath(project)}versions/${version.slug}/`,
        builds: `${this.projectPath(project)}versions/${version.slug}/builds/`,
        project: this.projectPath(project),
      },
    };
    if (expand.has('last_build') && shape.built) shape.last_build = this.build(version, expand.has('last_build.config'));
    return shape;
  }

  /**
   * Project (v3). `expand` takes `active_versions`, `active_versions.last_build` and
   * `active_versions.last_build.config`; the projects it nests are shown without nesting further.
   */
  project(project: Project, expand: ReadonlySet<string> = new Set(), nest = true): Record<string, unknown> {
    const defaultVersion = project.versions.find((version) => version.slug === project.defaultVersion)!;
    const shape: Record<string, unknown> = {
      id: project.id,
      name: project.name,
      slug: project.slug,
      created: TIMESTAMP,
      modified: TIMESTAMP,
      language: { code: project.language, name: LANGUAGE_NAMES[project.language] ?? project.language },
      programming_language: {
        code: project.programmingLanguage,
        name: PROGRAMMING_LANGUAGE_NAMES[project.programmingLanguage] ?? project.programmingLanguage,
      },
      repository: { url: project.repository, type: 'git' },
      default_version: project.defaultVersion,
      default_branch: project.defaultBranch,
      subproject_of: nest && project.subprojectOf ? this.project(project.subprojectOf, new Set(), false) : null,
      translation_of: nest && project.translationOf ? this.project(project.translationOf, new Set(), false) : null,
      urls: {
        documentation: this.registry.docsUrl(defaultVersion),
        home: `${this.apiOrigin}/projects/${project.slug}/`,
      },
      tags: project.tags,
      users: [{ username: 'demo' }],
      versioning_scheme: 'multiple_versions_with_translations',
      _links: {
        _self: this.projectPath(project),
        versions: `${this.projectPath(project)}versions/`,
        builds: `${this.projectPath(project)}builds/`,
        subprojects: `${this.projectPath(project)}subprojects/`,
        superproject: `${this.projectPath(project)}superproject/`,
        redirects: `${this.projectPath(project)}redirects/`,
        translations: `${this.projectPath(project)}translations/`,
      },
    };
    if (expand.has('active_versions')) {
      const versionExpand = new Set(
        [...expand].filter((key) => key.startsWith('active_versions.')).map((key) => key.slice('active_versions.'.length)),
      );
      shape.active_versions = Object.fromEntries(
        project.versions.filter((version) => version.active).map((version) => [version.slug, this.version(version, versionExpand)]),
      );
    }
    return shape;
  }

  subproject(child: Project): Record<string, unknown> {
    return {
      alias: child.alias,
      child: this.project(child),
      _links: { parent: child.subprojectOf ? this.projectPath(child.subprojectOf) : null },
    };
  }

  /** Project (v2). */
  projectV2(project: Project): Record<string, unknown> {
    const defaultVersion = project.versions.find((version) => version.slug === project.defaultVersion)!;
    return {
      id: project.id,
      name: project.name,
      slug: project.slug,
      description: '',
      language: project.language,
      programming_language: project.programmingLanguage,
      repo: project.repository,
      repo_type: 'git',
      default_version: project.defaultVersion,
      default_branch: project.defaultBranch,
      documentation_type: 'sphinx',
      canonical_url: this.registry.docsUrl(defaultVersion),
      users: [1],
    };
  }

  /** Version (v2). */
  versionV2(version: Version): Record<string, unknown> {
    return {
      id: version.id,
      slug: version.slug,
      verbose_name: version.verboseName,
      built: version.root !== undefined,
      active: version.active,
      type: version.type,
      identifier: version.identifier,
      privacy_level: version.privacyLevel,
      downloads: version.downloads,
      project: this.projectV2(version.project),
    };
  }
}
