import { z } from 'zod';
import { HEADER_TIMEOUT_MS, MAX_CONNECTIONS } from '../runtime/connection-limits.ts';

type SettingType = 'string' | 'list' | 'boolean' | 'integer';

interface Setting {
  /** Key in the JSON config file and in `ProxyConfig`. */
  key: string;
  flag: string;
  env: string;
  type: SettingType;
  description: string;
  /**
   * The default in words, for a setting whose schema has no plain default to show (required, derived
   * from another setting, or an empty list); the others show the schema's own (`settingDefault`).
   */
  defaultText?: string;
}

/**
 * Every setting of the proxy, with its flag, environment variable and config-file key. The command's
 * help, the validation messages and the reference's settings table (docs/reference.md) all come from this table.
 */
export const SETTINGS: readonly Setting[] = [
  {
    key: 'upstream',
    flag: '--upstream',
    env: 'DOCLENS_UPSTREAM',
    type: 'string',
    defaultText: '(required)',
    description: 'URL of the hosting service whose API is forwarded (its origin, such as https://docs-host.example)',
  },
  {
    key: 'apiVersion',
    flag: '--api-version',
    env: 'DOCLENS_API_VERSION',
    type: 'string',
    description: 'upstream API version: v3, or v2 for older upstreams (public data only)',
  },
  {
    key: 'credentials',
    flag: '--credentials',
    env: 'DOCLENS_CREDENTIALS',
    type: 'string',
    description: "token: send DOCLENS_UPSTREAM_TOKEN to the upstream API; session: pass the reader's cookie through",
  },
  {
    key: 'projects',
    flag: '--project',
    env: 'DOCLENS_PROJECTS',
    type: 'list',
    defaultText: '(required)',
    description: 'project slug in scope; repeat the flag, or separate with commas',
  },
  {
    key: 'subprojects',
    flag: '--subprojects',
    env: 'DOCLENS_SUBPROJECTS',
    type: 'boolean',
    description: 'include the subprojects of the projects in scope',
  },
  {
    key: 'docsDomains',
    flag: '--docs-domain',
    env: 'DOCLENS_DOCS_DOMAINS',
    type: 'list',
    defaultText: "the upstream's origin",
    description: 'host whose pages may be embedded through the upstream (a name, name:port, or *.name for subdomains)',
  },
  {
    key: 'externalDomains',
    flag: '--external-domain',
    env: 'DOCLENS_EXTERNAL_DOMAINS',
    type: 'list',
    defaultText: 'none',
    description: 'external documentation host the proxy fetches and extracts itself',
  },
  {
    key: 'corsOrigins',
    flag: '--cors-origin',
    env: 'DOCLENS_CORS_ORIGINS',
    type: 'list',
    defaultText: 'none (same origin only)',
    description: 'origin allowed to call the proxy from a browser, such as https://docs.example.org; * allows any (token mode only)',
  },
  {
    key: 'allowPrivateNetwork',
    flag: '--allow-private-network',
    env: 'DOCLENS_ALLOW_PRIVATE_NETWORK',
    type: 'boolean',
    description: 'allow connections to loopback and private addresses (a local upstream)',
  },
  {
    key: 'cacheBytes',
    flag: '--cache-bytes',
    env: 'DOCLENS_CACHE_BYTES',
    type: 'integer',
    description: 'memory for cached responses and parsed pages, in bytes',
  },
  {
    key: 'searchTtl',
    flag: '--search-ttl',
    env: 'DOCLENS_SEARCH_TTL',
    type: 'integer',
    description: 'seconds search results stay fresh',
  },
  {
    key: 'embedTtl',
    flag: '--embed-ttl',
    env: 'DOCLENS_EMBED_TTL',
    type: 'integer',
    description: 'seconds embedded sections and previews stay fresh',
  },
  {
    key: 'projectsTtl',
    flag: '--projects-ttl',
    env: 'DOCLENS_PROJECTS_TTL',
    type: 'integer',
    description: 'seconds project, version and translation lists stay fresh',
  },
  {
    key: 'staleWhileRevalidate',
    flag: '--stale-while-revalidate',
    env: 'DOCLENS_STALE_WHILE_REVALIDATE',
    type: 'integer',
    description: 'seconds a stale response is served while it is refreshed',
  },
  {
    key: 'staleIfError',
    flag: '--stale-if-error',
    env: 'DOCLENS_STALE_IF_ERROR',
    type: 'integer',
    description: 'seconds a stale response is served while the upstream fails',
  },
  {
    key: 'rateLimit',
    flag: '--rate-limit',
    env: 'DOCLENS_RATE_LIMIT',
    type: 'integer',
    description: 'requests per minute per client address (0: no limit)',
  },
  {
    key: 'externalRateLimit',
    flag: '--external-rate-limit',
    env: 'DOCLENS_EXTERNAL_RATE_LIMIT',
    type: 'integer',
    description: 'page fetches per minute per external domain (0: no limit)',
  },
  {
    key: 'timeout',
    flag: '--timeout',
    env: 'DOCLENS_TIMEOUT',
    type: 'integer',
    description:
      'milliseconds for a whole upstream call: connecting (at most 1/3 of it), headers and body; ' +
      'also how long shutdown waits for requests in flight',
  },
  {
    key: 'extractTimeout',
    flag: '--extract-timeout',
    env: 'DOCLENS_EXTRACT_TIMEOUT',
    type: 'integer',
    description:
      'milliseconds the extraction of one section from a page may take (in a worker thread) before the page is refused as too complex',
  },
  {
    key: 'maxResponseBytes',
    flag: '--max-response-bytes',
    env: 'DOCLENS_MAX_RESPONSE_BYTES',
    type: 'integer',
    description: 'largest upstream response read, in bytes',
  },
  {
    key: 'headerTimeout',
    flag: '--header-timeout',
    env: 'DOCLENS_HEADER_TIMEOUT',
    type: 'integer',
    description: 'milliseconds a client has to send its request headers',
  },
  {
    key: 'maxConnections',
    flag: '--max-connections',
    env: 'DOCLENS_MAX_CONNECTIONS',
    type: 'integer',
    description: 'client connections open at once; further ones are closed at once',
  },
  {
    key: 'maxClientConnections',
    flag: '--max-client-connections',
    env: 'DOCLENS_MAX_CLIENT_CONNECTIONS',
    type: 'integer',
    description:
      'connections open at once from one client address, further ones closed at once; ' +
      'with --trust-proxy, requests in flight per forwarded client address (429 beyond)',
  },
  {
    key: 'trustProxy',
    flag: '--trust-proxy',
    env: 'DOCLENS_TRUST_PROXY',
    type: 'integer',
    description: 'reverse proxies in front whose X-Forwarded-For is trusted for client addresses',
  },
  {
    key: 'opsPort',
    flag: '--ops-port',
    env: 'DOCLENS_OPS_PORT',
    type: 'integer',
    defaultText: 'none (no /metrics)',
    description: 'port of the operations listener: /metrics, and /readyz with its reason (0 picks a free one)',
  },
  {
    key: 'opsHost',
    flag: '--ops-host',
    env: 'DOCLENS_OPS_HOST',
    type: 'string',
    description: 'address the operations listener listens on (keep it private: the metrics are not for readers)',
  },
  {
    key: 'redis',
    flag: '--redis',
    env: 'DOCLENS_REDIS_URL',
    type: 'string',
    defaultText: 'none (memory only)',
    description:
      'Valkey or Redis shared by replicas for cached answers and rate limits: redis://[:password@]host[:port][/db] ' +
      'or rediss:// (TLS); the password may come from DOCLENS_REDIS_PASSWORD',
  },
  {
    key: 'redisBytes',
    flag: '--redis-bytes',
    env: 'DOCLENS_REDIS_BYTES',
    type: 'integer',
    description: "bytes of cached answers the deployment's replicas keep in Redis at most, together",
  },
  {
    key: 'redisTtl',
    flag: '--redis-ttl',
    env: 'DOCLENS_REDIS_TTL',
    type: 'integer',
    description: 'seconds a cached answer stays in Redis at most (stale copies included)',
  },
  {
    key: 'redisTimeout',
    flag: '--redis-timeout',
    env: 'DOCLENS_REDIS_TIMEOUT',
    type: 'integer',
    description: 'milliseconds a Redis command may take before the proxy goes on without it (memory and the upstream)',
  },
  {
    key: 'logLevel',
    flag: '--log-level',
    env: 'DOCLENS_LOG_LEVEL',
    type: 'string',
    description: 'least severe log lines written: trace, debug, info, warn, error, fatal or silent',
  },
  {
    key: 'port',
    flag: '--port',
    env: 'DOCLENS_PORT',
    type: 'integer',
    description: 'port to listen on (0 picks a free one)',
  },
  {
    key: 'host',
    flag: '--host',
    env: 'DOCLENS_HOST',
    type: 'string',
    description: 'address to listen on (0.0.0.0 for every interface)',
  },
];

/** The secret is only ever read from the environment. */
export const TOKEN_ENV = 'DOCLENS_UPSTREAM_TOKEN';
/** The Redis password, when it is not in the URL: from the environment only, as the token. */
export const REDIS_PASSWORD_ENV = 'DOCLENS_REDIS_PASSWORD';

const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/i, 'must be a project slug (letters, digits, "-" and "_")');
const domain = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .pipe(
    z
      .string()
      .regex(
        /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/,
        'must be a host name, optionally with :port or a leading *.',
      ),
  );
const origin = z
  .string()
  .refine(
    (value) => value === '*' || /^https?:\/\/[^/?#\s]+$/.test(value),
    'must be an origin such as https://docs.example.org, without a path',
  );
const seconds = z.number().int().min(0).max(31_536_000);

export const configSchema = z
  .strictObject({
    upstream: z
      .string({ error: 'is required' })
      .refine(
        (value) => /^https?:\/\/[^/?#\s]+/.test(value) && URL.canParse(value),
        'must be an http(s) URL such as https://docs-host.example',
      )
      .transform((value) => new URL(value).origin),
    apiVersion: z.enum(['v3', 'v2'], { error: 'must be v3 or v2' }).default('v3'),
    credentials: z.enum(['token', 'session'], { error: 'must be token or session' }).default('token'),
    // A token read from a file often ends with a newline or CR, which would break (or smuggle into) the header.
    token: z
      .string()
      .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters only (no spaces, line ends or other control characters)')
      .optional(),
    projects: z.array(slug, { error: 'is required' }).min(1, 'needs at least one project'),
    subprojects: z.boolean().default(false),
    docsDomains: z.array(domain).default([]),
    externalDomains: z.array(domain).default([]),
    corsOrigins: z.array(origin).default([]),
    allowPrivateNetwork: z.boolean().default(false),
    cacheBytes: z
      .number()
      .int()
      .min(1024 * 1024, 'must be at least 1048576 (1 MB)')
      .default(64 * 1024 * 1024),
    searchTtl: seconds.default(60),
    embedTtl: seconds.default(600),
    projectsTtl: seconds.default(300),
    staleWhileRevalidate: seconds.default(600),
    staleIfError: seconds.default(86_400),
    rateLimit: z.number().int().min(0).default(600),
    externalRateLimit: z.number().int().min(0).default(60),
    timeout: z.number().int().min(100, 'must be at least 100 (milliseconds)').max(120_000).default(10_000),
    extractTimeout: z.number().int().min(100, 'must be at least 100 (milliseconds)').max(120_000).default(5000),
    maxResponseBytes: z
      .number()
      .int()
      .min(1024)
      .default(10 * 1024 * 1024),
    headerTimeout: z.number().int().min(100, 'must be at least 100 (milliseconds)').max(120_000).default(HEADER_TIMEOUT_MS),
    maxConnections: z.number().int().min(1).max(1_000_000).default(MAX_CONNECTIONS),
    maxClientConnections: z.number().int().min(1).max(1_000_000).default(64),
    trustProxy: z.number().int().min(0).max(10).default(0),
    opsPort: z.number().int().min(0).max(65_535).optional(),
    opsHost: z.string().min(1).default('127.0.0.1'),
    redis: z
      .string()
      .refine(
        (value) => /^rediss?:\/\/[^/?#\s]+/.test(value) && URL.canParse(value),
        'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379',
      )
      .optional(),
    redisPassword: z.string().min(1).optional(),
    redisBytes: z
      .number()
      .int()
      .min(1024 * 1024, 'must be at least 1048576 (1 MB)')
      .default(256 * 1024 * 1024),
    redisTtl: z.number().int().min(1).max(31_536_000).default(3600),
    redisTimeout: z.number().int().min(5, 'must be at least 5 (milliseconds)').max(10_000).default(100),
    logLevel: z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
        error: 'must be one of trace, debug, info, warn, error, fatal, silent',
      })
      .default('info'),
    port: z.number().int().min(0).max(65_535).default(8080),
    host: z.string().min(1).default('127.0.0.1'),
    /** Folder holding the built `doclens.js`; the package's own `dist/` by default. */
    widgetDir: z.string().optional(),
  })
  .superRefine((config, context) => {
    if (config.credentials === 'token' && !config.token) {
      context.addIssue({ code: 'custom', path: ['token'], message: `is required in token mode: set ${TOKEN_ENV}` });
    }
    if (config.credentials === 'session' && config.apiVersion === 'v2') {
      context.addIssue({ code: 'custom', path: ['credentials'], message: 'session needs API v3 (API v2 is public data only)' });
    }
    if (config.credentials === 'session' && config.corsOrigins.includes('*')) {
      context.addIssue({ code: 'custom', path: ['corsOrigins'], message: 'cannot be * with session credentials: name the origins' });
    }
  });

export type ProxyConfigInput = z.input<typeof configSchema>;
export type ProxyConfig = z.output<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function describe(key: string): string {
  if (key === 'token') return TOKEN_ENV;
  if (key === 'redisPassword') return REDIS_PASSWORD_ENV;
  const setting = SETTINGS.find((entry) => entry.key === key);
  return setting ? `${setting.flag} (${setting.env}, "${key}" in the config file)` : `"${key}"`;
}

/** Validates a configuration; a ConfigError names every wrong setting by flag, variable and key. */
export function parseConfig(input: unknown): ProxyConfig {
  const result = configSchema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const key = issue.path[0];
    if (issue.code === 'unrecognized_keys')
      return `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((name) => `"${name}"`).join(', ')}`;
    const item = issue.path.length > 1 ? ` item ${String(issue.path[1])}` : '';
    return `${typeof key === 'string' ? describe(key) : 'configuration'}${item}: ${issue.message}`;
  });
  throw new ConfigError(lines.join('; '));
}

/** A setting's default as the help and the reference show it: the schema's own, or its words where it has none. */
export function settingDefault(setting: Setting): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  // A field with a default parses nothing into it.
  return String(configSchema.shape[setting.key as keyof typeof configSchema.shape].parse(undefined));
}

/** Converts a flag or environment value of a setting to the type the schema checks. */
export function settingValue(setting: Setting, raw: string | string[] | boolean): unknown {
  const values = (Array.isArray(raw) ? raw : [raw]).map(String);
  switch (setting.type) {
    case 'list':
      return values
        .flatMap((value) => value.split(','))
        .map((value) => value.trim())
        .filter(Boolean);
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (/^(1|true|yes|on)$/i.test(values[0]!)) return true;
      if (/^(0|false|no|off|)$/i.test(values[0]!)) return false;
      return values[0];
    case 'integer':
      return /^-?\d+$/.test(values[0]!.trim()) ? Number(values[0]) : values[0];
    default:
      return values[0];
  }
}

/** Merges config file, environment and flags (later wins) into one input for `parseConfig`. */
export function configInput(
  file: Record<string, unknown>,
  env: Record<string, string | undefined>,
  flags: Record<string, string | string[] | boolean | undefined>,
): Record<string, unknown> {
  if ('token' in file) throw new ConfigError(`"token" cannot be in the config file: set ${TOKEN_ENV} in the environment`);
  if ('redisPassword' in file)
    throw new ConfigError(`"redisPassword" cannot be in the config file: set ${REDIS_PASSWORD_ENV} in the environment`);
  const input: Record<string, unknown> = { ...file };
  for (const setting of SETTINGS) {
    const fromEnv = env[setting.env];
    if (fromEnv !== undefined && fromEnv !== '') input[setting.key] = settingValue(setting, fromEnv);
    const fromFlag = flags[setting.key];
    if (fromFlag !== undefined) input[setting.key] = settingValue(setting, fromFlag);
  }
  const token = env[TOKEN_ENV];
  if (token) input.token = token;
  const redisPassword = env[REDIS_PASSWORD_ENV];
  if (redisPassword) input.redisPassword = redisPassword;
  return input;
}
