/** What the proxy answers (the v3 shapes the widget reads). */
export interface SearchBlock {
  type: 'section' | 'domain';
  id: string;
  title?: string;
  name?: string;
  role?: string;
  content: string;
  highlights: { title?: string[]; name?: string[]; content: string[] };
}

export interface SearchResult {
  type: 'page';
  project: { slug: string; alias: string | null };
  version: { slug: string };
  title: string;
  domain: string;
  path: string;
  highlights: { title: string[] };
  blocks: SearchBlock[];
}

export interface SearchResponse {
  count: number;
  next: string | null;
  previous: string | null;
  query: string;
  results: SearchResult[];
  /** The documentation host is still indexing: these are the results so far. */
  indexing?: boolean;
}

export interface EmbedPreview {
  url: string;
  fragment: string | null;
  external: boolean;
  title: string;
  content: string;
  truncated: boolean;
}

export interface ContextVersion {
  slug: string;
  verbose_name: string;
  type: string;
  current: boolean;
  url: string;
  root_url: string;
  exists: boolean | null;
  downloads: Partial<Record<'pdf' | 'htmlzip' | 'epub', string>>;
}

export interface ContextTranslation {
  slug: string;
  name: string;
  language: { code: string; name: string };
  current: boolean;
  url: string;
  root_url: string;
  exists: boolean | null;
}

export interface PageContext {
  project: { slug: string; name: string; language: { code: string; name: string }; default_version: string };
  /** `status`: `old` (older than stable), `dev` (`latest` or a branch), or null. */
  version: { slug: string; verbose_name: string; type: string; status: 'old' | 'dev' | null };
  path: string;
  versions: ContextVersion[];
  translations: ContextTranslation[];
  /** The stable version, and the release it points to. */
  stable: { slug: string; verbose_name: string; release: string; url: string } | null;
}

/** Why a request failed, in the terms the widget shows. */
export type FailureKind = 'offline' | 'network' | 'rate_limited' | 'not_found' | 'server' | 'aborted';

export class ProxyRequestError extends Error {
  override name = 'ProxyRequestError';
  constructor(
    readonly kind: FailureKind,
    readonly status: number,
    /** The proxy's machine code, when it answered with one. */
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof ProxyRequestError && error.kind === 'aborted';
}

/** GETs JSON from the doclens proxy (or a hosting service's API with the same paths). */
export async function getJson<T>(proxy: string, path: string, params: Record<string, string | undefined>, signal?: AbortSignal): Promise<T> {
  const url = new URL(path, proxy.endsWith('/') ? proxy : `${proxy}/`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  let response: Response;
  try {
    response = await fetch(url, { signal, credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw new ProxyRequestError('aborted', 0, undefined, 'aborted');
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new ProxyRequestError(offline ? 'offline' : 'network', 0, undefined, 'The documentation service could not be reached.');
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw new ProxyRequestError('aborted', 0, undefined, 'aborted');
    body = undefined;
  }
  if (response.ok && body && typeof body === 'object') return body as T;
  const detail = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
  const kind: FailureKind = response.status === 429 ? 'rate_limited' : response.status === 404 || response.status === 403 ? 'not_found' : 'server';
  throw new ProxyRequestError(kind, response.status, detail?.code, detail?.message ?? `The documentation service answered ${response.status}.`);
}
