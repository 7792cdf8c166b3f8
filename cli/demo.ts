import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startHost } from '../demo/host/app.ts';
import { loadManifest } from '../demo/host/manifest.ts';
import { parseConfig } from '../proxy/config.ts';
import { startProxy } from '../proxy/server.ts';
import { parseOptions, portValue } from './args.ts';
import { demoToken, hostOptions, manifestFromOptions, startPages } from './host.ts';

export const demoHelp = `Usage: doclens demo [--docs DIR --project SLUG] [--port N]

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
  -h, --help         show this help
`;

const bundledManifest = fileURLToPath(new URL('../demo/docs/manifest.json', import.meta.url));
const widgetBundle = fileURLToPath(new URL('../dist/doclens.js', import.meta.url));

export interface RunningDemo {
  close(): Promise<void>;
}

/** Only failures reach the terminal: a request log per page view would bury the demo's URLs. */
const demoLog = (entry: Record<string, unknown>) => {
  if (entry.level === 'error') console.error(`doclens proxy: ${JSON.stringify(entry)}`);
};

export async function runDemo(argv: string[]): Promise<RunningDemo | undefined> {
  const { token: _token, ...demoOptions } = hostOptions;
  const values = parseOptions(argv, demoOptions);
  if (values.help) {
    process.stdout.write(demoHelp);
    return undefined;
  }
  const custom = values.docs !== undefined || values.manifest !== undefined || values.project !== undefined;
  const manifest = custom ? manifestFromOptions(values) : loadManifest(bundledManifest);
  const port = portValue('--port', values.port, portValue('PORT', process.env.PORT, 8000));
  const token = demoToken();
  let proxyUrl = '';
  // Every page gets the one tag an author adds; the proxy's address is known once it listens.
  const headHtml = () => `<script type="module" src="${proxyUrl}/doclens.js" data-proxy="${proxyUrl}"></script>`;
  const host = await startHost({ manifest, token, port, headHtml });
  const topLevel = host.registry.projects.filter((project) => !project.translationOf && !project.subprojectOf);
  const config = parseConfig({
    upstream: host.apiUrl,
    token,
    projects: topLevel.map((project) => project.slug),
    subprojects: true,
    allowPrivateNetwork: true,
    corsOrigins: host.sites.map((site) => site.origin),
    port: port === 0 ? 0 : port + host.sites.length,
  });
  const proxy = await startProxy(config, { log: demoLog }).catch(async (error: unknown) => {
    await host.close();
    throw error;
  });
  proxyUrl = proxy.url;
  const pages = startPages(host);
  console.log(`doclens demo is ready: ${pages[0]!.url}`);
  for (const { name, url } of pages) console.log(`  ${name.padEnd(16)} ${url}`);
  console.log(`  ${'doclens proxy'.padEnd(16)} ${proxy.url}/healthz`);
  console.log(`  ${'Hosting API'.padEnd(16)} ${host.apiUrl}/api/v3/ (token ${token})`);
  if (!existsSync(widgetBundle)) console.error('doclens demo: the widget is not built (dist/doclens.js is missing): run "npm run build" and reload.');
  console.log('Press Ctrl+C to stop.');
  return {
    close: async () => {
      await proxy.close(2000);
      await host.close();
    },
  };
}
