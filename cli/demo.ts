import { fileURLToPath } from 'node:url';
import type { RunningHost } from '../demo/host/app.ts';
import { startHost } from '../demo/host/app.ts';
import { loadManifest } from '../demo/host/manifest.ts';
import { parseOptions, portValue } from './args.ts';
import { demoToken, hostOptions, manifestFromOptions, startPages } from './host.ts';

export const demoHelp = `Usage: doclens demo [--docs DIR --project SLUG] [--port N]

Runs the doclens demo offline: the local docs host serving the bundled sample documentation (Aurora,
built with Sphinx: three versions, a Spanish translation and a plugins subproject; Skyline, built
with MkDocs), or any folder of built docs given with --docs.

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

export async function runDemo(argv: string[]): Promise<RunningHost | undefined> {
  const { token: _token, ...demoOptions } = hostOptions;
  const values = parseOptions(argv, demoOptions);
  if (values.help) {
    process.stdout.write(demoHelp);
    return undefined;
  }
  const custom = values.docs !== undefined || values.manifest !== undefined || values.project !== undefined;
  const manifest = custom ? manifestFromOptions(values) : loadManifest(bundledManifest);
  const port = portValue('--port', values.port, portValue('PORT', process.env.PORT, 8000));
  const host = await startHost({ manifest, token: demoToken(), port });
  const pages = startPages(host);
  console.log(`doclens demo is ready: ${pages[0]!.url}`);
  for (const { name, url } of pages) console.log(`  ${name.padEnd(16)} ${url}`);
  console.log(`  ${'Hosting API'.padEnd(16)} ${host.apiUrl}/api/v3/`);
  console.log('Press Ctrl+C to stop.');
  return host;
}
