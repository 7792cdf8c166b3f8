import { invalidParameter } from './errors.ts';

/** The query of a request, with each parameter at most once (a repeated one is ambiguous). */
export function queryOf(rawUrl: string): URLSearchParams {
  const at = rawUrl.indexOf('?');
  const search = at === -1 ? '' : rawUrl.slice(at + 1);
  let params: URLSearchParams;
  try {
    // URLSearchParams replaces invalid percent-encoding silently; say so instead.
    decodeURIComponent(search.replace(/\+/g, ' '));
    params = new URLSearchParams(search);
  } catch {
    throw invalidParameter('query', 'has invalid percent-encoding');
  }
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) throw invalidParameter(name, 'is given more than once');
    seen.add(name);
  }
  return params;
}

export function stringParam(params: URLSearchParams, name: string, maxLength: number): string | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  if (value.length > maxLength) throw invalidParameter(name, `is longer than ${maxLength} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check refuses
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(value)) throw invalidParameter(name, 'contains control characters');
  return value;
}

export function requiredParam(params: URLSearchParams, name: string, maxLength: number): string {
  const value = stringParam(params, name, maxLength);
  if (value === undefined || value.trim() === '') throw invalidParameter(name, 'is required');
  return value;
}

export function integerParam(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const value = params.get(name);
  if (value === null || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw invalidParameter(name, `must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

export function booleanParam(params: URLSearchParams, name: string): boolean | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  if (/^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  throw invalidParameter(name, 'must be true or false');
}

export function choiceParam<T extends string>(params: URLSearchParams, name: string, choices: readonly T[]): T | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  if (!(choices as readonly string[]).includes(value)) throw invalidParameter(name, `must be one of ${choices.join(', ')}`);
  return value as T;
}

/** Rejects parameters a route does not know, so that typos do not pass silently. */
export function onlyParams(params: URLSearchParams, known: readonly string[]): void {
  for (const name of params.keys()) if (!known.includes(name)) throw invalidParameter(name, 'is not a parameter of this endpoint');
}

/** A cache key for a route: its path and its known parameters in a fixed order. */
export function cacheKey(path: string, params: URLSearchParams, known: readonly string[], scope: string): string {
  const parts = known.filter((name) => params.has(name)).map((name) => `${name}=${encodeURIComponent(params.get(name)!)}`);
  return `${scope}|${path}?${parts.join('&')}`;
}
