import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { proxyConfigFrom } from '../../cli/proxy.ts';
import { checkUpstreamAddress } from '../../cli/upstream-address.ts';
import { ConfigError, parseConfig } from '../../proxy/config.ts';
import { demoManifest } from '../fixtures/demo.ts';

const cli = fileURLToPath(new URL('../../bin/doclens.js', import.meta.url));
const TOKEN = 'start-up-test-token';

const configFor = (upstream: string, allowPrivateNetwork = false) =>
  parseConfig({ upstream, token: TOKEN, projects: ['aurora'], allowPrivateNetwork, port: 0 });

describe('a loopback or private upstream', () => {
  it.each(['http://127.0.0.1:8000', 'http://localhost:8000', 'http://10.1.2.3', 'http://[::1]:8000', 'http://169.254.169.254'])(
    'is a start-up error naming --allow-private-network: %s',
    async (upstream) => {
      const refused = checkUpstreamAddress(configFor(upstream));
      await expect(refused).rejects.toBeInstanceOf(ConfigError);
      await expect(refused).rejects.toThrow(/^--upstream \S+ is a loopback or private address .*add --allow-private-network/);
    },
  );

  it('starts with the flag, and a public or unresolvable name starts as before', async () => {
    await expect(checkUpstreamAddress(configFor('http://127.0.0.1:8000', true))).resolves.toBeUndefined();
    await expect(checkUpstreamAddress(configFor('http://93.184.215.14'))).resolves.toBeUndefined();
    await expect(checkUpstreamAddress(configFor('http://no-such-host.invalid'))).resolves.toBeUndefined();
  });
});

/**
 * Signals and a closed pipe are the operating system's: these run the command in a process of its own,
 * its stdout a pipe whose reading end is closed once the command has said where it listens.
 */
async function startWithClosedStdout(args: string[]) {
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DOCLENS_HOST_TOKEN: TOKEN, DOCLENS_UPSTREAM_TOKEN: TOKEN },
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}${errors}`)));
  });
  child.stdout.destroy();
  return { child, url, errors: () => errors };
}

describe('SIGTERM with stdout closed', () => {
  it('stops the host and the proxy in front of it, after requests whose lines find no reader', async () => {
    const host = await startWithClosedStdout(['host', '--manifest', demoManifest, '--port', '0']);
    const proxy = await startWithClosedStdout([
      'proxy',
      '--upstream',
      host.url,
      '--project',
      'aurora',
      '--allow-private-network',
      '--port',
      '0',
    ]);
    try {
      for (let round = 0; round < 5; round++) {
        expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
        expect((await fetch(`${host.url}/en/latest/`)).status).toBe(200);
      }
      for (const { child, errors } of [proxy, host]) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        expect(await exited, errors()).toEqual([0, null]);
      }
    } finally {
      for (const { child } of [proxy, host]) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('doclens --help', () => {
  it('lists --version with the version it answers', () => {
    const version = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' }).stdout.trim();
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).stdout).toContain(
      `-v, --version  show the version (${version})`,
    );
  });
});

describe('deploy/proxy.json, the example configuration file', () => {
  it('is a configuration the proxy starts from, the token from the environment', () => {
    const config = proxyConfigFrom(['--config', fileURLToPath(new URL('../../deploy/proxy.json', import.meta.url))], {
      DOCLENS_UPSTREAM_TOKEN: TOKEN,
    });
    expect(config).toMatchObject({ upstream: 'https://docs-host.example.org', projects: ['aurora'], port: 8080, trustProxy: 1 });
  });
});
