import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { createLogger } from '../proxy/http/log.ts';
import { startProxy, type RunningProxy } from '../proxy/server.ts';
import { redisAddress } from '../proxy/replicas/redis.ts';
import { configInput, parseConfig, SETTINGS, settingDefault, TOKEN_ENV, type ProxyConfig } from '../proxy/config.ts';
import { parseOptions, UsageError } from './args.ts';
import type { CommandIO } from './io.ts';
import { checkUpstreamAddress } from './upstream-address.ts';

const flagName = (flag: string) => flag.replace(/^--/, '');

/** A setting's lines in the help: flag and meaning, then its variable and default. */
const settingHelp = (setting: (typeof SETTINGS)[number]) =>
  `  ${`${setting.flag}${setting.type === 'boolean' ? '' : ' VALUE'}`.padEnd(30)} ${setting.description}\n` +
  `  ${''.padEnd(30)} [${setting.env}; default: ${settingDefault(setting)}]`;

export const proxyHelp = `Usage: doclens proxy --upstream URL --project SLUG [options]

Runs the doclens proxy: the widget's search, embed and project endpoints, forwarded read-only to the
hosting service with the server's credentials, cached, and extracted from allowlisted external docs.
The token comes from the environment variable ${TOKEN_ENV}, never from a flag or file.

Options (each also as an environment variable, and as a key of the --config file):
${SETTINGS.map(settingHelp).join('\n')}
  ${'--config FILE'.padEnd(30)} a JSON file with any of the settings above (flags and environment win)
  ${'-h, --help'.padEnd(30)} show this help
`;

const proxyOptions = {
  ...Object.fromEntries(
    SETTINGS.map((setting) => [
      flagName(setting.flag),
      setting.type === 'boolean' ? { type: 'boolean' as const } : { type: 'string' as const, multiple: setting.type === 'list' },
    ]),
  ),
  config: { type: 'string' as const },
};

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`--config: cannot read ${path}`);
  }
  try {
    const data: unknown = JSON.parse(text);
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('not an object');
    return data as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--config: ${path} is not a JSON object (${(error as Error).message})`);
  }
}

/** The proxy's configuration from the command line, the environment and an optional file. */
export function proxyConfigFrom(argv: string[], env: NodeJS.ProcessEnv): ProxyConfig | undefined {
  const values = parseOptions(argv, proxyOptions) as Record<string, string | string[] | boolean | undefined>;
  if (values.help) return undefined;
  const file = typeof values.config === 'string' ? readConfigFile(values.config) : {};
  const flags = Object.fromEntries(SETTINGS.map((setting) => [setting.key, values[flagName(setting.flag)]]));
  return parseConfig(configInput(file, env, flags));
}

/**
 * Runs the proxy until a signal stops it. Every line it writes is JSON, its life included: `starting`,
 * `ready` (with the URL it answers at), `stopping` and `stopped`.
 */
export async function runProxy(argv: string[], io: CommandIO): Promise<(RunningProxy & { stopping(signal: string): void }) | undefined> {
  const config = proxyConfigFrom(argv, io.env);
  if (!config) {
    io.stdout.write(proxyHelp);
    return undefined;
  }
  await checkUpstreamAddress(config);
  // pino's own writer of stdout, made here so that stopping can wait for every line to be out (below).
  const stdout = io.log ? undefined : pino.destination({ dest: 1, sync: false });
  // A closed stdout loses the lines written, never the proxy.
  stdout?.on('error', () => undefined);
  const logger = createLogger(config.logLevel, io.log ?? stdout);
  logger.info({ pid: process.pid, node: process.version, redis: config.redis && redisAddress(config.redis) }, 'starting');
  const proxy = await startProxy(config, { logger });
  logger.info(
    {
      url: proxy.url,
      ops_url: proxy.opsUrl,
      upstream: config.upstream,
      api_version: config.apiVersion,
      credentials: config.credentials,
      projects: config.projects.join(','),
      subprojects: config.subprojects,
    },
    'ready',
  );
  const close = proxy.close;
  return Object.assign(proxy, {
    stopping: (signal: string) => logger.info({ signal }, 'stopping'),
    close: async (graceMs?: number) => {
      await close(graceMs);
      logger.info('stopped');
      // Lines go out asynchronously and the process exits next: its flush at exit would write the lines
      // buffered behind one still being written before that one ("stopped" before "stopping", or before
      // the last request's line). Ending the writer waits for every line, in order.
      if (stdout) await new Promise((resolve) => stdout.once('close', resolve).end());
    },
  });
}
