import type { Request, Response } from 'express';
import type { ProxyConfig } from '../config.ts';
import { cacheScopeOf, credentialOf, freshnessOf, type ProxyContext } from '../context.ts';
import { storedResponse, type Freshness, type StoredResponse } from '../http/cache.ts';
import type { EncodedBodies } from '../http/encoding.ts';
import { ProxyError } from '../http/errors.ts';
import { cacheKey, onlyParams, queryOf } from '../http/params.ts';
import { sendStored } from '../http/respond.ts';
import type { PathParams, Route } from '../http/route-table.ts';
import type { Credential } from '../upstream/api.ts';

/** A request to a JSON endpoint, as its `read` and `load` see it. */
export interface JsonRequest {
  req: Request;
  /** The query, holding only the endpoint's parameters; `read` normalizes it for the cache key. */
  query: URLSearchParams;
  path: PathParams;
  credential: Credential;
  /** The part of cache keys that keeps one reader's answers from another's. */
  scope: string;
}

/** A JSON endpoint answered from the response cache. */
export interface JsonEndpoint<Input, Answer> {
  /** Its query parameters, in cache-key order; any other is a 400. */
  params: readonly string[];
  /** The setting its answers stay fresh for. */
  freshness: 'searchTtl' | 'embedTtl' | 'projectsTtl';
  /**
   * Checks the request before the cache is asked (its errors are never cached) and normalizes `query`
   * so that spellings of one request share one entry.
   */
  read(request: JsonRequest): Input | Promise<Input>;
  /** What else the answer depends on besides the reader and the parameters (the origin its links name). */
  varies?(input: Input): string;
  load(input: Input, request: JsonRequest): Promise<Answer | SerializedAnswer>;
  /** Whether an answer may be kept at all (one that is partial may not: the next may say more). */
  keep?(answer: Answer): boolean;
}

/** An answer serialized, compressed and tagged already (a large one, in a worker thread). */
export class SerializedAnswer {
  constructor(
    readonly body: Buffer,
    readonly encoded: EncodedBodies,
    readonly etag: string,
    /** Whether it may be kept (`keep` of the endpoint, asked where it was made). */
    readonly kept: boolean,
  ) {}
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Seconds a "not found" or "page too complex" answer is kept. */
const FAILURE_TTL = 30;

/** Failures kept briefly: asking again would give the same answer, and cost the upstream or the extraction threads again. */
const keptFailure = (error: unknown): error is ProxyError =>
  error instanceof ProxyError && (error.status === 404 || error.code === 'page_too_complex');
const UNKEPT: Freshness = { ttl: 0, staleWhileRevalidate: 0, staleIfError: 0 };

/** `/api/v3/projects/:slug/versions/` with the decoded slug in place: the path part of a cache key. */
const keyPathOf = (template: string, path: PathParams) => template.replace(/:(\w+)/g, (_, name: string) => path[name] ?? '');

/**
 * The shared prelude and ending of every JSON endpoint: parameters read, the reader's credential and
 * cache scope, the cache key, the response cache (one load per key, stale-while-revalidate,
 * stale-if-error, short-lived "not found"), and the stored bytes sent with ETag, 304 and CORS headers:
 * what the hot path serves next time.
 */
export function cachedJson<Input, Answer>(context: ProxyContext, path: string, endpoint: JsonEndpoint<Input, Answer>): Route {
  const ttlOf = (config: ProxyConfig) => config[endpoint.freshness];
  return {
    path,
    rateLimited: true,
    async handle(req: Request, res: Response, params: PathParams) {
      const query = queryOf(req.url);
      onlyParams(query, endpoint.params);
      const credential = credentialOf(context, req);
      const request: JsonRequest = { req, query, path: params, credential, scope: cacheScopeOf(credential) };
      const input = await endpoint.read(request);
      const scope = endpoint.varies ? `${request.scope} ${endpoint.varies(input)}` : request.scope;
      const key = cacheKey(keyPathOf(path, params), query, endpoint.params, scope);
      await sendCached(context, req, res, key, async () => {
        const answer = await endpoint.load(input, request);
        const kept = answer instanceof SerializedAnswer ? answer.kept : !endpoint.keep || endpoint.keep(answer);
        return { answer, freshness: kept ? freshnessOf(context.config, ttlOf(context.config)) : UNKEPT };
      });
    },
  };
}

/** Answers from the response cache under `key`, loading on a miss, and notes the outcome for the log. */
async function sendCached(
  context: ProxyContext,
  req: Request,
  res: Response,
  key: string,
  load: () => Promise<{ answer: unknown; freshness: Freshness }>,
): Promise<void> {
  const shared = context.config.credentials === 'token';
  const note = context.notes.get(req) ?? {};
  note.key = key;
  context.notes.set(req, note);
  const store = (status: number, body: unknown, freshness: Freshness): StoredResponse =>
    body instanceof SerializedAnswer
      ? storedResponse(status, body.body, JSON_TYPE, freshness, shared, context.now(), { encoded: body.encoded, etag: body.etag })
      : storedResponse(status, Buffer.from(JSON.stringify(body)), JSON_TYPE, freshness, shared, context.now());
  const { entry, result } = await context.responses.get(key, async () => {
    const started = performance.now();
    try {
      const { answer, freshness } = await load();
      return store(200, answer, freshness);
    } catch (error) {
      // Kept briefly, so that a flood of them stays off the upstream and the extraction threads.
      if (keptFailure(error)) return store(error.status, error.body, { ...UNKEPT, ttl: FAILURE_TTL });
      throw error;
    } finally {
      note.upstreamMs = Math.round((performance.now() - started) * 10) / 10;
    }
  });
  note.cache = result;
  sendStored(req, res, entry, result, context.cors.headers(req.headers.origin), context.now());
}
