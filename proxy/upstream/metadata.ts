import { Cache, timed, type Freshness, type Timed } from '../http/cache.ts';
import { ProxyError } from '../http/errors.ts';
import type { Credential, ProjectSummary, SubprojectSummary, UpstreamApi, VersionSummary } from './api.ts';

/** How a project came into scope. */
export type ScopeRole = 'project' | 'subproject' | 'translation';

export interface ScopedProject {
  project: ProjectSummary;
  role: ScopeRole;
  /** Projects this one is searched with when subprojects are included. */
  alias?: string;
  /** A subproject's parent: the configured project it is searched with. */
  parent?: string;
}

/**
 * Project, version, translation and subproject data from the upstream, cached per credential in the
 * proxy's one cache: one request for concurrent askers, stale data served while it refreshes and while
 * the upstream fails, as long as `freshness` says.
 */
export class Metadata {
  private readonly cache: Cache<Timed<unknown>>;

  constructor(
    private readonly api: UpstreamApi,
    private readonly configured: readonly string[],
    private readonly withSubprojects: boolean,
    private readonly freshness: Freshness,
    /** Bytes for what is kept, per credential scope in session mode: a share of `--cache-bytes`. */
    readonly maxBytes: number,
    staleCovers: (error: unknown) => boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new Cache({ maxBytes, sizeOf: (entry) => approximateBytes(entry.value), staleCovers, now });
  }

  get bytes(): number {
    return this.cache.size.bytes;
  }

  project(slug: string, credential: Credential, scopeKey: string): Promise<ProjectSummary> {
    return this.memo(`${scopeKey}|project|${slug}`, () => this.api.project(slug, credential));
  }

  versions(slug: string, credential: Credential, scopeKey: string): Promise<VersionSummary[]> {
    return this.memo(`${scopeKey}|versions|${slug}`, () => this.api.versions(slug, credential));
  }

  translations(slug: string, credential: Credential, scopeKey: string): Promise<ProjectSummary[]> {
    return this.memo(`${scopeKey}|translations|${slug}`, () => this.api.translations(slug, credential));
  }

  subprojects(slug: string, credential: Credential, scopeKey: string): Promise<SubprojectSummary[]> {
    return this.memo(`${scopeKey}|subprojects|${slug}`, () => this.api.subprojects(slug, credential));
  }

  /**
   * Every project reachable through the proxy: the configured ones, their translations, and (when
   * configured) their subprojects and the subprojects' translations.
   */
  scope(credential: Credential, scopeKey: string): Promise<Map<string, ScopedProject>> {
    return this.memo(`${scopeKey}|scope`, async () => {
      const scope = new Map<string, ScopedProject>();
      const addWithTranslations = async (project: ProjectSummary, role: ScopeRole, alias?: string, parent?: string) => {
        scope.set(project.slug, { project, role, ...(alias ? { alias } : {}), ...(parent ? { parent } : {}) });
        const translations = await this.translations(project.slug, credential, scopeKey).catch(ignoreMissing);
        for (const translation of translations)
          if (!scope.has(translation.slug)) scope.set(translation.slug, { project: translation, role: 'translation' });
      };
      await Promise.all(
        this.configured.map(async (slug) => {
          const project = await this.project(slug, credential, scopeKey).catch((error: unknown) => {
            if (error instanceof ProxyError && error.status === 404) return undefined;
            throw error;
          });
          if (!project) return;
          await addWithTranslations(project, 'project');
          if (!this.withSubprojects) return;
          const children = await this.subprojects(slug, credential, scopeKey).catch(ignoreMissing);
          await Promise.all(children.map((child) => addWithTranslations(child.child, 'subproject', child.alias, slug)));
        }),
      );
      return scope;
    });
  }

  private async memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    const { entry } = await this.cache.get(key, async () => timed(await load(), this.freshness, this.now()));
    return entry.value as T;
  }
}

/**
 * Memory a value of plain objects, arrays and maps takes, from its JSON: V8 stores these strings in
 * one or two bytes a character and adds object headers and fields, about three times the JSON.
 */
function approximateBytes(value: unknown): number {
  const json = JSON.stringify(value, (_key, item: unknown) => (item instanceof Map ? [...item.values()] : item)) ?? '';
  return json.length * 3 + 256;
}

/** A list the upstream does not have for a project (a 404) is an empty list. */
function ignoreMissing(error: unknown): never[] {
  if (error instanceof ProxyError && error.status === 404) return [];
  throw error;
}
