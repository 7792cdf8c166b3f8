import type { ReactiveControllerHost } from 'lit';
import { format, type Strings } from '../shared/i18n.ts';
import { siteName } from '../shared/page.ts';
import type { DataSource } from '../shared/api.ts';
import { pageContextOf } from '../versions/page-context.ts';

/** What is searched: a project (and version), with its subprojects or not; else the proxy's configured projects. */
export interface SearchScope {
  project?: string | undefined;
  version?: string | undefined;
  includeSubprojects: boolean;
}

/** The query sent: the scope as a `project:`/`subprojects:` term, then the reader's words. */
export function scopedQuery(scope: SearchScope, words: string): string {
  const term = scope.project
    ? `${scope.includeSubprojects ? 'subprojects' : 'project'}:${scope.project}${scope.version ? `/${scope.version}` : ''}`
    : '';
  return [term, words.trim()].filter(Boolean).join(' ');
}

interface NamesOptions {
  source: DataSource;
  /** The page the dialog is on (this one when undefined). */
  pageUrl: string | undefined;
  project: string | undefined;
  version: string | undefined;
}

/** The searched project's and version's names, for "Searching Aurora 2.0": the slugs until they are known. */
export class SearchedNames {
  /** Names by `project/version` slugs: what is searched may change. */
  private known?: { key: string; project: string; version: string; versions: number; subprojects: number };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: () => NamesOptions,
  ) {}

  /** Asks the page context (shared with the switcher, asked once per page) for the names. */
  async load(): Promise<void> {
    const { source, pageUrl, project, version } = this.options();
    const key = `${project}/${version}`;
    if (!project || this.known?.key === key) return;
    try {
      const context = await pageContextOf(source, pageUrl, project, version);
      const named = context.project.slug === project && (version === undefined || context.version.slug === version);
      if (!named) return;
      this.known = {
        key,
        project: context.project.name,
        version: version === undefined ? '' : context.version.verbose_name,
        versions: context.versions.length,
        subprojects: context.subprojects,
      };
      this.host.requestUpdate();
    } catch {
      // The slugs stay: a label is no reason to fail the search.
    }
  }

  /** Whether the project searched has subprojects to include (false until known). */
  get hasSubprojects(): boolean {
    const { project, version } = this.options();
    return this.known?.key === `${project}/${version}` && this.known.subprojects > 0;
  }

  /**
   * "Searching Flask Documentation (3.1.x)": the site's name as this page shows it (when the dialog
   * is on this page), else the project's; the version's name where the site's name does not hold one
   * and there are several versions. Nothing when no project is searched.
   */
  label(strings: Strings): string | undefined {
    const { project, version, pageUrl } = this.options();
    if (project === undefined) return undefined;
    const known = this.known?.key === `${project}/${version}` ? this.known : undefined;
    const shown = pageUrl === undefined ? siteName() : undefined;
    const name = shown ?? known?.project ?? project;
    const versionName = known ? (known.versions > 1 ? known.version : '') : (version ?? '');
    return format(strings.searchingIn, { project: name, version: /\d/.test(name) ? '' : versionName }).trim();
  }
}
