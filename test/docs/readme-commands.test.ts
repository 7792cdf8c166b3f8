import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Stoppable } from '../../cli/command.ts';
import type { CommandIO } from '../../cli/io.ts';
import { type RunningHost, startHost } from '../../host/app.ts';
import { singleFolderManifest } from '../../host/manifest.ts';
import { demoBuild } from '../fixtures/demo.ts';
import { startRedis, type TestRedis } from '../fixtures/redis.ts';

/**
 * Every command of the README's `sh` blocks, run as a reader would run it: `npx doclens …` here, in this
 * process through the command's `main` (with free ports, the demo's built docs for `path/to/_build/html`,
 * a local docs host standing in for the hosting service, Debian's redis-server for its Redis), `npm …`
 * by CI (`.ci/run` runs them on a fresh clone). A command this test does not know how to run fails it.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const ci = readFileSync(`${root}.ci/run`, 'utf8');
/** What the README writes as `…` in `export NAME=…`. */
const SECRET = 'readme-secret-token-42';
const PROJECT = 'myproject';
const DOCS = `${demoBuild}skyline/en/latest`;

const running: Stoppable[] = [];
let hostingService: RunningHost;
let redis: TestRedis;
/** The Redis of the README's example, started here. */
const README_REDIS = 'redis://10.0.0.5:6379/0';

beforeAll(async () => {
  // The hosting service of the README's first proxy command, holding the project it names.
  const manifest = singleFolderManifest({ docs: DOCS, project: PROJECT, version: 'latest', language: 'en' });
  hostingService = await startHost({ manifest, token: SECRET, port: 0 });
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(running.map((command) => command.close()));
  await hostingService?.close();
  await redis?.close();
});

/** Each `sh` block's commands: continuation lines joined, comments dropped, `a && b` split. */
function shellBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) =>
    block!
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter(Boolean)
      .flatMap((line) => line.split(/\s*&&\s*/)),
  );
}

/** Shell words, with '…' and "…" quoting and `$NAME` expanded from `env`. */
function words(command: string, env: Record<string, string>): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
    ([, single, double, bare]) => single ?? (double ?? bare!).replace(/\$(\w+)/g, (_, name: string) => env[name] ?? ''),
  );
}

/** Starts `doclens …` and resolves with the first URL its output names after `marker`. */
async function startCommand(args: string[], env: Record<string, string>, marker: RegExp): Promise<string> {
  let output = '';
  const write = (text: string) => (output += text);
  const io: CommandIO = { stdout: { write }, stderr: { write }, env, log: { write } };
  const { status, running: started } = await main(args, io);
  if (!started) throw new Error(`doclens ${args[0]} ended with ${status}: ${output}`);
  running.push(started);
  const found = marker.exec(output);
  if (!found) throw new Error(`doclens ${args[0]} did not say ${marker}: ${output}`);
  return found[1]!;
}

describe("the README's commands", () => {
  const blocks = shellBlocks(readme);

  it('are found', () => {
    expect(blocks.flat().length).toBeGreaterThan(5);
  });

  it.each(blocks.map((block, index) => [index + 1, block] as const))(
    'block %i runs: %j',
    async (_index, commands) => {
      const env: Record<string, string> = {};
      /** The origin of the last local docs host these commands started (for the proxy in front of it). */
      let localHost: string | undefined;
      for (const command of commands) {
        const exported = /^export (\w+)=(.*)$/.exec(command);
        if (exported) {
          const value = exported[2] === '…' ? SECRET : exported[2]!;
          env[exported[1]!] = value === README_REDIS ? `${redis.url}/0` : value;
          continue;
        }
        if (/^npm (install|start|test)$/.test(command)) {
          // CI runs it on a fresh clone (and `npm start` is `doclens demo`, which test/cli starts too).
          expect(ci, command).toMatch(new RegExp(`^(\\S+=\\S+ )*(setsid )?${command}\\b`, 'm'));
          continue;
        }
        const assignments: Record<string, string> = {};
        let rest = command;
        for (let match = /^(\w+)=("[^"]*"|\S+) /.exec(rest); match; match = /^(\w+)=("[^"]*"|\S+) /.exec(rest)) {
          assignments[match[1]!] = words(match[2]!, env)[0]!;
          rest = rest.slice(match[0].length);
        }
        const build = /^npx doclens build (.*)$/.exec(rest);
        if (build) {
          // On a copy of the demo's built Sphinx pages standing for the author's _build/html.
          const site = mkdtempSync(join(tmpdir(), 'doclens-readme-build-'));
          cpSync(DOCS, site, { recursive: true });
          try {
            const args = words(build[1]!, env).map((word) => (word === '_build/html' ? site : word));
            const ignore = { write: () => true };
            expect((await main(['build', ...args], { stdout: ignore, stderr: ignore, env })).status).toBe(0);
            expect(readFileSync(join(site, 'index.html'), 'utf8')).toContain('data-static="_doclens/"');
          } finally {
            rmSync(site, { recursive: true, force: true });
          }
          continue;
        }
        const npx = /^npx doclens (demo|host|proxy) (.*)$/.exec(rest);
        if (!npx) throw new Error(`no test runs this README command: ${command}`);
        const [, name, argText] = npx;
        const args = words(argText!, env).map((word, index, all) => {
          if (all[index - 1] === '--port') return '0';
          if (word === 'path/to/_build/html') return DOCS;
          if (word === 'https://readthedocs.example.com') return hostingService.apiUrl;
          if (word === 'http://127.0.0.1:8000' && localHost) return localHost;
          // Tests listen on loopback only.
          if (word === '0.0.0.0' && all[index - 1] === '--host') return '127.0.0.1';
          return word;
        });
        // Free ports: the defaults (8000, 8080) may be taken on the machine running the tests.
        if (!args.includes('--port')) args.push('--port', '0');
        const commandEnv = { ...env, ...assignments };
        if (name === 'demo') {
          const page = await startCommand(['demo', ...args], commandEnv, /ready: (http:\S+)/);
          expect((await fetch(page)).status).toBe(200);
        } else if (name === 'host') {
          const api = await startCommand(['host', ...args], commandEnv, /API at (http:\/\/[\d.:]+)\/api\/v3\//);
          localHost = api;
          expect((await fetch(`${api}/en/latest/`)).status).toBe(200);
        } else {
          // The hosting service stands in on loopback, which the proxy reaches only when allowed.
          if (!args.includes('--allow-private-network')) args.push('--allow-private-network');
          const proxy = await startCommand(['proxy', ...args], commandEnv, /"url":"(http:[^"]+)"/);
          expect((await fetch(`${proxy}/healthz`)).status).toBe(200);
          // The token reached the upstream: a search through the proxy is answered.
          const search = await fetch(`${proxy}/api/v3/search/?q=privacy`);
          expect(search.status).toBe(200);
          expect(((await search.json()) as { projects: { slug: string }[] }).projects.map((project) => project.slug)).toEqual([PROJECT]);
          // With Redis, the proxy is ready only while Redis is in use.
          if (commandEnv.DOCLENS_REDIS_URL) expect((await fetch(`${proxy}/readyz`)).status).toBe(200);
        }
      }
    },
    90_000,
  );
});
