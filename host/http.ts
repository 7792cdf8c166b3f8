import type { ErrorRequestHandler, Request, RequestHandler } from 'express';

/** An error answered as JSON with `body` (the hosting service's error shapes vary by endpoint). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(JSON.stringify(body));
    this.name = 'HttpError';
  }
}

/** The Django REST framework shape most endpoints of the hosting service use. */
export const detailError = (status: number, detail: string) => new HttpError(status, { detail });

export const notFound = () => detailError(404, 'Not found.');

/** A single-valued query parameter; repeated parameters are refused rather than guessed at. */
export function queryParam(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, { [name]: [`Give "${name}" once, as a plain value.`] });
  return value;
}

/** An integer query parameter within bounds; anything else is a 400 that names the parameter. */
export function integerParam(req: Request, name: string, fallback: number, min: number, max: number): number {
  const raw = queryParam(req, name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(400, { [name]: [`"${name}" must be a whole number.`] });
  const value = Number(raw);
  if (value < min || value > max) throw new HttpError(400, { [name]: [`"${name}" must be between ${min} and ${max}.`] });
  return value;
}

/** A boolean filter as the hosting service accepts it. */
export function booleanParam(req: Request, name: string): boolean | undefined {
  const raw = queryParam(req, name);
  if (raw === undefined || raw === '') return undefined;
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  throw new HttpError(400, { [name]: [`"${name}" must be true or false.`] });
}

/** The absolute URL of this request with some query parameters changed. */
export function requestUrlWith(req: Request, origin: string, changes: Record<string, string | number>): string {
  const url = new URL(req.originalUrl, origin);
  for (const [key, value] of Object.entries(changes)) url.searchParams.set(key, String(value));
  return url.href;
}

/** A `limit`/`offset` page of `items` in the pagination envelope of list endpoints. */
export function paginate<T>(req: Request, origin: string, items: T[], defaultLimit = 10): Record<string, unknown> {
  const limit = integerParam(req, 'limit', defaultLimit, 1, 100);
  const offset = integerParam(req, 'offset', 0, 0, 1_000_000);
  const next = offset + limit < items.length ? requestUrlWith(req, origin, { limit, offset: offset + limit }) : null;
  const previous = offset > 0 ? requestUrlWith(req, origin, { limit, offset: Math.max(0, offset - limit) }) : null;
  return { count: items.length, next, previous, results: items.slice(offset, offset + limit) };
}

/** Read-only API: every other method is refused, as the hosting service does for reads. */
export const readOnly: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') next();
  else next(detailError(405, `Method "${req.method}" not allowed.`));
};

/** The origin (`http://HOST:PORT`) a request was sent to. */
export function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** JSON for every error: the ones thrown on purpose with their body, anything else as a bare 500. */
export const jsonErrors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  if (error instanceof HttpError) {
    res.status(error.status).json(error.body);
    return;
  }
  const status = (error as { status?: unknown }).status;
  // Express reports malformed requests (bad JSON, bad URI encoding) with a 4xx status of their own.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json({ detail: 'Malformed request.' });
    return;
  }
  console.error(error);
  res.status(500).json({ detail: 'Internal server error.' });
};
