import { Router } from 'express';
import { ConcurrencyLimit } from '../http/concurrency.ts';
import { cacheKey, decodedOrAsWritten, onlyParams, queryOf, requiredParam, stringParam } from '../http/params.ts';
import { invalidParameter, ProxyError } from '../http/errors.ts';
import { cacheScopeOf, credentialOf, sendCachedJson, type ProxyContext } from '../context.ts';
import type { Credential, ProjectSummary, VersionSummary } from '../upstream/api.ts';
import type { ScopedProject } from '../upstream/metadata.ts';
import type { PageContext } from '../../widget/shared/api.ts';
import { compareReleases } from './version-order.ts';
import { embedTarget, MAX_URL_LENGTH, type EmbedDomains } from './embed.ts';

export const PAGE_CONTEXT_PARAMS = ['url', 'project', 'version'] as const;
/** Existence checks of other versions' pages running at once, across all requests. */
const MAX_CONCURRENT_CHECKS = 8;

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
export function locatePage(url: URL, scope: ReadonlyMap<string, ScopedProject>, projectSlug?: string, versionSlug?: string): PageLocation | undefined {
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
  return { project: best.project, versionSlug: versionSlug ?? decodedOrAsWritten(urlVersion), path: rest.join('/') };
}

const NAMED_FIRST = ['latest', 'stable'];

/** `old` for a release older than the stable one (a release candidate of a newer one is not), `dev` for `latest` and branches, else null. */
export function versionStatus(current: { slug: string; type: string }, stable: { slug: string; release: string } | null): 'old' | 'dev' | null {
  if (!stable || stable.slug === current.slug || stable.release === current.slug) return null;
  if (current.type === 'tag' && (compareReleases(current.slug, stable.release) ?? 0) < 0) return 'old';
  if (current.slug === 'latest' || current.type === 'branch') return 'dev';
  return null;
}

/** `latest` and `stable` first, then tags newest first, then branches by name. */
export function compareVersions(a: VersionSummary, b: VersionSummary): number {
  const rank = (version: VersionSummary) => {
    const named = NAMED_FIRST.indexOf(version.slug);
    if (named !== -1) return named;
    return version.type === 'tag' ? 2 : 3;
  };
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  // Tags newest first, each pre-release right below its release (`2.0`, `2.0rc1`, `1.0`).
  const byNumbers = a.type === 'tag' && b.type === 'tag' ? (compareReleases(b.slug, a.slug) ?? 0) : 0;
  return byNumbers || a.slug.localeCompare(b.slug);
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/** The version switcher's data for one page, in one answer. */
export function pageContextRouter(context: ProxyContext, domains: EmbedDomains): Router {
  const router = Router();

  /** Whether a page exists (HEAD on the docs domain, no credential); null when it cannot be told. */
  // Projects with dozens of versions must not turn one page view into dozens of simultaneous requests.
  const checks = new ConcurrencyLimit(MAX_CONCURRENT_CHECKS);
  const exists = async (url: string, credential: Credential): Promise<boolean | null> => {
    if (credential.kind !== 'token') return null;
    return checks.run(() => headStatus(url));
  };
  const headStatus = async (url: string): Promise<boolean | null> => {
    try {
      const response = await context.fetcher.fetch({ url, method: 'HEAD', allowRedirect: (target) => domains.docs.matches(target) });
      if (response.status === 200) return true;
      return response.status === 404 || response.status === 410 ? false : null;
    } catch {
      return null;
    }
  };

  router.get('/api/v3/page-context/', async (req, res) => {
    const params = queryOf(req.url);
    onlyParams(params, PAGE_CONTEXT_PARAMS);
    const raw = requiredParam(params, 'url', MAX_URL_LENGTH);
    const projectSlug = stringParam(params, 'project', 100);
    const versionSlug = stringParam(params, 'version', 100);
    for (const [name, value] of [['project', projectSlug], ['version', versionSlug]] as const) {
      if (value !== undefined && !/^[\w.-]+$/.test(value)) throw invalidParameter(name, 'must be a slug');
    }
    const { url, external } = embedTarget(raw, domains);
    if (external) throw new ProxyError(404, 'not_found', 'External pages have no versions.');
    url.hash = '';
    url.search = '';
    params.set('url', url.href);
    const credential = credentialOf(context, req);
    const scopeKey = cacheScopeOf(credential);
    const key = cacheKey('/api/v3/page-context/', params, PAGE_CONTEXT_PARAMS, scopeKey);
    await sendCachedJson(context, req, res, key, context.config.projectsTtl, async (): Promise<PageContext> => {
      const scope = await context.metadata.scope(credential, scopeKey);
      if (projectSlug && !scope.has(projectSlug)) throw new ProxyError(404, 'project_not_allowed', `Project "${projectSlug}" is not available through this proxy.`);
      const location = locatePage(url, scope, projectSlug, versionSlug);
      if (!location) throw new ProxyError(404, 'not_found', 'The page belongs to no project available through this proxy.');
      const { project, path } = location;
      const versions = (await context.metadata.versions(project.slug, credential, scopeKey)).filter((version) => version.active && !version.hidden && version.built);
      const current = versions.find((version) => version.slug === location.versionSlug);
      /** The same page under another documentation root, and whether it is there. */
      const samePage = async (documentationUrl: string, current: boolean) => {
        const root = withSlash(documentationUrl);
        const url = root + path;
        return { current, url, root_url: root, exists: current ? true : await exists(url, credential) };
      };
      const listed = await Promise.all(
        versions.sort(compareVersions).map(async (version) => ({
          slug: version.slug,
          verbose_name: version.verbose_name,
          type: version.type,
          ...(await samePage(version.urls.documentation, version.slug === location.versionSlug)),
          downloads: version.downloads,
        })),
      );
      const main = (project.translation_of && scope.get(project.translation_of.slug)?.project) ?? project;
      const languages = [main, ...(await context.metadata.translations(main.slug, credential, scopeKey))];
      const translations = await Promise.all(
        languages.map(async (translation) => {
          const translated = translation.slug === project.slug ? versions : await context.metadata.versions(translation.slug, credential, scopeKey).catch(() => []);
          // The same version when the translation has it, else its default one: the same page either way.
          const sameVersion = translated.find((version) => version.slug === location.versionSlug && version.active);
          return {
            slug: translation.slug,
            name: translation.name,
            language: translation.language,
            ...(await samePage(sameVersion?.urls.documentation ?? translation.urls.documentation, translation.slug === project.slug)),
          };
        }),
      );
      const stableEntry = listed.find((version) => version.slug === 'stable') ?? listed.find((version) => version.slug === project.default_version);
      const stable = stableEntry
        ? {
            slug: stableEntry.slug,
            verbose_name: stableEntry.verbose_name,
            // What `stable` points to (`2.0`), so that readers of `1.0` can be told it is older.
            release: versions.find((version) => version.slug === stableEntry.slug)?.ref ?? stableEntry.slug,
            url: stableEntry.exists === false ? stableEntry.root_url : stableEntry.url,
          }
        : null;
      const version = current ? { slug: current.slug, verbose_name: current.verbose_name, type: current.type } : { slug: location.versionSlug, verbose_name: location.versionSlug, type: 'unknown' };
      return {
        project: { slug: project.slug, name: project.name, language: project.language, default_version: project.default_version },
        version: { ...version, status: versionStatus(version, stable) },
        path,
        versions: listed,
        translations: translations.sort((a, b) => a.language.code.localeCompare(b.language.code)),
        stable,
      };
    });
  });

  return router;
}
