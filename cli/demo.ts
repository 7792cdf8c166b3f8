import { existsSync } from 'node:fs';
import { compile } from 'css-select';
import { startHost, type RunningHost } from '../host/app.ts';
import { loadManifest } from '../host/manifest.ts';
import { escapeHtml } from '../search/index.ts';
import { parseConfig } from '../proxy/config.ts';
import { startProxy } from '../proxy/server.ts';
import { createLogger } from '../proxy/http/log.ts';
import { packagePath } from '../runtime/package-files.ts';
import { addressValue, parseOptions, portValue, UsageError } from './args.ts';
import { demoToken, hostOptions, indexCacheFromOptions, manifestFromOptions, reportSearchComplete, startPages } from './host.ts';

export const demoHelp = `Usage: doclens demo [--docs DIR --project SLUG] [--port N] [widget options]

Runs the doclens demo offline: the local docs host serving the bundled sample documentation (Aurora,
built with Sphinx: three versions, a Spanish translation and a plugins subproject; Skyline, built
with MkDocs), or any folder of built docs given with --docs, with the doclens proxy in front and
the widget on every page.

Options:
  --docs DIR         serve this folder of built HTML instead of the bundled demo
  --project SLUG     the project slug for --docs
  --version V        the version slug for --docs (default: latest)
  --language L       the language code for --docs (default: en)
  --manifest FILE    serve the projects of a manifest instead
  --port N           the first port to use; 0 picks free ports (default: $PORT or 8000)
  --host ADDR        the address the host and the proxy listen on (default: 127.0.0.1)
  --index-cache DIR  where search indexes are kept across restarts (default: $XDG_CACHE_HOME/doclens
                     or ~/.cache/doclens)
  -h, --help         show this help

Widget options (the loader's data-* attributes, written into every page's script tag):
  --preview-selector CSS   containers whose links preview (data-preview-selector; default: the
                           page's main content)
  --preview-domain HOST    another documentation host (name or name:port) whose links preview
                           through the proxy; repeat for several (data-preview-domains; the proxy
                           also fetches and extracts that host's pages itself)
  --no-preview-touch       a tap follows the link at once, no preview on touch screens
                           (data-preview-touch="off")
  --doctool NAME           sphinx (definition and glossary rules) or none (data-doctool; default:
                           detected from the page)
  --features LIST          search,preview,versions or a part of it; "" for none (data-features)
  --search-target CSS      where the search trigger goes (data-search-target)
  --versions-target CSS    where the version switcher goes, inline (data-versions-target)
  --switcher-always        the switcher even with one version and one language
                           (data-switcher="always")
  --notice WHICH           old, dev, all or none: the notice on old or development versions
                           (data-notice)
  --no-highlight           do not highlight searched words on the opened page (data-highlight="off")
`;

const bundledManifest = packagePath('demo/docs/manifest.json');
const widgetBundle = packagePath('dist/doclens.js');

const { token: _token, ...docsOptions } = hostOptions;

const demoOptions = {
  ...docsOptions,
  'preview-selector': { type: 'string' },
  'preview-domain': { type: 'string', multiple: true },
  'no-preview-touch': { type: 'boolean' },
  doctool: { type: 'string' },
  features: { type: 'string' },
  'search-target': { type: 'string' },
  'versions-target': { type: 'string' },
  'switcher-always': { type: 'boolean' },
  notice: { type: 'string' },
  'no-highlight': { type: 'boolean' },
} as const;

export type DemoValues = ReturnType<typeof parseOptions<typeof demoOptions>>;

/** Parses `doclens demo` arguments (the same words a user types). */
export function parseDemoArgs(argv: string[]): DemoValues {
  return parseOptions(argv, demoOptions);
}

function selectorValue(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    compile(raw);
  } catch {
    throw new UsageError(`${name} must be a CSS selector, not "${raw}"`);
  }
  return raw;
}

function choiceValue(name: string, raw: string | undefined, choices: readonly string[]): string | undefined {
  if (raw !== undefined && !choices.includes(raw)) throw new UsageError(`${name} must be one of ${choices.join(', ')}, not "${raw}"`);
  return raw;
}

/** The widget matches link hosts exactly, so no wildcards: a name or an IP literal, with an optional port. */
function previewDomains(raw: string[] | undefined): string[] {
  return (raw ?? []).map((value) => {
    const host = value.trim().toLowerCase();
    if (!/^([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)) {
      throw new UsageError(`--preview-domain must be a host name, optionally with :port, not "${value}"`);
    }
    return host;
  });
}

/** The loader's `data-*` attributes from the widget options (only those given). */
function loaderAttributes(values: DemoValues, domains: string[]): Record<string, string | undefined> {
  const features = values.features?.split(/[\s,]+/).filter(Boolean);
  const unknown = features?.find((feature) => !['search', 'preview', 'versions'].includes(feature));
  if (unknown) throw new UsageError(`--features takes search, preview and versions, not "${unknown}"`);
  return {
    'data-preview-selector': selectorValue('--preview-selector', values['preview-selector']),
    'data-preview-domains': domains.length ? domains.join(' ') : undefined,
    'data-preview-touch': values['no-preview-touch'] ? 'off' : undefined,
    'data-doctool': choiceValue('--doctool', values.doctool, ['sphinx', 'none']),
    'data-features': features?.join(','),
    'data-search-target': selectorValue('--search-target', values['search-target']),
    'data-versions-target': selectorValue('--versions-target', values['versions-target']),
    'data-switcher': values['switcher-always'] ? 'always' : undefined,
    'data-notice': choiceValue('--notice', values.notice, ['old', 'dev', 'all', 'none']),
    'data-highlight': values['no-highlight'] ? 'off' : undefined,
  };
}

export interface RunningDemo {
  /** Start page of each site. */
  pages: { name: string; url: string }[];
  proxyUrl: string;
  /** The local docs host (its registry, search index and API origin). */
  host: RunningHost;
  /** Token of the host's API v3. */
  token: string;
  close(): Promise<void>;
}

/** Only failures reach the terminal: a request log per page view would bury the demo's URLs. */
const demoLogger = createLogger('error', { write: (line: string) => console.error(`doclens proxy: ${line.trimEnd()}`) });

/** Starts the docs host and the proxy in front of it, the widget's tag on every page. */
export async function startDemo(values: DemoValues): Promise<RunningDemo> {
  const custom = values.docs !== undefined || values.manifest !== undefined || values.project !== undefined;
  const manifest = custom ? manifestFromOptions(values) : loadManifest(bundledManifest);
  const port = portValue('--port', values.port, portValue('PORT', process.env.PORT, 8000));
  const hostname = addressValue('--host', values.host, '127.0.0.1');
  const domains = previewDomains(values['preview-domain']);
  const attributes = Object.entries(loaderAttributes(values, domains))
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  const token = demoToken();
  let proxyUrl = '';
  // Every page gets the one tag an author adds; the proxy's address is known once it listens.
  const headHtml = () => `<script type="module" src="${proxyUrl}/doclens.js" data-proxy="${proxyUrl}"${attributes}></script>`;
  const host = await startHost({ manifest, token, port, hostname, headHtml, indexCache: indexCacheFromOptions(values) });
  const topLevel = host.registry.projects.filter((project) => !project.translationOf && !project.subprojectOf);
  const config = parseConfig({
    upstream: host.apiUrl,
    token,
    projects: topLevel.map((project) => project.slug),
    subprojects: true,
    // Each site of the host (a project with its translations and subprojects) has a port of its own.
    docsDomains: host.sites.map((site) => new URL(site.origin).host),
    externalDomains: domains,
    allowPrivateNetwork: true,
    corsOrigins: host.sites.map((site) => site.origin),
    port: port === 0 ? 0 : port + host.sites.length,
    host: hostname,
  });
  const proxy = await startProxy(config, { logger: demoLogger }).catch(async (error: unknown) => {
    await host.close();
    throw error;
  });
  proxyUrl = proxy.url;
  return {
    pages: startPages(host),
    proxyUrl,
    host,
    token,
    close: async () => {
      await proxy.close(2000);
      await host.close();
    },
  };
}

export async function runDemo(argv: string[]): Promise<RunningDemo | undefined> {
  const values = parseDemoArgs(argv);
  if (values.help) {
    process.stdout.write(demoHelp);
    return undefined;
  }
  const demo = await startDemo(values);
  console.log(`doclens demo is ready: ${demo.pages[0]!.url}`);
  for (const { name, url } of demo.pages) console.log(`  ${name.padEnd(16)} ${url}`);
  console.log(`  ${'doclens proxy'.padEnd(16)} ${demo.proxyUrl}/healthz`);
  console.log(`  ${'Hosting API'.padEnd(16)} ${demo.host.apiUrl}/api/v3/ (token ${demo.token})`);
  if (!existsSync(widgetBundle))
    console.error('doclens demo: the widget is not built (dist/doclens.js is missing): run "npm run build" and reload.');
  console.log('Press Ctrl+C to stop.');
  reportSearchComplete(demo.host, 'doclens demo');
  return demo;
}
