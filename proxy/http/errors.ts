/** Machine codes of the proxy's JSON errors; clients branch on these, so they are stable. */
export type ErrorCode =
  | 'bad_request'
  | 'invalid_parameter'
  | 'not_found'
  | 'method_not_allowed'
  | 'project_not_allowed'
  | 'domain_not_allowed'
  | 'section_not_found'
  | 'page_not_found'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'upstream_unreachable'
  | 'upstream_invalid_response'
  | 'upstream_too_large'
  | 'upstream_redirect_refused'
  | 'forbidden_address'
  | 'shutting_down'
  | 'internal_error';

/** An error answered as `{ "error": { "code", "message" } }` with `status`. */
export class ProxyError extends Error {
  override name = 'ProxyError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, such as `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body(): { error: { code: ErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export const invalidParameter = (name: string, problem: string) =>
  new ProxyError(400, 'invalid_parameter', `"${name}" ${problem}.`);
