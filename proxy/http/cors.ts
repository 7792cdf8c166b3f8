/** CORS for the configured origins only; `*` (token mode) allows any origin without credentials. */
export class Cors {
  private readonly origins: Set<string>;
  private readonly any: boolean;

  constructor(
    origins: readonly string[],
    /** Session mode: the browser must send the reader's cookie. */
    private readonly withCredentials: boolean,
  ) {
    this.any = origins.includes('*');
    this.origins = new Set(origins.filter((origin) => origin !== '*').map((origin) => origin.toLowerCase()));
  }

  /** Headers for a response to a request from `origin` (always `Vary: Origin` when CORS is on). */
  headers(origin: string | undefined): Record<string, string> {
    const enabled = this.any || this.origins.size > 0;
    const vary = [...(enabled ? ['Origin'] : []), ...(this.withCredentials ? ['Cookie'] : [])];
    const headers: Record<string, string> = vary.length ? { vary: vary.join(', ') } : {};
    if (!enabled || !origin) return headers;
    if (this.any) headers['access-control-allow-origin'] = '*';
    else if (this.origins.has(origin.toLowerCase())) headers['access-control-allow-origin'] = origin;
    else return headers;
    if (this.withCredentials) headers['access-control-allow-credentials'] = 'true';
    headers['access-control-expose-headers'] = 'ETag, X-Doclens-Cache, Retry-After';
    return headers;
  }

  preflight(origin: string | undefined): Record<string, string> {
    const headers = this.headers(origin);
    if (!headers['access-control-allow-origin']) return headers;
    return {
      ...headers,
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': 'If-None-Match',
      'access-control-max-age': '86400',
    };
  }
}
