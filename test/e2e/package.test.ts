import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, searchByKeyboard, startDemo } from './browser.ts';

/**
 * The npm package as a user gets it: `npm pack` in the checkout (its `prepare` script builds), the
 * tarball installed from the local file into an empty folder (its dependencies from npm's cache, or
 * the registry), then what the documentation tells operators and bundling authors to run there.
 */
const checkout = fileURLToPath(new URL('../../', import.meta.url));
const checkoutTool = (path: string) => join(checkout, 'node_modules', path);
const { version } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { version: string };
/** The declarations the proxy's types build on, at the versions the checkout checks against. */
const typesFor = (name: string) =>
  `${name}@${(JSON.parse(readFileSync(checkoutTool(`${name}/package.json`), 'utf8')) as { version: string }).version}`;

let work: string;
let app: string;
let tarball: string;
let packed: string[];
let browser: Browser | undefined;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A command of the installed package, as `npx` runs it there. */
function npx(args: string[]) {
  return spawnSync('npx', ['--no-install', ...args], { cwd: app, encoding: 'utf8', timeout: 60_000 });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'doclens-package-'));
  npm(['pack', '--pack-destination', work], checkout);
  tarball = join(work, `doclens-${version}.tgz`);
  packed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''));
  app = join(work, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-doclens', private: true, type: 'module' }));
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, typesFor('@types/node'), typesFor('@types/express')], app);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('packs the compiled code, the built widget, the demo docs, the manifest and the license, no sources or tests', () => {
    for (const file of ['LICENSE', 'README.md', 'bin/doclens.js', 'lib/cli/main.js', 'lib/host/index-worker.js', 'dist/doclens.js'])
      expect(packed).toContain(file);
    for (const file of ['dist/doclens.iife.js', 'demo/docs/manifest.json', 'custom-elements.json', 'lib/widget/index.d.ts'])
      expect(packed).toContain(file);
    expect(packed.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
    expect(
      packed.filter((path) => /^(test|bench|scripts|python|widget|proxy|host|cli|extraction|contract)\/|\.test\.|\.map$/.test(path)),
    ).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/doclens/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).not.toHaveProperty('tsx');
    expect(manifest.license).toBe('MIT');
    expect(manifest).toMatchObject({
      repository: { type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//) },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/\/issues$/) },
    });
    expect(statSync(tarball).size).toBeGreaterThan(0);
  });
});

describe('npm publish --dry-run', () => {
  it('would publish doclens at this version with the license, README, changelog, types, manifest and compressed widget, no tests', () => {
    // The files were built by `npm pack` above; what npm would send to the registry, without sending it.
    const answer = JSON.parse(npm(['publish', '--dry-run', '--json', '--ignore-scripts'], checkout)) as Record<string, unknown>;
    const published = (answer.doclens ?? answer) as { name: string; version: string; files: { path: string }[] };
    expect([published.name, published.version]).toEqual(['doclens', version]);
    const files = published.files.map((file) => file.path);
    for (const file of ['LICENSE', 'README.md', 'CHANGELOG.md', 'custom-elements.json', 'lib/widget/index.d.ts', 'lib/proxy/index.d.ts'])
      expect(files).toContain(file);
    expect(files).toEqual(expect.arrayContaining(['dist/doclens.js', 'dist/doclens.js.br', 'dist/doclens.js.gz']));
    expect(files.sort()).toEqual([...packed].sort());
    expect(files.filter((path) => /(^|\/)test\/|\.test\.|\.map$/.test(path))).toEqual([]);
  });
});

describe('installed from the tarball', () => {
  it('answers `npx doclens proxy --help` and `--version`', () => {
    const help = npx(['doclens', 'proxy', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: doclens proxy --upstream URL --project SLUG/);
    expect(npx(['doclens', '--version']).stdout.trim()).toBe(version);
  });

  it('builds a static site with `npx doclens build --inject` (its page threads compiled too), and exports `doclens/build`', () => {
    const site = join(work, 'static-site');
    cpSync(join(checkout, 'demo/docs/build/skyline/en/latest'), site, { recursive: true });
    const built = npx(['doclens', 'build', '--docs', site, '--inject']);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/^doclens build: \d+ pages, \d+ sections/);
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toContain('data-static="_doclens/"');
    expect(readdirSync(join(site, '_doclens/data/search')).length).toBeGreaterThan(1);
    expect(
      execFileSync(process.execPath, ['-e', "import('doclens/build').then((build) => console.log(Object.keys(build).sort().join(' ')))"], {
        cwd: app,
        encoding: 'utf8',
      }).trim(),
    ).toBe('NotABuiltSiteError buildStatic');
  });

  it('imports the proxy for embedding: `import("doclens/proxy")`, mounted in an Express app', () => {
    expect(
      execFileSync(process.execPath, ['-e', "import('doclens/proxy').then((proxy) => console.log(Object.keys(proxy).sort().join(' ')))"], {
        cwd: app,
        encoding: 'utf8',
      }).trim(),
    ).toBe('ConfigError createApp createLogger parseConfig startProxy');
    // The package itself is the proxy in Node (`import 'doclens'` threw ERR_PACKAGE_PATH_NOT_EXPORTED).
    expect(
      execFileSync(process.execPath, ['-e', "import('doclens').then((doclens) => console.log(Object.keys(doclens).sort().join(' ')))"], {
        cwd: app,
        encoding: 'utf8',
      }).trim(),
    ).toBe('ConfigError createApp createLogger parseConfig startProxy');
    // The operators' guide's snippet, then a request through the mount.
    writeFileSync(
      join(app, 'server.mjs'),
      `import express from 'express';
import { createApp, parseConfig } from 'doclens/proxy';

const config = parseConfig({ upstream: 'https://docs-host.example', token: process.env.DOCLENS_UPSTREAM_TOKEN, projects: ['aurora'] });
const doclens = createApp(config);
const app = express();
app.use('/doclens', doclens);

const server = app.listen(0, '127.0.0.1', async () => {
  const answer = await fetch(\`http://127.0.0.1:\${server.address().port}/doclens/healthz\`);
  console.log(answer.status, (await answer.json()).status);
  server.close();
  await doclens.close();
});
`,
    );
    const env = { ...process.env, DOCLENS_UPSTREAM_TOKEN: 'token-of-the-test' };
    // Its own line; the proxy's request log (JSON lines on stdout) may come before it or after.
    const lines = execFileSync(process.execPath, ['server.mjs'], { cwd: app, encoding: 'utf8', env }).trim().split('\n');
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual(['200 ok']);
  });

  it.each(['doclens/widget', 'doclens'])('bundles the elements: esbuild resolves `%s` and lit from the installed package', (specifier) => {
    writeFileSync(join(app, 'src/entry.js'), `import '${specifier}';\n`);
    execFileSync(
      checkoutTool('.bin/esbuild'),
      ['src/entry.js', '--bundle', '--format=esm', '--outfile=out/bundle.js', '--metafile=out/meta.json', '--log-level=error'],
      { cwd: app },
    );
    const inputs = Object.keys((JSON.parse(readFileSync(join(app, 'out/meta.json'), 'utf8')) as { inputs: object }).inputs);
    for (const element of ['search', 'preview', 'versions', 'matches', 'settings'])
      expect(inputs).toContain(`node_modules/doclens/lib/widget/${element}/doclens-${element}.js`);
    expect(inputs.some((input) => input.startsWith('node_modules/lit-element/'))).toBe(true);
    expect(readFileSync(join(app, 'out/bundle.js'), 'utf8')).toContain('"doclens-search"');
  });

  it('describes all five elements in custom-elements.json, named by "customElements"', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/doclens/package.json'), 'utf8')) as { customElements: string };
    type Declaration = {
      tagName?: string;
      events?: { name: string }[];
      cssParts?: { name: string }[];
      slots?: { name: string }[];
      cssProperties?: { name: string }[];
      attributes?: { name: string }[];
    };
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/doclens', pkg.customElements), 'utf8')) as {
      modules: { path: string; declarations: Declaration[] }[];
    };
    const elements = new Map(
      manifest.modules.flatMap((module) => module.declarations.filter((declaration) => declaration.tagName).map((d) => [d.tagName!, d])),
    );
    expect([...elements.keys()].sort()).toEqual([
      'doclens-matches',
      'doclens-preview',
      'doclens-search',
      'doclens-settings',
      'doclens-versions',
    ]);
    const names = (list: { name: string }[] | undefined) => (list ?? []).map((entry) => entry.name);
    for (const [tag, element] of elements) {
      expect(names(element.events).length, tag).toBeGreaterThan(0);
      expect(names(element.cssParts).length, tag).toBeGreaterThan(0);
      expect(names(element.cssProperties), tag).toContain('--doclens-color-background');
    }
    expect(names(elements.get('doclens-search')!.events)).toEqual(['doclens-search-open', 'doclens-search-close', 'doclens-search-select']);
    expect(names(elements.get('doclens-search')!.slots)).toEqual(['input']);
    expect(names(elements.get('doclens-search')!.attributes)).toContain('proxy');
    expect(names(elements.get('doclens-preview')!.cssParts)).toContain('popup');
    for (const module of manifest.modules) expect(packed).toContain(module.path);
  });

  it('types the elements, their events and the proxy config for TypeScript (tsc against the installed declarations)', () => {
    writeFileSync(
      join(app, 'src/page.ts'),
      `import 'doclens/widget';
import type { SearchResult } from 'doclens/contract';

const search = document.querySelector('doclens-search');
search?.addEventListener('doclens-search-select', (event) => {
  const url: string = event.detail.url;
  const result: SearchResult = event.detail.result;
  // @ts-expect-error the detail is typed, not any
  const wrong: number = event.detail.url;
  console.log(url, result.title, wrong, search.proxy);
});
`,
    );
    writeFileSync(
      join(app, 'src/server.ts'),
      `import { createApp, type ProxyConfig } from 'doclens/proxy';

export function mount(config: ProxyConfig) {
  const port: number = config.port;
  // @ts-expect-error the config is typed, not any
  const wrong: string = config.port;
  return { app: createApp(config), port, wrong };
}
`,
    );
    const common = { target: 'es2022', module: 'nodenext', strict: true, noEmit: true, skipLibCheck: false };
    writeFileSync(
      join(app, 'tsconfig.page.json'),
      JSON.stringify({ compilerOptions: { ...common, lib: ['es2023', 'dom', 'dom.iterable'], types: [] }, files: ['src/page.ts'] }),
    );
    writeFileSync(
      join(app, 'tsconfig.server.json'),
      JSON.stringify({ compilerOptions: { ...common, lib: ['es2023'], types: ['node'] }, files: ['src/server.ts'] }),
    );
    for (const project of ['tsconfig.page.json', 'tsconfig.server.json']) {
      const result = spawnSync(process.execPath, [checkoutTool('typescript/bin/tsc'), '-p', project], { cwd: app, encoding: 'utf8' });
      expect(result.stdout + result.stderr, project).toBe('');
      expect(result.status, project).toBe(0);
    }
  });

  it('serves the demo with the widget: `npx doclens demo`, searched in Chromium', async () => {
    const demo = await startDemo([], join(app, 'node_modules/.bin/doclens'));
    try {
      browser = await launchChromium();
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(new URL('quickstart.html', demo.url).href);
      await page.locator('doclens-versions [part~="toggle"]').waitFor();
      const results = await searchByKeyboard(page, 'lease');
      expect(results.some((href) => href.startsWith(new URL(demo.url).origin) && href.includes('highlight=lease'))).toBe(true);
      expect(errors).toEqual([]);
      expect(demo.output()).not.toMatch(/not built/);
    } finally {
      expect(await demo.stop()).toBe(0);
    }
  });
});
