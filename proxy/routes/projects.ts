import { booleanParam } from '../http/params.ts';
import { ProxyError } from '../http/errors.ts';
import type { ProxyContext } from '../context.ts';
import type { ProjectSummary, SubprojectSummary, VersionSummary } from '../upstream/api.ts';
import type { JsonEndpoint, JsonRequest } from './cached-json.ts';

export const VERSION_FILTERS = ['active', 'built', 'hidden', 'type'] as const;

/** The v3 list envelope, all in one page. */
interface Listing<T> {
  count: number;
  next: null;
  previous: null;
  results: T[];
}

const list = <T>(results: T[]): Listing<T> => ({ count: results.length, next: null, previous: null, results });

/** The project named in the path, if it is in scope. */
async function scopedSlug(context: ProxyContext, { path, credential, scope }: JsonRequest): Promise<string> {
  const slug = path.slug ?? '';
  if (!(await context.metadata.scope(credential, scope)).has(slug))
    throw new ProxyError(404, 'project_not_allowed', `Project "${slug}" is not available through this proxy.`);
  return slug;
}

/** The versions of a project in scope, filtered as the v3 API filters them. */
export function versionsEndpoint(
  context: ProxyContext,
): JsonEndpoint<{ slug: string; keeps: (version: VersionSummary) => boolean }, Listing<VersionSummary>> {
  return {
    params: VERSION_FILTERS,
    freshness: 'projectsTtl',
    async read(request) {
      const { query } = request;
      const active = booleanParam(query, 'active');
      const built = booleanParam(query, 'built');
      const hidden = booleanParam(query, 'hidden');
      const type = query.get('type');
      if (type !== null && type !== 'branch' && type !== 'tag')
        throw new ProxyError(400, 'invalid_parameter', '"type" must be branch or tag.');
      const keeps = (version: VersionSummary) =>
        (active === undefined || version.active === active) &&
        (built === undefined || version.built === built) &&
        (hidden === undefined || version.hidden === hidden) &&
        (type === null || version.type === type);
      return { slug: await scopedSlug(context, request), keeps };
    },
    load: async ({ slug, keeps }, { credential, scope }) => list((await context.metadata.versions(slug, credential, scope)).filter(keeps)),
  };
}

/** The translations of a project in scope. */
export function translationsEndpoint(context: ProxyContext): JsonEndpoint<string, Listing<ProjectSummary>> {
  return {
    params: [],
    freshness: 'projectsTtl',
    read: (request) => scopedSlug(context, request),
    load: async (slug, { credential, scope }) => list(await context.metadata.translations(slug, credential, scope)),
  };
}

/** The subprojects of a project in scope that are in scope themselves. */
export function subprojectsEndpoint(context: ProxyContext): JsonEndpoint<string, Listing<SubprojectSummary>> {
  return {
    params: [],
    freshness: 'projectsTtl',
    read: (request) => scopedSlug(context, request),
    async load(slug, { credential, scope: scopeKey }) {
      const scope = await context.metadata.scope(credential, scopeKey);
      const children = await context.metadata.subprojects(slug, credential, scopeKey);
      return list(children.filter((child) => scope.has(child.child.slug)));
    },
  };
}
