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
import { embedResult, projectSummary, subprojectSummary, versionSummary } from './normalize.ts';

const projectPath = (slug: string, list = '') => `/api/v3/projects/${encodeURIComponent(slug)}/${list}`;

/** API v3 (`hosting-api.md` section 4): the credential goes with every request. */
export class UpstreamApiV3 implements UpstreamApi {
  constructor(private readonly client: UpstreamClient) {}

  async embed(params: EmbedParams, credential: Credential): Promise<EmbedResult> {
    return embedResult(await this.client.get('/api/v3/embed/', { ...params }, credential), params.url);
  }

  async search({ query, page, pageSize }: SearchParams, credential: Credential): Promise<UpstreamSearch> {
    const q = formatSearchQuery(query);
    const answer = await this.client.body('/api/v3/search/', { q, page: String(page), page_size: String(pageSize) }, credential, true);
    return { ...answer, reading: { version: 'v3' } };
  }

  async project(slug: string, credential: Credential): Promise<ProjectSummary> {
    return projectSummary(await this.client.get(projectPath(slug), {}, credential));
  }

  async versions(slug: string, credential: Credential): Promise<VersionSummary[]> {
    return (await this.client.list(projectPath(slug, 'versions/'), credential)).map(versionSummary);
  }

  async translations(slug: string, credential: Credential): Promise<ProjectSummary[]> {
    return (await this.client.list(projectPath(slug, 'translations/'), credential)).map((item) => projectSummary(item));
  }

  async subprojects(slug: string, credential: Credential): Promise<SubprojectSummary[]> {
    return (await this.client.list(projectPath(slug, 'subprojects/'), credential)).map(subprojectSummary);
  }
}
