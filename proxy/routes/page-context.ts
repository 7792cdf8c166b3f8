import { requiredParam, stringParam } from '../http/params.ts';
import { invalidParameter, ProxyError } from '../http/errors.ts';
import type { ProxyContext } from '../context.ts';
import { buildPageContext, type PageContextRequest } from '../services/page-context.ts';
import { PageExistence } from '../upstream/page-existence.ts';
import type { PageContext } from '../../contract/index.ts';
import type { JsonEndpoint } from './cached-json.ts';
import { embedTarget, MAX_URL_LENGTH } from './embed.ts';

export const PAGE_CONTEXT_PARAMS = ['url', 'project', 'version'] as const;

/** The version switcher's data for one page, in one answer. */
export function pageContextEndpoint(context: ProxyContext): JsonEndpoint<PageContextRequest, PageContext> {
  const pages = new PageExistence(context.fetcher, (target) => context.domains.docs.matches(target));
  return {
    params: PAGE_CONTEXT_PARAMS,
    freshness: 'projectsTtl',
    read({ query }) {
      const raw = requiredParam(query, 'url', MAX_URL_LENGTH);
      const project = stringParam(query, 'project', 100);
      const version = stringParam(query, 'version', 100);
      for (const [name, value] of [
        ['project', project],
        ['version', version],
      ] as const) {
        if (value !== undefined && !/^[\w.-]+$/.test(value)) throw invalidParameter(name, 'must be a slug');
      }
      const { url, external } = embedTarget(raw, context.domains);
      if (external) throw new ProxyError(404, 'not_found', 'External pages have no versions.');
      url.hash = '';
      url.search = '';
      query.set('url', url.href);
      return { url, project, version };
    },
    load: (request, { credential, scope }) =>
      buildPageContext(
        {
          scope: () => context.metadata.scope(credential, scope),
          versions: (slug) => context.metadata.versions(slug, credential, scope),
          translations: (slug) => context.metadata.translations(slug, credential, scope),
          exists: (pageUrl) => pages.exists(pageUrl, credential),
        },
        request,
      ),
  };
}
