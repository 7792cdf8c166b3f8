import { ProxyError } from '../http/errors.ts';
import type { Credential } from './api.ts';
import { FetchError, joined, type FetchedResponse, type Fetcher } from './fetch.ts';
import { asObject, jsonObject, resultsOf, type Json } from './json.ts';

/** Lists the widget needs are short: at most this many pages of one are read. */
const MAX_LIST_PAGES = 10;
const LIST_PAGE_SIZE = 100;

const ANONYMOUS: Credential = { kind: 'anonymous' };

/**
 * GETs JSON objects from the upstream API, with errors turned into `ProxyError`s carrying the proxy's
 * own messages only (upstream text can hold anything: secrets in any spelling, markup, terminal escapes).
 */
export class UpstreamClient {
  constructor(
    private readonly fetcher: Fetcher,
    /** Origin of the upstream API. */
    private readonly origin: string,
    /** Whether the credential goes upstream (API v2's endpoints are public: no credential goes to them). */
    private readonly sendsCredentials: boolean,
  ) {}

  async get(path: string, query: Record<string, string | undefined>, credential: Credential): Promise<Json> {
    const { chunks } = await this.body(path, query, credential, false);
    return jsonObject(joined(chunks));
  }

  /**
   * The body of a successful answer, unread; with `hold`, its bytes stay counted in flight until the
   * caller's `release` (once the work on them is done).
   */
  async body(
    path: string,
    query: Record<string, string | undefined>,
    credential: Credential,
    hold: boolean,
  ): Promise<Pick<FetchedResponse, 'chunks' | 'release'>> {
    const sent = this.sendsCredentials ? credential : ANONYMOUS;
    const url = new URL(path, this.origin);
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (sent.kind === 'token') headers.authorization = `Token ${sent.token}`;
    if (sent.kind === 'session') headers.cookie = sent.cookie;
    let response: FetchedResponse;
    try {
      // API calls never follow a redirect to another host: the credential must stay with the API.
      response = await this.fetcher.fetch({ url: url.href, headers, allowRedirect: (target) => target.origin === this.origin, hold });
    } catch (error) {
      throw fetchFailure(error);
    }
    // Error bodies are never read: only the status says what happened.
    if (response.status < 200 || response.status >= 300) {
      response.release();
      throw statusError(response.status, sent);
    }
    return response;
  }

  /** Every item of a paginated list. */
  async list(path: string, credential: Credential): Promise<Json[]> {
    const items: Json[] = [];
    let offset = 0;
    for (let pageCount = 0; pageCount < MAX_LIST_PAGES; pageCount++) {
      const data = await this.get(path, { limit: String(LIST_PAGE_SIZE), offset: String(offset) }, credential);
      const results = resultsOf(data).map(asObject);
      items.push(...results);
      if (typeof data.next !== 'string' || results.length === 0) break;
      offset += results.length;
    }
    return items;
  }
}

function statusError(status: number, credential: Credential): ProxyError {
  if (status === 404) return new ProxyError(404, 'not_found', 'Not found upstream.');
  if (status === 400) return new ProxyError(400, 'bad_request', 'The hosting service refused the request as invalid.');
  if ((status === 401 || status === 403) && credential.kind === 'session') {
    return new ProxyError(403, 'not_found', 'You do not have access to this documentation.');
  }
  if (status === 401 || status === 403)
    return new ProxyError(502, 'upstream_error', "The hosting service refused the proxy's credentials.");
  if (status === 429)
    return new ProxyError(503, 'upstream_error', 'The hosting service is rate limiting the proxy; try again shortly.', {
      'retry-after': '30',
    });
  return new ProxyError(502, 'upstream_error', `The hosting service answered ${status}.`);
}

/**
 * A failed request as a client-facing error: timeouts 504, everything else 502. The message names who
 * failed: `host` for a page the proxy fetches itself, else the hosting service (an API call).
 */
export function fetchFailure(error: unknown, host?: string): ProxyError {
  const source = host ?? 'The hosting service';
  if (!(error instanceof FetchError)) return new ProxyError(502, 'upstream_unreachable', `${source} could not be reached.`);
  switch (error.failure) {
    case 'timeout':
      return new ProxyError(504, 'upstream_timeout', `${source} did not answer in time.`);
    case 'too_large':
      return new ProxyError(502, 'upstream_too_large', `${source} sent a response larger than the proxy accepts.`);
    case 'overloaded':
      return new ProxyError(503, 'overloaded', 'The proxy is reading too many large responses at once; try again shortly.', {
        'retry-after': '1',
      });
    case 'redirect_refused':
    case 'too_many_redirects':
      return new ProxyError(
        502,
        'upstream_redirect_refused',
        `${source} redirected where the proxy does not follow (${error.failure.replace(/_/g, ' ')}).`,
      );
    case 'forbidden_address':
      return new ProxyError(
        502,
        'forbidden_address',
        `The address of ${host ?? 'the upstream'} is private and the proxy is not configured to reach private networks.`,
      );
    default:
      return new ProxyError(502, 'upstream_unreachable', `${source} could not be reached.`);
  }
}
