import { ProxyError } from '../http/errors.ts';
import { formatSearchQuery } from '../../extraction/search-query.ts';
import type {
  Credential,
  EmbedParams,
  EmbedResult,
  ProjectSummary,
  SearchParams,
  SubprojectSummary,
  UpstreamApi,
  UpstreamSearch,
  VersionSummary,
} from './api.ts';
import type { UpstreamClient } from './client.ts';
import type { Json } from './json.ts';
import { embedResultV2, projectInList, projectSummaryV2, versionsV2 } from './normalize-v2.ts';

/**
 * API v2 (`hosting-api.md` section 4, legacy): public data only, projects found by slug, one project
 * (with its subprojects) per search, and no translations or subprojects listings.
 */
export class UpstreamApiV2 implements UpstreamApi {
  constructor(private readonly client: UpstreamClient) {}

  async embed(params: EmbedParams, credential: Credential): Promise<EmbedResult> {
    return embedResultV2(await this.client.get('/api/v2/embed/', { url: params.url }, credential), params.url);
  }

  async search({ query, page, pageSize }: SearchParams, credential: Credential): Promise<UpstreamSearch> {
    const project = query.projects[0] ?? query.subprojects[0];
    const answer = await this.client.body(
      '/api/v2/search/',
      { q: query.text, project: project?.slug, version: project?.version, page: String(page), page_size: String(pageSize) },
      credential,
      true,
    );
    return { ...answer, reading: { version: 'v2', query: formatSearchQuery(query) } };
  }

  async project(slug: string, credential: Credential): Promise<ProjectSummary> {
    return projectSummaryV2(await this.projectData(slug, credential));
  }

  async versions(slug: string, credential: Credential): Promise<VersionSummary[]> {
    const project = await this.projectData(slug, credential);
    const data = await this.client.get(`/api/v2/project/${encodeURIComponent(String(project.id))}/active_versions/`, {}, credential);
    return versionsV2(data, project);
  }

  async translations(): Promise<ProjectSummary[]> {
    return [];
  }

  async subprojects(): Promise<SubprojectSummary[]> {
    return [];
  }

  private async projectData(slug: string, credential: Credential): Promise<Json> {
    const project = projectInList(await this.client.get('/api/v2/project/', { slug }, credential), slug);
    if (!project) throw new ProxyError(404, 'not_found', `No project "${slug}" upstream.`);
    return project;
  }
}
