import { Router, type Request } from 'express';
import { booleanParam, cacheKey, onlyParams, queryOf } from '../http/params.ts';
import { ProxyError } from '../http/errors.ts';
import { cacheScopeOf, credentialOf, sendCachedJson, type ProxyContext } from '../context.ts';

export const VERSION_FILTERS = ['active', 'built', 'hidden', 'type'] as const;

const list = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });

/** The project named in the path, if it is in scope. */
async function scopedSlug(context: ProxyContext, req: Request): Promise<string> {
  const slug = String(req.params.slug);
  const credential = credentialOf(context, req);
  const scope = await context.metadata.scope(credential, cacheScopeOf(credential));
  if (!scope.has(slug)) throw new ProxyError(404, 'project_not_allowed', `Project "${slug}" is not available through this proxy.`);
  return slug;
}

/** Versions, translations and subprojects of the projects in scope, in the v3 list envelope. */
export function projectsRouter(context: ProxyContext): Router {
  const router = Router();
  const { config } = context;

  router.get('/api/v3/projects/:slug/versions/', async (req, res) => {
    const params = queryOf(req.url);
    onlyParams(params, VERSION_FILTERS);
    const active = booleanParam(params, 'active');
    const built = booleanParam(params, 'built');
    const hidden = booleanParam(params, 'hidden');
    const type = params.get('type');
    if (type !== null && type !== 'branch' && type !== 'tag') throw new ProxyError(400, 'invalid_parameter', '"type" must be branch or tag.');
    const slug = await scopedSlug(context, req);
    const credential = credentialOf(context, req);
    const key = cacheKey(`/api/v3/projects/${slug}/versions/`, params, VERSION_FILTERS, cacheScopeOf(credential));
    await sendCachedJson(context, req, res, key, config.projectsTtl, async () => {
      const versions = await context.metadata.versions(slug, credential, cacheScopeOf(credential));
      return list(
        versions.filter(
          (version) =>
            (active === undefined || version.active === active) &&
            (built === undefined || version.built === built) &&
            (hidden === undefined || version.hidden === hidden) &&
            (type === null || version.type === type),
        ),
      );
    });
  });

  router.get('/api/v3/projects/:slug/translations/', async (req, res) => {
    const params = queryOf(req.url);
    onlyParams(params, []);
    const slug = await scopedSlug(context, req);
    const credential = credentialOf(context, req);
    const key = cacheKey(`/api/v3/projects/${slug}/translations/`, params, [], cacheScopeOf(credential));
    await sendCachedJson(context, req, res, key, config.projectsTtl, async () => list(await context.metadata.translations(slug, credential, cacheScopeOf(credential))));
  });

  router.get('/api/v3/projects/:slug/subprojects/', async (req, res) => {
    const params = queryOf(req.url);
    onlyParams(params, []);
    const slug = await scopedSlug(context, req);
    const credential = credentialOf(context, req);
    const scopeKey = cacheScopeOf(credential);
    const key = cacheKey(`/api/v3/projects/${slug}/subprojects/`, params, [], scopeKey);
    await sendCachedJson(context, req, res, key, config.projectsTtl, async () => {
      const scope = await context.metadata.scope(credential, scopeKey);
      const children = await context.metadata.subprojects(slug, credential, scopeKey);
      return list(children.filter((child) => scope.has(child.child.slug)));
    });
  });

  return router;
}
