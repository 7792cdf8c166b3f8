import type { ErrorCode, ProxyAnswer } from '../../contract/index.ts';
import { isErrorBody, type Check } from './answers.ts';

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
  if (response.ok) {
    if (check(body)) return body;
    throw new ProxyRequestError('server', response.status, undefined, 'The documentation service answered in an unexpected shape.');
  }
  const detail = isErrorBody(body) ? body.error : undefined;
  const kind: FailureKind =
    response.status === 429 ? 'rate_limited' : response.status === 404 || response.status === 403 ? 'not_found' : 'server';
  throw new ProxyRequestError(
    kind,
    response.status,
    detail?.code,
    detail?.message ?? `The documentation service answered ${response.status}.`,
  );
}
