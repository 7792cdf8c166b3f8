import type { ProxyContext } from '../context.ts';
import type { Route } from '../http/route-table.ts';
import { cachedJson } from './cached-json.ts';
import { embedEndpoint } from './embed.ts';
import { opsRoutes } from './ops.ts';
import { pageContextEndpoint } from './page-context.ts';
import { subprojectsEndpoint, translationsEndpoint, versionsEndpoint } from './projects.ts';
import { searchEndpoint } from './search.ts';

/**
 * Every endpoint of the proxy: the JSON ones (each with its parameters, freshness, checks and answer)
 * through the response cache and rate-limited, then `/healthz`, `/readyz` and the widget files
 * (`/metrics` is on the operations listener).
 */
export function proxyRoutes(context: ProxyContext, widgetDir: string): Route[] {
  return [
    cachedJson(context, '/api/v3/search/', searchEndpoint(context)),
    cachedJson(context, '/api/v3/embed/', embedEndpoint(context)),
    cachedJson(context, '/api/v3/page-context/', pageContextEndpoint(context)),
    cachedJson(context, '/api/v3/projects/:slug/versions/', versionsEndpoint(context)),
    cachedJson(context, '/api/v3/projects/:slug/translations/', translationsEndpoint(context)),
    cachedJson(context, '/api/v3/projects/:slug/subprojects/', subprojectsEndpoint(context)),
    ...opsRoutes(context, widgetDir),
  ];
}
