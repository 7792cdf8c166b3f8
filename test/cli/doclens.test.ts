import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main, type Stoppable } from '../../cli/command.ts';
import type { CommandIO } from '../../cli/io.ts';
import { demoBuild } from '../fixtures/demo.ts';

const cli = fileURLToPath(new URL('../../bin/doclens.js', import.meta.url));
const children: ChildProcessByStdio<null, Readable, Readable>[] = [];
const running: Stoppable[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(running.splice(0).map((command) => command.close()));
});

/** Runs the command in this process, its output collected; what it starts is stopped after the test. */
async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...env },
  };
  io.log = io.stdout;
  const outcome = await main(args, io);
  if (outcome.running) running.push(outcome.running);
  return { ...outcome, stdout: () => stdout, stderr: () => stderr };
}

/** Starts the command as a process and resolves with its output up to the first URL. */
async function spawnCommand(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/http:\/\/127\.0\.0\.\d+:\d+(\/[^\s)]*)?/);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, url, output: () => output, errors: () => errors };
}

const firstUrl = (text: string) => /http:\/\/127\.0\.0\.\d+:\d+(\/[^\s)]*)?/.exec(text)![0];

describe('doclens command', () => {
  it('prints help for itself and each command', async () => {
    expect((await run(['--help'])).stdout()).toMatch(/Usage: doclens <command>/);
    for (const command of ['host', 'demo', 'proxy']) {
      const result = await run([command, '--help']);
      expect(result.status).toBe(0);
      expect(result.running).toBeUndefined();
      expect(result.stdout()).toMatch(new RegExp(`Usage: doclens ${command}`));
    }
  });

  it.each([
    [['host', '--bogus'], /Unknown option '--bogus'/],
    [['host', '--docs', demoBuild, '--project', 'x', '--port', 'abc'], /--port must be a port number/],
    [['host', '--docs', demoBuild, '--project', 'bad slug!'], /--project must be letters/],
    [['host', '--docs', '/no/such/folder', '--project', 'x'], /--docs: no such folder/],
    [['host', '--docs', demoBuild], /--project SLUG is required/],
    [['host', '--docs', demoBuild, '--project', 'x', '--host', 'not an address'], /--host must be an IP address or a host name/],
    [['host', '--docs', demoBuild, '--project', 'x', '--token', 'short'], /--token must be at least 8 visible ASCII characters/],
    [['demo', '--port', '70000'], /--port must be a port number/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['proxy', '--bogus'], /Unknown option '--bogus'/],
    [['proxy', '--upstream', 'http://127.0.0.1:1', '--project', 'a'], /DOCLENS_UPSTREAM_TOKEN: is required/],
    [
      ['proxy', '--upstream', 'ftp://x', '--project', 'a'],
      /--upstream \(DOCLENS_UPSTREAM, "upstream" in the config file\): must be an http\(s\) URL/,
    ],
    [['proxy', '--upstream', 'http://x', '--project', 'a', '--api-version', 'v9'], /--api-version .*: must be v3 or v2/],
    [['proxy', '--upstream', 'http://x', '--project', 'a', '--port', 'abc'], /--port .*expected number/i],
    [['proxy', '--upstream', 'http://x', '--config', '/no/such.json'], /--config: cannot read/],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const result = await run(args);
    expect(result.status).toBe(2);
    expect(result.stderr().trim().split('\n')).toHaveLength(1);
    expect(result.stderr()).toMatch(message);
    expect(result.stdout()).toBe('');
  });

  it('refuses a token from the environment that would break the header, naming the variable', async () => {
    const result = await run(['host', '--docs', demoBuild, '--project', 'x'], { DOCLENS_HOST_TOKEN: 'secret-token\r\n' });
    expect(result.status).toBe(2);
    expect(result.stderr()).toMatch(/DOCLENS_HOST_TOKEN must be at least 8 visible ASCII characters/);
  });

  it('hosts a folder of built docs on a free port of the address given, its token from the environment', async () => {
    // 127.0.0.2 is loopback too on Linux: the host answers there and not on 127.0.0.1.
    const host = await run(['host', '--docs', `${demoBuild}skyline/en/latest`, '--project', 'sky', '--port', '0', '--host', '127.0.0.2'], {
      DOCLENS_HOST_TOKEN: 'secret-token-1',
    });
    const url = firstUrl(host.stdout());
    expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/en\/latest\/$/);
    expect((await fetch(url)).status).toBe(200);
    await expect(fetch(url.replace('127.0.0.2', '127.0.0.1'))).rejects.toThrow();
    const origin = new URL(url).origin;
    // Searches answer at once, partially (`indexing: true`) until the version is indexed.
    let answer: { count: number; indexing?: boolean };
    do {
      const search = await fetch(`${origin}/api/v3/search/?q=privacy`, { headers: { authorization: 'Token secret-token-1' } });
      answer = (await search.json()) as { count: number; indexing?: boolean };
    } while (answer.indexing);
    expect(answer.count).toBeGreaterThan(0);
    expect((await fetch(`${origin}/api/v3/search/?q=privacy`, { headers: { authorization: 'Token another-token' } })).status).toBe(403);
    expect(host.stdout()).toContain('(token: from DOCLENS_HOST_TOKEN)');
    expect(host.stdout() + host.stderr()).not.toContain('secret-token-1');
    expect(host.stderr()).toBe('');
  });

  it('runs the proxy from flags and environment, ready line first, every line JSON, the token in none', async () => {
    const host = await run([
      'host',
      '--docs',
      `${demoBuild}skyline/en/latest`,
      '--project',
      'sky',
      '--port',
      '0',
      '--token',
      'secret-token-2',
    ]);
    expect(host.stderr()).toMatch(/warning: --token is visible to other users of this machine .*set DOCLENS_HOST_TOKEN instead/);
    const upstream = new URL(firstUrl(host.stdout())).origin;
    const proxy = await run(['proxy', '--upstream', upstream, '--project', 'sky', '--allow-private-network', '--port', '0'], {
      DOCLENS_UPSTREAM_TOKEN: 'secret-token-2',
      DOCLENS_SEARCH_TTL: '5',
    });
    const origin = new URL(firstUrl(proxy.stdout())).origin;
    const search = await fetch(`${origin}/api/v3/search/?q=privacy`);
    expect(search.status).toBe(200);
    // The answer echoes the reader's words; what went upstream was scoped to the configured project.
    const answer = (await search.json()) as { query: string; projects: { slug: string }[] };
    expect(answer.query).toBe('privacy');
    expect(answer.projects.map((project) => project.slug)).toEqual(['sky']);
    running.splice(running.indexOf(proxy.running!), 1);
    proxy.running!.stopping?.('SIGTERM');
    await proxy.running!.close();
    expect(proxy.stdout()).not.toContain('secret-token-2');
    const lines = proxy
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; level: string });
    expect(lines.map((line) => line.msg).filter((msg) => msg !== 'request')).toEqual(['starting', 'ready', 'stopping', 'stopped']);
    expect(lines.every((line) => typeof line.level === 'string')).toBe(true);
  });

  it('runs the demo and prints the start page first', async () => {
    const demo = await run(['demo'], { PORT: '0' });
    const url = firstUrl(demo.stdout());
    expect(demo.stdout().split('\n')[0]).toContain(url);
    const page = await (await fetch(url)).text();
    expect(page).toContain('Aurora');
    const proxy = /<script type="module" src="(http:\/\/127\.0\.0\.1:\d+)\/doclens\.js" data-proxy="\1"><\/script>/.exec(page);
    expect(proxy).not.toBeNull();
    const search = await fetch(`${proxy![1]}/api/v3/search/?q=scheduler`, { headers: { origin: new URL(url).origin } });
    expect(search.status).toBe(200);
    expect(search.headers.get('access-control-allow-origin')).toBe(new URL(url).origin);
  });
});

// What only a process shows: exit codes, signals, and the last log lines written before it exits.
describe('doclens process', () => {
  it('exits with code 2 and one line on stderr for a usage mistake', () => {
    const result = spawnSync(process.execPath, [cli, 'frobnicate'], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('doclens: unknown command "frobnicate" (commands: build, demo, host, proxy)\n');
  });

  it('stops the proxy on SIGTERM with exit code 0, its last lines flushed', async () => {
    const host = await run(['host', '--docs', `${demoBuild}skyline/en/latest`, '--project', 'sky', '--port', '0'], {
      DOCLENS_HOST_TOKEN: 'secret-token-3',
    });
    const upstream = new URL(firstUrl(host.stdout())).origin;
    const proxy = await spawnCommand(['proxy', '--upstream', upstream, '--project', 'sky', '--allow-private-network', '--port', '0'], {
      DOCLENS_UPSTREAM_TOKEN: 'secret-token-3',
    });
    expect((await fetch(`${new URL(proxy.url).origin}/healthz`)).status).toBe(200);
    proxy.child.kill('SIGTERM');
    const [code] = await once(proxy.child, 'exit');
    expect(code).toBe(0);
    const messages = proxy
      .output()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    // Every line in the order it was logged: the request's before the proxy stopped, "stopped" the last.
    expect(messages.slice(-3)).toEqual(['request', 'stopping', 'stopped']);
  });

  it('runs the demo in a Node started with --expose-gc, and stops it on SIGINT with exit code 0', async () => {
    const { child, url } = await spawnCommand(['demo'], { PORT: '0' });
    expect((await fetch(url)).status).toBe(200);
    // The index threads collect their garbage only where the process exposes `gc` from its start.
    const [node] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    expect(readFileSync(`/proc/${node}/cmdline`, 'utf8').split('\0')).toContain('--expose-gc');
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('stops the demo when the process bin/doclens.js put in front of it is killed', async () => {
    const { child } = await spawnCommand(['demo'], { PORT: '0' });
    const node = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim());
    child.kill('SIGKILL');
    await once(child, 'exit');
    // The command's process is no child of this one: it is gone once signal 0 finds no such process.
    await vi.waitFor(() => expect(() => process.kill(node, 0)).toThrow(), { timeout: 10_000, interval: 50 });
  });
});
