/** Every error of the proxy: `{"error": {"code": "…", "message": "…"}}`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

/**
 * Machine codes of the proxy's errors; clients branch on these, so they are stable. The comment above
 * each group gives its HTTP status (docs/reference.md lists them from here).
 */
export type ErrorCode =
  // 400 (408 for a request too slow to arrive, 431 for headers too large, or Express's own 4xx)
  | 'bad_request'
  // 400, naming the parameter
  | 'invalid_parameter'
  // 403 (404 for a project asked by slug)
  | 'project_not_allowed'
  // 403
  | 'domain_not_allowed'
  // 404 (403 for a reader whose session has no access)
  | 'not_found'
  // 404
  | 'section_not_found'
  | 'page_not_found'
  // 405, with Allow
  | 'method_not_allowed'
  // 429, with Retry-After
  | 'rate_limited'
  // 502 (503 with Retry-After when the upstream rate-limits the proxy)
  | 'upstream_error'
  // 502
  | 'upstream_unreachable'
  | 'upstream_invalid_response'
  | 'upstream_too_large'
  | 'upstream_redirect_refused'
  | 'forbidden_address'
  // 502: a page nested too deep, or too costly to extract within the proxy's time and memory limits
  | 'page_too_complex'
  // 504
  | 'upstream_timeout'
  // 503
  | 'shutting_down'
  // 503, with Retry-After: every extraction thread is busy and the queue is full
  | 'overloaded'
  // 500
  | 'internal_error';
