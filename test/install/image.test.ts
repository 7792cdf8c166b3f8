import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadManifest } from '../../host/manifest.ts';
import { demoBuild, demoManifest } from '../fixtures/demo.ts';

/**
 * deploy/Containerfile built and run with podman (`npm run test:install`, minutes: not in `npm test`).
 * The base is made from what this machine reaches (deploy/local-base.sh: Debian's mirror, the npm
 * registry), once, and kept in podman's image store for the next runs; DOCLENS_CONTAINER_BASE names
 * another. The image's npm reaches the registry through the machine's network and its CA bundle.
 */
const checkout = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { version: string };
const podmanInstalled = spawnSync('podman', ['--version']).status === 0;
const TOKEN = 'container-test-token';
const IMAGE = `localhost/doclens-test:${version}`;
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

let work: string;
let env: NodeJS.ProcessEnv;
let podman: string[];
let host: RunningHost;
const containers: string[] = [];

/** Debian's podman here: runc (crun is refused by this kernel's cgroups) and no default ulimits. */
function runPodman(args: string[], timeout = 600_000): string {
  return execFileSync(podman[0]!, [...podman.slice(1), ...args], { env, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 60): Promise<T> {
  for (let tries = 0; tries < seconds * 4; tries++) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: no answer within ${seconds} s`);
}

/** Starts the image in the host's network (it reaches the test's docs host on loopback). */
function run(name: string, environment: Record<string, string>, args: string[]): string {
  const id = runPodman([
    'run',
    '--detach',
    '--name',
    `${name}-${process.pid}`,
    '--network',
    'host',
    ...Object.entries(environment).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    ...args,
  ]).trim();
  containers.push(id);
  return id;
}

describe.skipIf(!podmanInstalled)(`the container image${podmanInstalled ? '' : ' (skipped: podman is not installed)'}`, () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'doclens-container-'));
    writeFileSync(join(work, 'containers.conf'), '[containers]\ndefault_ulimits = []\n');
    env = { ...process.env, CONTAINERS_CONF: join(work, 'containers.conf') };
    podman = spawnSync('runc', ['--version']).status === 0 ? ['podman', '--runtime', 'runc'] : ['podman'];
    const base =
      process.env.DOCLENS_CONTAINER_BASE ??
      execFileSync(join(checkout, 'deploy/local-base.sh'), {
        env: { ...env, PODMAN: podman.join(' ') },
        encoding: 'utf8',
        timeout: 600_000,
      }).trim();
    const context = join(work, 'context');
    execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: checkout, stdio: 'ignore' });
    mkdirSync(context);
    copyFileSync(join(work, `doclens-${version}.tgz`), join(context, 'doclens.tgz'));
    const network = existsSync(CA_BUNDLE)
      ? [
          '--volume',
          `${CA_BUNDLE}:/etc/ssl/certs/build-host-ca.crt:ro`,
          '--build-arg',
          'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/build-host-ca.crt',
        ]
      : [];
    runPodman([
      'build',
      '--quiet',
      // No intermediate images left behind; the base, which takes longest, stays in the store.
      '--layers=false',
      // The OCI image format has no HEALTHCHECK; Docker's keeps it.
      '--format',
      'docker',
      '--network',
      'host',
      ...network,
      '--build-arg',
      `BASE=${base}`,
      '--file',
      join(checkout, 'deploy/Containerfile'),
      '--tag',
      IMAGE,
      context,
    ]);
    host = await startHost({ manifest: loadManifest(demoManifest), token: TOKEN, port: 0 });
    // The proxy's search is what is tested, not the host's first indexing (slow where the index cache is cold).
    await host.searchComplete;
  }, 900_000);

  afterAll(async () => {
    for (const id of containers) spawnSync(podman[0]!, [...podman.slice(1), 'rm', '--force', id], { env });
    if (podman) spawnSync(podman[0]!, [...podman.slice(1), 'rmi', '--force', IMAGE], { env });
    await host?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('runs `doclens proxy` as an unprivileged user: healthy, ready, searching and sending the widget compressed', async () => {
    const port = await freePort();
    const proxy = `http://127.0.0.1:${port}`;
    const id = run(
      'doclens-proxy',
      { DOCLENS_UPSTREAM_TOKEN: TOKEN, DOCLENS_HOST: '127.0.0.1', DOCLENS_PORT: String(port), DOCLENS_HEALTH_URL: `${proxy}/healthz` },
      [IMAGE, 'proxy', '--upstream', host.apiUrl, '--project', 'aurora', '--allow-private-network'],
    );
    const healthz = await until('/healthz', async () => {
      const answer = await fetch(`${proxy}/healthz`);
      return answer.ok ? ((await answer.json()) as { status: string }) : undefined;
    });
    expect(healthz.status).toBe('ok');
    const readyz = await fetch(`${proxy}/readyz`);
    expect(readyz.status).toBe(200);
    expect(await readyz.json()).toEqual({ status: 'ready' });
    const search = await fetch(`${proxy}/api/v3/search/?q=${encodeURIComponent('project:aurora lease')}`);
    expect(search.status).toBe(200);
    const found = (await search.json()) as { results: { path?: string; domain?: string }[] };
    expect(found.results.length).toBeGreaterThan(0);
    const loader = await fetch(`${proxy}/doclens.js`, { headers: { 'accept-encoding': 'br' } });
    expect(loader.headers.get('content-encoding')).toBe('br');
    // The image's own health check, as podman runs it; the process's user.
    expect(runPodman(['healthcheck', 'run', id]).trim()).toMatch(/^(healthy)?$/);
    expect(runPodman(['exec', id, 'id', '-u']).trim()).toBe('10001');
    expect(runPodman(['inspect', '--format', '{{.Config.User}}', IMAGE]).trim()).toBe('doclens');
  }, 120_000);

  it('runs `doclens host` over a mounted docs folder', async () => {
    const port = await freePort();
    run('doclens-host', { DOCLENS_HOST_TOKEN: TOKEN }, [
      '--volume',
      `${join(demoBuild, 'skyline')}:/docs:ro`,
      IMAGE,
      'host',
      '--docs',
      '/docs/en/latest',
      '--project',
      'skyline',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ]);
    const page = await until('the host', async () => {
      const answer = await fetch(`http://127.0.0.1:${port}/en/latest/`);
      return answer.ok ? answer.text() : undefined;
    });
    expect(page).toContain('<meta name="readthedocs-project-slug" content="skyline" />');
    const projects = await fetch(`http://127.0.0.1:${port}/api/v2/project/`);
    expect(projects.status).toBe(200);
  }, 120_000);
});
