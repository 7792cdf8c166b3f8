import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { startHost, type RunningHost } from '../host/app.ts';
import type { HeadInjection } from '../host/docs.ts';
import { defaultIndexCacheDir } from '../host/index-cache.ts';
import { loadManifest, singleFolderManifest, type Manifest } from '../host/manifest.ts';
import { addressValue, languageValue, parseOptions, portValue, slugValue, UsageError } from './args.ts';
import type { CommandIO } from './io.ts';

/** Where the host's API v3 token comes from: a secret, so from the environment (as the proxy's token). */
export const HOST_TOKEN_ENV = 'DOCLENS_HOST_TOKEN';

export const hostHelp = `Usage: doclens host (--docs DIR --project SLUG | --manifest FILE) [options]

Serves folders of built documentation the way the hosting service does (/<language>/<version>/…),
with its read API (v3 with a token, v2 public): projects, versions, translations, subprojects,
embed and search.

Options:
  --docs DIR         a folder of built HTML (Sphinx _build/html, MkDocs site/, any static docs)
  --project SLUG     the project slug for --docs
  --version V        the version slug for --docs (default: latest)
  --language L       the language code for --docs (default: en)
  --manifest FILE    a JSON manifest of several projects, versions, translations and subprojects
  --port N           the port of the first site and the API; 0 picks a free one (default: 8000)
  --host ADDR        the address to listen on (default: 127.0.0.1; 0.0.0.0 for every interface)
  --token T          the API v3 token, for local use only: other users of the machine can read it
                     (default: $${HOST_TOKEN_ENV}, else a random token printed at start)
  --index-cache DIR  where search indexes are kept across restarts (default: $XDG_CACHE_HOME/doclens
                     or ~/.cache/doclens)
  -h, --help         show this help
`;

export const hostOptions = {
  docs: { type: 'string' },
  project: { type: 'string' },
  version: { type: 'string' },
  language: { type: 'string' },
  manifest: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  'index-cache': { type: 'string' },
} as const;

/** Which docs to serve, from --docs/--project/--version/--language or --manifest. */
export function manifestFromOptions(values: {
  docs?: string;
  project?: string;
  version?: string;
  language?: string;
  manifest?: string;
}): Manifest {
  if (values.manifest !== undefined) {
    if (values.docs !== undefined || values.project !== undefined)
      throw new UsageError('--manifest cannot be combined with --docs or --project');
    if (!existsSync(values.manifest)) throw new UsageError(`--manifest: no such file: ${values.manifest}`);
    return loadManifest(values.manifest);
  }
  if (values.docs === undefined) throw new UsageError('--docs DIR (or --manifest FILE) is required');
  if (!existsSync(values.docs) || !statSync(values.docs).isDirectory()) throw new UsageError(`--docs: no such folder: ${values.docs}`);
  if (values.project === undefined) throw new UsageError('--project SLUG is required with --docs');
  return singleFolderManifest({
    docs: values.docs,
    project: slugValue('--project', values.project),
    version: slugValue('--version', values.version ?? 'latest'),
    language: languageValue('--language', values.language ?? 'en'),
  });
}

export function demoToken(): string {
  return `demo-${randomBytes(12).toString('hex')}`;
}

/** The API v3 token and where it came from: --token (with a warning), the environment, or a random one. */
export function hostToken(flag: string | undefined, env: NodeJS.ProcessEnv): { token: string; source: 'flag' | 'environment' | 'random' } {
  const given = flag ?? (env[HOST_TOKEN_ENV] || undefined);
  if (given === undefined) return { token: demoToken(), source: 'random' };
  const name = flag === undefined ? HOST_TOKEN_ENV : '--token';
  if (!/^[\x21-\x7e]{8,}$/.test(given))
    throw new UsageError(`${name} must be at least 8 visible ASCII characters (no spaces or line ends)`);
  return { token: given, source: flag === undefined ? 'environment' : 'flag' };
}

/** The search index cache folder from --index-cache, else the user's cache folder. */
export function indexCacheFromOptions(values: { 'index-cache'?: string }): string {
  if (values['index-cache'] === '') throw new UsageError('--index-cache needs a folder');
  return values['index-cache'] ?? defaultIndexCacheDir();
}

/** The line that says when every default version can be searched in full (pages are served before). */
export function reportSearchComplete(host: RunningHost, prefix: string, io: CommandIO): void {
  host.searchComplete.then(
    ({ seconds, versions, cached }) => {
      const from =
        cached === versions
          ? ' (indexes loaded from the cache)'
          : cached > 0
            ? ` (${cached} of ${versions} indexes loaded from the cache)`
            : '';
      io.stdout.write(`${prefix}: search complete in ${seconds.toFixed(1)} s${from}\n`);
    },
    () => {},
  );
}

/** Start page of each site: its main project's default version. */
export function startPages(host: RunningHost): { name: string; url: string }[] {
  return host.sites.map((site) => {
    const version = site.main.versions.find((candidate) => candidate.slug === site.main.defaultVersion)!;
    return { name: site.main.name, url: host.registry.docsUrl(version) };
  });
}

export async function runHost(argv: string[], io: CommandIO, options: { headHtml?: HeadInjection } = {}): Promise<RunningHost | undefined> {
  const values = parseOptions(argv, hostOptions);
  if (values.help) {
    io.stdout.write(hostHelp);
    return undefined;
  }
  const manifest = manifestFromOptions(values);
  const port = portValue('--port', values.port, 8000);
  const hostname = addressValue('--host', values.host, '127.0.0.1');
  const { token, source } = hostToken(values.token, io.env);
  if (source === 'flag') {
    io.stderr.write(
      `doclens host: warning: --token is visible to other users of this machine (process list, shell history); ` +
        `set ${HOST_TOKEN_ENV} instead\n`,
    );
  }
  const host = await startHost({ manifest, token, port, hostname, indexCache: indexCacheFromOptions(values), ...options });
  for (const { name, url } of startPages(host)) io.stdout.write(`doclens host: serving ${name} at ${url}\n`);
  const shown = { random: token, environment: `from ${HOST_TOKEN_ENV}`, flag: 'from --token' }[source];
  io.stdout.write(`doclens host: API at ${host.apiUrl}/api/v3/ (token: ${shown})\n`);
  reportSearchComplete(host, 'doclens host', io);
  return host;
}
