import type { EmbedPreview, ErrorCode, PageContext, ProxyAnswer, SearchResponse } from '../../contract/index.ts';
import { isEmbedPreview, isErrorBody, isPageContext, isSearchResponse, type Check } from './answers.ts';

/** Why a request failed, in the terms the widget shows. */
export type FailureKind = 'offline' | 'network' | 'rate_limited' | 'not_found' | 'server' | 'aborted';

export class ProxyRequestError extends Error {
  override name = 'ProxyRequestError';
  constructor(
    readonly kind: FailureKind,
    readonly status: number,
    /** The proxy's machine code, when it answered with one. */
    readonly code: ErrorCode | undefined,
    message: string,
  ) {
    super(message);
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof ProxyRequestError && error.kind === 'aborted';
}

/** A GET, failing with a `ProxyRequestError` that says why when no answer came. */
async function request(url: URL, signal: AbortSignal | undefined, accept: string): Promise<Response> {
  try {
    return await fetch(url, { signal, credentials: 'same-origin', headers: { accept } });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw new ProxyRequestError('aborted', 0, undefined, 'aborted');
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new ProxyRequestError(offline ? 'offline' : 'network', 0, undefined, 'The documentation service could not be reached.');
  }
}

/** The error of an answer that is not a success, with the proxy's code and message when it gave them. */
function failure(response: Response, body: unknown): ProxyRequestError {
  const detail = isErrorBody(body) ? body.error : undefined;
  const kind: FailureKind =
    response.status === 429 ? 'rate_limited' : response.status === 404 || response.status === 403 ? 'not_found' : 'server';
  return new ProxyRequestError(
    kind,
    response.status,
    detail?.code,
    detail?.message ?? `The documentation service answered ${response.status}.`,
  );
}

/** Reads a body, an abort while it arrives failing as one. */
async function readBody<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw new ProxyRequestError('aborted', 0, undefined, 'aborted');
    return undefined;
  }
}

/** GETs JSON, failing with a `ProxyRequestError` that says why. */
export async function fetchJson(url: URL, signal?: AbortSignal): Promise<unknown> {
  const response = await request(url, signal, 'application/json');
  const body = await readBody<unknown>(() => response.json());
  if (response.ok && body && typeof body === 'object') return body;
  throw failure(response, body);
}

/** GETs a file's bytes, failing as `fetchJson` does. */
export async function fetchBytes(url: URL, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
  const response = await request(url, signal, '*/*');
  const body = await readBody(() => response.arrayBuffer());
  if (response.ok && body !== undefined) return new Uint8Array(body);
  throw failure(response, undefined);
}

/**
 * GETs one of the doclens proxy's answers (or a hosting service's, at the same paths and in the same
 * shapes). An answer that fails `check` is a failure like a 5xx, which every element shows as such.
 */
export async function getJson<T extends ProxyAnswer>(
  proxy: string,
  path: string,
  params: Record<string, string | undefined>,
  check: Check<T>,
  signal?: AbortSignal,
): Promise<T> {
  const url = new URL(path, proxy.endsWith('/') ? proxy : `${proxy}/`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  const body = await fetchJson(url, signal);
  if (check(body)) return body;
  throw new ProxyRequestError('server', 200, undefined, 'The documentation service answered in an unexpected shape.');
}

/** A search as the widget asks it: the query (scope terms included), the page of results and its size. */
export interface SearchParams {
  q: string;
  page: string;
  page_size: string;
}

/** The page a page context is asked for, and its project and version when its URL does not tell. */
export interface PageContextParams {
  url: string;
  project?: string | undefined;
  version?: string | undefined;
}

/** Where the widget's answers come from: the doclens proxy, or the files `doclens build` wrote beside a static site. */
export interface DataSource {
  search(params: SearchParams, signal?: AbortSignal): Promise<SearchResponse>;
  /** The preview of the section a URL points to; `doctool` names the rules of the tool that built the page. */
  preview(url: string, doctool: string | undefined): Promise<EmbedPreview>;
  pageContext(params: PageContextParams): Promise<PageContext>;
  /** False for a link that cannot have a preview, known without asking (a static site's links off its pages). */
  mayPreview?(url: string): boolean;
}

/** The doclens proxy at `proxy` (its base URL), as a data source. */
export function proxySource(proxy: string): DataSource {
  return {
    search: (params, signal) => getJson(proxy, 'api/v3/search/', { ...params }, isSearchResponse, signal),
    preview: (url, doctool) => getJson(proxy, 'api/v3/embed/', { url, doctool, form: 'preview' }, isEmbedPreview),
    pageContext: (params) => getJson(proxy, 'api/v3/page-context/', { ...params }, isPageContext),
  };
}
