import { readFileSync } from 'node:fs';
import { packagePath } from '../runtime/package-files.ts';
import { UsageError } from './args.ts';
import type { CommandIO } from './io.ts';

function version(): string {
  return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
}

const help = () => `Usage: doclens <command> [options]

Commands:
  build    write search, previews and the version switcher beside a built site, for any static server
  demo     run the demo: sample documentation with the local docs host
  host     serve folders of built documentation with the hosting service's read API
  proxy    run the doclens proxy in front of a hosting service

Options:
  -h, --help     show this help
  -v, --version  show the version (${version()})

Run "doclens <command> --help" for a command's options.
`;

/** A command left running: its servers, stopped by a signal in the process or by a test. */
export interface Stoppable {
  close(): Promise<void>;
  /** Says that the command stops, in its own log format (plain text otherwise). */
  stopping?(signal: string): void;
}

/** How a command ended: its exit code, or what it left running. */
export type Outcome = { status: number; running?: undefined } | { status: 0; running: Stoppable };

type Command = (argv: string[], io: CommandIO) => Promise<Stoppable | undefined>;

/** Each command's code, loaded when it runs: `build` never loads the servers' (Express, undici: a fifth of a second). */
const commands: Record<string, () => Promise<Command>> = {
  build: async () => (await import('./build.ts')).runBuild,
  demo: async () => (await import('./demo.ts')).runDemo,
  host: async () => (await import('./host.ts')).runHost,
  proxy: async () => (await import('./proxy.ts')).runProxy,
};

/** Errors that say how the command was called rather than that something failed. */
const isUsage = (error: Error) =>
  error instanceof UsageError || ['ManifestError', 'ConfigError', 'NotABuiltSiteError'].includes(error.name);

/**
 * The `doclens` command as a function: usage mistakes are one line and exit code 2, other failures
 * to start exit code 1, each reported on `io.stderr`.
 */
export async function main(argv: string[], io: CommandIO): Promise<Outcome> {
  try {
    const running = await start(argv, io);
    return running ? { status: 0, running } : { status: 0 };
  } catch (thrown) {
    const error = thrown as NodeJS.ErrnoException;
    if (isUsage(error)) {
      io.stderr.write(`doclens: ${error.message}\n`);
      return { status: 2 };
    }
    if (error.code === 'EADDRINUSE') {
      io.stderr.write(`doclens: ${error.message.replace(/^listen /, 'cannot listen: ')}; choose another --port (0 picks a free one)\n`);
      return { status: 1 };
    }
    io.stderr.write(`doclens: ${error.message}\n`);
    return { status: 1 };
  }
}

async function start(argv: string[], io: CommandIO): Promise<Stoppable | undefined> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(help());
    return undefined;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version()}\n`);
    return undefined;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
  return (await command())(rest, io);
}
