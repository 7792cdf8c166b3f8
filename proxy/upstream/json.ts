/** Reading JSON from the network: each accessor answers with the type asked for, whatever was sent. */
import { ProxyError } from '../http/errors.ts';

export type Json = Record<string, unknown>;

export const asString = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** A string, or null for anything else (fields the API documents as nullable). */
export const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The strings of a list, anything else in it left out. */
export const strings = (value: unknown): string[] => asArray(value).filter((item): item is string => typeof item === 'string');

export const idOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);

export const invalidResponse = (what: string) =>
  new ProxyError(502, 'upstream_invalid_response', `The hosting service answered with ${what}.`);

/** The `results` list of an answer; an answer without one is not the answer asked for. */
export function resultsOf(data: Json): unknown[] {
  if (!Array.isArray(data.results)) throw invalidResponse('no list of results');
  return data.results;
}

/** The JSON object an upstream body holds; anything else is not an answer of the API. */
export function jsonObject(body: Uint8Array): Json {
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    throw invalidResponse('a body that is not JSON');
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw invalidResponse('unexpected JSON');
  return data as Json;
}
