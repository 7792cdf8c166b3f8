import { Router } from 'express';
import { cacheKey, onlyParams, queryOf, requiredParam, stringParam } from '../http/params.ts';
import { invalidParameter, ProxyError } from '../http/errors.ts';
import { cacheScopeOf, credentialOf, sendCachedJson, type ProxyContext } from '../context.ts';
import { buildPageContext } from '../services/page-context.ts';
import { PageExistence } from '../upstream/page-existence.ts';
import { embedTarget, MAX_URL_LENGTH, type EmbedDomains } from './embed.ts';

export const PAGE_CONTEXT_PARAMS = ['url', 'project', 'version'] as const;

/** The version switcher's data for one page, in one answer. */
export function pageContextRouter(context: ProxyContext, domains: EmbedDomains): Router {
  const router = Router();
  const pages = new PageExistence(context.fetcher, (target) => domains.docs.matches(target));

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
    await sendCachedJson(context, req, res, key, context.config.projectsTtl, () =>
      buildPageContext(
        {
          scope: () => context.metadata.scope(credential, scopeKey),
          versions: (slug) => context.metadata.versions(slug, credential, scopeKey),
          translations: (slug) => context.metadata.translations(slug, credential, scopeKey),
          exists: (pageUrl) => pages.exists(pageUrl, credential),
        },
        { url, project: projectSlug, version: versionSlug },
      ),
    );
  });

  return router;
}
