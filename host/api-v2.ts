import { Router, type Request } from 'express';
import { searchPage, searchParams, searchScope, type ApiContext } from './api-v3.ts';
import { embedV2 } from './embed.ts';
import { booleanParam, HttpError, notFound, originOf, paginate, queryParam, readOnly } from './http.ts';
import type { Version } from './registry.ts';
import { Serializers } from './serializers.ts';

const isPublic = (version: Version) => version.privacyLevel === 'public';

function idParam(req: Request): number {
  const id = String(req.params.id);
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
}

/** The public read endpoints of API v2: no authentication, public versions only. */
export function apiV2Router(context: ApiContext): Router {
  const { registry, search } = context;
  const router = Router();
  router.use(readOnly);
  const serializersFor = (req: Request) => new Serializers(registry, originOf(req));

  router.get('/project/', (req, res) => {
    const slug = queryParam(req, 'slug');
    const serializers = serializersFor(req);
    const projects = registry.projects.filter((project) => !slug || project.slug === slug);
    res.json(
      paginate(
        req,
        originOf(req),
        projects.map((project) => serializers.projectV2(project)),
      ),
    );
  });

  router.get('/project/:id/', (req, res) => {
    const project = registry.projectById(idParam(req));
    if (!project) throw notFound();
    res.json(serializersFor(req).projectV2(project));
  });

  router.get('/project/:id/active_versions/', (req, res) => {
    const project = registry.projectById(idParam(req));
    if (!project) throw notFound();
    const serializers = serializersFor(req);
    res.json({
      versions: project.versions.filter((version) => version.active && isPublic(version)).map((version) => serializers.versionV2(version)),
    });
  });

  router.get('/version/', (req, res) => {
    const slug = queryParam(req, 'project__slug');
    const active = booleanParam(req, 'active');
    const serializers = serializersFor(req);
    const versions = registry.projects
      .filter((project) => !slug || project.slug === slug)
      .flatMap((project) => project.versions)
      .filter((version) => isPublic(version) && (active === undefined || version.active === active));
    res.json(
      paginate(
        req,
        originOf(req),
        versions.map((version) => serializers.versionV2(version)),
      ),
    );
  });

  router.get('/version/:id/', (req, res) => {
    const version = registry.versionById(idParam(req));
    if (!version || !isPublic(version)) throw notFound();
    res.json(serializersFor(req).versionV2(version));
  });

  router.get('/embed/', async (req, res) => {
    const params = Object.fromEntries(['url', 'project', 'version', 'doc', 'path', 'section'].map((name) => [name, queryParam(req, name)]));
    res.json(await embedV2(context, params));
  });

  router.get('/search/', async (req, res) => {
    const { q, page, pageSize } = searchParams(req);
    const projectSlug = queryParam(req, 'project');
    if (!projectSlug) throw new HttpError(400, { project: ['"project" is required.'] });
    const project = registry.project(projectSlug);
    if (!project) throw notFound();
    const scope = searchScope(registry, [], [{ slug: project.slug, version: queryParam(req, 'version') }]).filter(isPublic);
    const found = q.trim() ? await search.search(scope, q, page * pageSize) : { hits: [], count: 0, indexing: false };
    const body = searchPage(req, found, page, pageSize);
    res.json({ ...body, results: body.results.map((hit) => search.resultV2(hit)), indexing: found.indexing });
  });

  router.use((_req, _res, next) => next(notFound()));
  return router;
}
