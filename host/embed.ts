import { availableParallelism } from 'node:os';
import { PARSED_BYTES_PER_HTML_BYTE } from '../extraction/html/parse.ts';
import { JobRefused, ThreadPool, type ExtractionLimits, type WorkingBytes } from '../runtime/thread-pool.ts';
import type { HostEmbedJobKind, HostEmbedJobs } from './embed-jobs.ts';
import { HttpError, notFound } from './http.ts';
import type { PageStore } from './pages.ts';
import { fileForPath, type PageLocation, type Registry } from './registry.ts';

/** `scheme://host…` with a non-empty host: what the hosting service accepts as a URL to embed. */
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i;

/** What the Embed API reads pages with. */
export interface EmbedContext {
  registry: Registry;
  pages: PageStore;
  embeds: EmbedThreads;
}

export interface EmbedV3Params {
  url: string | undefined;
  doctool: string | undefined;
  maincontent: string | undefined;
}

const embedError = (status: number, error: string) => new HttpError(status, { error });

export type EmbedThreads = ThreadPool<HostEmbedJobs>;

/** An embed job's working memory: its page parsed. */
export const embedWorkingBytes: WorkingBytes<HostEmbedJobs> = (_kind, input) => PARSED_BYTES_PER_HTML_BYTE * input.bytes;

/**
 * The threads that parse pages for the Embed API (`embed-worker.ts`), as the proxy's extraction threads
 * do: the host's main thread serves pages, searches and (in the demo) the proxy, whatever page is embedded.
 */
export const embedThreads = (limits: Partial<ExtractionLimits> = {}): EmbedThreads =>
  new ThreadPool(
    new URL('./embed-worker.ts', import.meta.url),
    {
      threads: Math.max(1, Math.min(2, availableParallelism() - 1)),
      timeLimitMs: 30_000,
      maxWaitMs: 30_000,
      maxQueued: 64,
      // Room for the pages being parsed (Flask's 925 KB api.html reserves 22 MB) and, in each thread's heap, the
      // pages it keeps parsed (`embed-jobs.ts`).
      workingBytes: 1024 * 2 ** 20,
      ...limits,
    },
    embedWorkingBytes,
  );

/** A page's work in an embed thread; a job refused (threads busy, a page too costly) is answered as JSON with its reason. */
async function inThread<K extends HostEmbedJobKind>(threads: EmbedThreads, kind: K, input: HostEmbedJobs[K]['input']) {
  try {
    return await threads.run(kind, input);
  } catch (error) {
    if (!(error instanceof JobRefused)) throw error;
    const busy = error.reason === 'busy';
    throw new HttpError(busy ? 503 : 422, {
      error: busy ? 'Every embed thread is busy: try again in a moment.' : `This page cannot be embedded: ${error.message}.`,
      code: error.reason,
    });
  }
}

function fragmentOf(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? '' : url.slice(hash + 1);
}

/** Embed API v3 over the host's own pages, with the hosting service's error bodies. */
export async function embedV3({ registry, pages, embeds }: EmbedContext, params: EmbedV3Params): Promise<Record<string, unknown>> {
  const { url, doctool, maincontent } = params;
  if (!url) throw embedError(400, 'Invalid arguments. Please provide "url".');
  let parsed: URL | undefined;
  try {
    parsed = ABSOLUTE_URL.test(url) ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw embedError(400, `The URL requested is malformed. url=${url}`);
  // The host embeds its own pages only: every other domain is external, and none is allowlisted.
  if (!registry.siteFor(parsed)) throw embedError(400, `External domain not allowed. domain=${parsed.host}`);
  const fragment = fragmentOf(url);
  const notFoundError = embedError(
    404,
    `Can't find content for section: url=${url} fragment=${fragment} maincontent=${maincontent ?? 'None'}`,
  );
  const location = registry.resolveUrl(parsed);
  if (!location) throw notFoundError;
  if (!location.version.active || !location.version.root) throw notFound();
  const page = await pages.file(location.version, location.file);
  if (!page) throw notFoundError;
  const section = await inThread(embeds, 'v3', { ...page, url, fragment, doctool: doctool ?? null, maincontent: maincontent ?? null });
  if (section === 'invalid_selector') throw embedError(400, `"maincontent" is not a valid CSS selector. maincontent=${maincontent}`);
  if (section === 'not_found') throw notFoundError;
  return {
    url,
    fragment: fragment || null,
    content: section.content,
    external: false,
  };
}

export interface EmbedV2Params {
  url?: string | undefined;
  project?: string | undefined;
  version?: string | undefined;
  doc?: string | undefined;
  path?: string | undefined;
  section?: string | undefined;
}

/** `guides/users/index.html` → `guides/users/index`, `/guides/users//` → `guides/users`. */
function docName(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.html$/, '');
}

function locateV2(registry: Registry, params: EmbedV2Params): { location: PageLocation; section: string | undefined } {
  if (params.url) {
    let url: URL;
    try {
      url = new URL(params.url);
    } catch {
      throw embedError(400, `The URL requested is malformed. url=${params.url}`);
    }
    const location = registry.resolveUrl(url);
    if (!location) throw notFound();
    return { location, section: params.section ?? (fragmentOf(params.url) || undefined) };
  }
  const page = params.path ?? params.doc;
  if (!params.project || !page) {
    throw embedError(400, 'Invalid Arguments. Please provide "url" or "section" and "path" GET arguments.');
  }
  const project = registry.project(params.project);
  const version = project?.versions.find((candidate) => candidate.slug === (params.version ?? 'latest'));
  if (!project || !version) throw notFound();
  const cleaned = page.replace(/^\/+/, '').replace(/\/{2,}$/, '/');
  const file = params.path
    ? cleaned.endsWith('.html') || cleaned.endsWith('/')
      ? fileForPath(cleaned)
      : `${cleaned}/index.html`
    : `${cleaned}.html`;
  return { location: { project, version, file }, section: params.section };
}

/** Embed API v2: every section as a list, and the page's headings with their anchors. */
export async function embedV2({ registry, pages, embeds }: EmbedContext, params: EmbedV2Params): Promise<Record<string, unknown>> {
  const { location, section } = locateV2(registry, params);
  const { version, file, project } = location;
  if (!version.active || !version.root || version.privacyLevel !== 'public') throw notFound();
  const page = await pages.file(version, file);
  const pageUrl = registry.docsUrl(version, file);
  const found = page && (await inThread(embeds, 'v2', { ...page, pageUrl, section }));
  if (!found) throw notFound();
  return {
    ...found,
    url: pageUrl,
    meta: { project: project.slug, version: version.slug, doc: docName(file), section: section ?? null },
  };
}
