import type { Request, Response } from 'express';
import { escapeRegExp } from '../../search/reg-exp.ts';
import { ProxyError } from './errors.ts';

/** Path parameters of a request, percent-decoded. */
export type PathParams = Readonly<Record<string, string>>;

/**
 * Where an endpoint is: the path exactly as requested (letter case included), `:name` standing for one
 * path segment, which is also its name in logs and metrics; or a pattern with named groups for a family
 * of paths, and the name it is logged under.
 */
type RoutePath = { path: string } | { path: RegExp; name: string };

/** One endpoint of the proxy. */
export type Route = RoutePath & {
  /** Whether requests to it use up the client's rate. */
  rateLimited: boolean;
  /** Answers a GET or HEAD request. */
  handle(req: Request, res: Response, params: PathParams): Promise<void> | void;
};

interface CompiledRoute {
  pattern: RegExp;
  name: string;
  rateLimited: boolean;
  handle: Route['handle'];
}

export interface RouteMatch {
  route: CompiledRoute;
  /** Path parameters as written in the request; `decodedParams` decodes them. */
  raw: Record<string, string>;
}

/** `/a/:slug/b/` as an exact, case-sensitive pattern with a named group per parameter. */
function patternOf(path: string): RegExp {
  const parts = path.split(/:(\w+)/);
  const source = parts.map((part, index) => (index % 2 === 1 ? `(?<${part}>[^/]+)` : escapeRegExp(part))).join('');
  return new RegExp(`^${source}$`);
}

/**
 * The routes of the proxy, from which routing, the known-path check and the names of logs and metrics
 * all follow: a path matches one route exactly or is unknown.
 */
export class RouteTable {
  private readonly routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((route) => ({
      ...('name' in route ? { pattern: route.path, name: route.name } : { pattern: patternOf(route.path), name: route.path }),
      rateLimited: route.rateLimited,
      handle: route.handle,
    }));
  }

  match(path: string): RouteMatch | undefined {
    for (const route of this.routes) {
      const found = route.pattern.exec(path);
      if (found) return { route, raw: { ...found.groups } };
    }
    return undefined;
  }

  /**
   * The name a path is logged and counted under; `unknown` for paths the proxy does not have, so probes do not
   * flood the logs with input.
   */
  nameOf(path: string): string {
    return this.match(path)?.route.name ?? 'unknown';
  }
}

/** Path parameters decoded as a browser encodes them; undecodable ones are a 400. */
export function decodedParams(match: RouteMatch): PathParams {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(match.raw)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw new ProxyError(400, 'bad_request', 'The request could not be read.');
    }
  }
  return params;
}
