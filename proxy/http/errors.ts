import type { ErrorBody, ErrorCode } from '../../contract/index.ts';

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

  get body(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

export const invalidParameter = (name: string, problem: string) => new ProxyError(400, 'invalid_parameter', `"${name}" ${problem}.`);
