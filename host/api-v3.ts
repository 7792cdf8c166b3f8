import { Router, type Request, type RequestHandler } from 'express';
import { parseSearchQuery, type ProjectTerm } from '../extraction/search-query.ts';
import { embedV3, type EmbedContext } from './embed.ts';
import {
  booleanParam,
  detailError,
  HttpError,
  integerParam,
  notFound,
  originOf,
  paginate,
  queryParam,
  readOnly,
  requestUrlWith,
} from './http.ts';
import type { Project, Registry, Version } from './registry.ts';
import { defaultVersionOf, type SearchService } from './search.ts';
import { Serializers } from './serializers.ts';

export interface ApiContext extends EmbedContext {
  search: SearchService;
  /** The v3 token; also accepted as the `sessionid` cookie, for session pass-through. */
  token: string;
}

/** Longest `q` the search endpoints take. */
export const MAX_QUERY_LENGTH = 1000;

function sessionToken(req: Request): string | undefined {
  const cookies = req.get('cookie') ?? '';
  return cookies
    .split(';')
    .map((cookie) => cookie.trim().split('='))
    .find(([name]) => name === 'sessionid')?.[1];
}

/** Token authentication: 401 without credentials, 403 with wrong ones. */
export function requireToken(token: string): RequestHandler {
  return (req, _res, next) => {
    const header = req.get('authorization');
    const given = header?.match(/^Token\s+(\S+)$/)?.[1] ?? sessionToken(req);
    if (!header?.trim() && given === undefined) next(detailError(401, 'Authentication credentials were not provided.'));
    else if (given !== token) next(detailError(403, 'Invalid token.'));
    else next();
  };
}

function expandParam(req: Request): Set<string> {
  return new Set(
    (queryParam(req, 'expand') ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean),
  );
}

/** The versions a search covers: the ones its terms name (active and built), else every project's default. */
export function searchScope(registry: Registry, projects: ProjectTerm[], subprojects: ProjectTerm[]): Version[] {
  const scope = new Set<Version>();
  const add = (project: Project | undefined, slug: string | undefined) => {
    const version = project && (slug ? project.versions.find((candidate) => candidate.slug === slug) : defaultVersionOf(project));
    if (version?.active && version.root) scope.add(version);
    return version;
  };
  for (const term of projects) add(registry.project(term.slug), term.version);
  for (const term of subprojects) {
    const parent = registry.project(term.slug);
    if (!add(parent, term.version)) continue;
    for (const child of parent!.subprojects) {
      if (!term.version || !add(child, term.version)) add(child, undefined);
    }
  }
  if (projects.length === 0 && subprojects.length === 0) {
    for (const project of registry.projects) add(project, undefined);
  }
  return [...scope];
}

/** `q`, `page` and `page_size` as both search endpoints take them. */
export function searchParams(req: Request): { q: string; page: number; pageSize: number } {
  const q = queryParam(req, 'q');
  if (q === undefined) throw new HttpError(400, { q: ['"q" is required.'] });
  if (q.length > MAX_QUERY_LENGTH) throw new HttpError(400, { q: [`"q" must be at most ${MAX_QUERY_LENGTH} characters.`] });
  return { q, page: integerParam(req, 'page', 1, 1, 10_000), pageSize: integerParam(req, 'page_size', 50, 1, 100) };
}

/** A page of search results with `page`-based `next`/`previous` links, from the best `page * pageSize` of `count` results. */
export function searchPage<T>(req: Request, { hits: items, count }: { hits: T[]; count: number }, page: number, pageSize: number) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (page > pages) throw detailError(404, 'Invalid page.');
  const origin = originOf(req);
  return {
    count,
    next: page < pages ? requestUrlWith(req, origin, { page: page + 1 }) : null,
    previous: page > 1 ? requestUrlWith(req, origin, { page: page - 1 }) : null,
    results: items.slice((page - 1) * pageSize, page * pageSize),
  };
}

/** The read endpoints of API v3 over the registry. */
export function apiV3Router(context: ApiContext): Router {
  const { registry, search } = context;
  const router = Router();
  const serializersFor = (req: Request) => new Serializers(registry, originOf(req));
  router.use(readOnly, requireToken(context.token));

  const projectOf = (req: Request): Project => {
    const project = registry.project(String(req.params.project));
    if (!project) throw notFound();
    return project;
  };

  router.get('/', (req, res) => {
    const origin = originOf(req);
    res.json({ projects: `${origin}/api/v3/projects/`, embed: `${origin}/api/v3/embed/`, search: `${origin}/api/v3/search/` });
  });

  router.get('/projects/', (req, res) => {
    const filters = {
      language: queryParam(req, 'language'),
      programming_language: queryParam(req, 'programming_language'),
      name: queryParam(req, 'name'),
      slug: queryParam(req, 'slug'),
    };
    const projects = registry.projects.filter(
      (project) =>
        (!filters.language || project.language === filters.language) &&
        (!filters.programming_language || project.programmingLanguage === filters.programming_language) &&
        (!filters.name || project.name.toLowerCase().includes(filters.name.toLowerCase())) &&
        (!filters.slug || project.slug === filters.slug),
    );
    const expand = expandParam(req);
    res.json(
      paginate(
        req,
        originOf(req),
        projects.map((project) => serializersFor(req).project(project, expand)),
      ),
    );
  });

  router.get('/projects/:project/', (req, res) => {
    res.json(serializersFor(req).project(projectOf(req), expandParam(req)));
  });

  router.get('/projects/:project/versions/', (req, res) => {
    const project = projectOf(req);
    const active = booleanParam(req, 'active');
    const built = booleanParam(req, 'built');
    const privacy = queryParam(req, 'privacy_level');
    const type = queryParam(req, 'type');
    const slug = queryParam(req, 'slug');
    const verboseName = queryParam(req, 'verbose_name');
    const versions = project.versions.filter(
      (version) =>
        (active === undefined || version.active === active) &&
        (built === undefined || (version.root !== undefined) === built) &&
        (!privacy || version.privacyLevel === privacy) &&
        (!type || version.type === type) &&
        (!slug || version.slug === slug) &&
        (!verboseName || version.verboseName === verboseName),
    );
    const expand = expandParam(req);
    res.json(
      paginate(
        req,
        originOf(req),
        versions.map((version) => serializersFor(req).version(version, expand)),
      ),
    );
  });

  router.get('/projects/:project/versions/:version/', (req, res) => {
    const version = projectOf(req).versions.find((candidate) => candidate.slug === req.params.version);
    if (!version) throw notFound();
    res.json(serializersFor(req).version(version, expandParam(req)));
  });

  router.get('/projects/:project/translations/', (req, res) => {
    res.json(
      paginate(
        req,
        originOf(req),
        projectOf(req).translations.map((project) => serializersFor(req).project(project)),
      ),
    );
  });

  router.get('/projects/:project/subprojects/', (req, res) => {
    res.json(
      paginate(
        req,
        originOf(req),
        projectOf(req).subprojects.map((child) => serializersFor(req).subproject(child)),
      ),
    );
  });

  router.get('/projects/:project/subprojects/:alias/', (req, res) => {
    const child = projectOf(req).subprojects.find((candidate) => candidate.alias === req.params.alias);
    if (!child) throw notFound();
    res.json(serializersFor(req).subproject(child));
  });

  router.get('/embed/', async (req, res) => {
    res.json(
      await embedV3(context, {
        url: queryParam(req, 'url'),
        doctool: queryParam(req, 'doctool'),
        maincontent: queryParam(req, 'maincontent'),
      }),
    );
  });

  router.get('/search/', async (req, res) => {
    const { q, page, pageSize } = searchParams(req);
    const query = parseSearchQuery(q);
    const scope = searchScope(registry, query.projects, query.subprojects);
    const found = query.text ? await search.search(scope, query.text, page * pageSize) : { hits: [], count: 0, indexing: false };
    const projects = [...new Set(scope.map((version) => version.project))].map((project) => ({
      slug: project.slug,
      versions: scope.filter((version) => version.project === project).map((version) => ({ slug: version.slug })),
    }));
    const body = searchPage(req, found, page, pageSize);
    // `indexing`: some version searched is still being indexed, so the results are what is indexed so far.
    res.json({ ...body, projects, query: query.text, results: body.results.map((hit) => search.resultV3(hit)), indexing: found.indexing });
  });

  router.use((_req, _res, next) => next(notFound()));
  return router;
}
