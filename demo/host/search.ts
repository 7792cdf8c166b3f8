import type { PageStore } from './pages.ts';
import type { Project, Registry, Version } from './registry.ts';
import { highlight, highlightExcerpts, VersionIndex, type PageHit, type SectionHit } from './search-index.ts';

/** A page hit together with the version it was found in. */
export interface VersionedHit {
  version: Version;
  hit: PageHit;
}

/** Longest section text a search result carries; highlights point into the rest. */
const MAX_BLOCK_CONTENT = 1000;

/** The URL path of a page: `guide/index.html` is served as `guide/`. */
export function pageUrlPath(file: string): string {
  return file === 'index.html' ? '' : file.replace(/(^|\/)index\.html$/, '$1');
}

/** Indexes each version on first use (and in the background at start) and searches across versions. */
export class SearchService {
  private readonly indexes = new Map<Version, Promise<VersionIndex>>();

  constructor(
    private readonly registry: Registry,
    private readonly pages: PageStore,
  ) {}

  index(version: Version): Promise<VersionIndex> {
    let index = this.indexes.get(version);
    if (!index) {
      index = this.build(version);
      this.indexes.set(version, index);
    }
    return index;
  }

  private async build(version: Version): Promise<VersionIndex> {
    const index = new VersionIndex();
    for (const file of await this.pages.contentPages(version)) {
      const html = await this.pages.read(version, file);
      if (html !== undefined) index.addPage(file, html);
    }
    return index;
  }

  /** Indexes the default versions now, so that the first searches are fast. */
  async warm(): Promise<void> {
    for (const project of this.registry.projects) {
      const version = defaultVersionOf(project);
      if (version?.root) await this.index(version);
    }
  }

  async search(versions: Version[], text: string): Promise<VersionedHit[]> {
    const found = await Promise.all(
      versions.map(async (version) => (await this.index(version)).search(text).map((hit) => ({ version, hit }))),
    );
    return found.flat().sort((a, b) => b.hit.score - a.hit.score);
  }

  /** One result in the Search API v3 shape. */
  resultV3({ version, hit }: VersionedHit): Record<string, unknown> {
    const project = version.project;
    return {
      type: 'page',
      project: { slug: project.slug, alias: this.registry.aliasOf(project) ?? null },
      version: { slug: version.slug },
      title: hit.title,
      domain: project.site.origin,
      path: `${this.registry.basePath(project)}/${project.language}/${version.slug}/${pageUrlPath(hit.path)}`,
      highlights: { title: titleHighlights(hit.title, hit.matchedWords) },
      blocks: hit.sections.map(blockOf),
    };
  }

  /** One result in the Search API v2 shape: project and version as slugs. */
  resultV2(found: VersionedHit): Record<string, unknown> {
    const result = this.resultV3(found);
    return { ...result, project: found.version.project.slug, version: found.version.slug, project_alias: this.registry.aliasOf(found.version.project) ?? null };
  }
}

export function defaultVersionOf(project: Project): Version | undefined {
  return project.versions.find((version) => version.slug === project.defaultVersion);
}

function titleHighlights(title: string, words: ReadonlySet<string>): string[] {
  const highlighted = highlight(title, words);
  return highlighted.includes('<span>') ? [highlighted] : [];
}

function blockOf({ section, matchedWords }: SectionHit): Record<string, unknown> {
  const content = section.content.length > MAX_BLOCK_CONTENT ? `${section.content.slice(0, MAX_BLOCK_CONTENT)}…` : section.content;
  const contentHighlights = highlightExcerpts(section.content, matchedWords);
  if (section.role) {
    return {
      type: 'domain',
      role: section.role,
      name: section.title,
      id: section.anchor,
      content,
      highlights: { name: titleHighlights(section.title, matchedWords), content: contentHighlights },
    };
  }
  return {
    type: 'section',
    id: section.anchor,
    title: section.title,
    content,
    highlights: { title: titleHighlights(section.title, matchedWords), content: contentHighlights },
  };
}
