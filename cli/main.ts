import { readFileSync } from 'node:fs';
import { packagePath } from '../runtime/package-files.ts';
import { UsageError } from './args.ts';
import { runDemo } from './demo.ts';
import { runHost } from './host.ts';
import { runProxy } from './proxy.ts';

function version(): string {
  return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
}

const help = `Usage: doclens <command> [options]

Commands:
  demo     run the demo: sample documentation with the local docs host
  host     serve folders of built documentation with the hosting service's read API
  proxy    run the doclens proxy in front of a hosting service

Options:
  -h, --help     show this help
  -v, --version  show the version (${version()})

Run "doclens <command> --help" for a command's options.
`;

interface Stoppable {
  close(): Promise<void>;
  /** Says that the command stops, in its own log format (plain text otherwise). */
  stopping?(signal: string): void;
}

const commands: Record<string, (argv: string[]) => Promise<Stoppable | undefined>> = {
  demo: runDemo,
  host: runHost,
  proxy: runProxy,
};

/**
 * How long stopping may take before the process exits anyway: past the proxy's own grace for
 * requests in flight (--timeout), so that nothing (a log line that cannot be written) keeps it up.
 */
const STOP_DEADLINE_MS = 60_000;

/**
 * A closed or broken stdout/stderr (`doclens proxy | head`, a log collector gone) loses the lines
 * written, never the server: without a listener, the write's EPIPE would be thrown as uncaught.
 */
function ignoreClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}

function stopOnSignals(running: Stoppable): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal stops at once.
    if (stopping) process.exit(1);
    stopping = true;
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS);
    if (running.stopping) running.stopping(signal);
    else console.log(`\ndoclens: ${signal} received, stopping`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help);
    return;
  }
  if (name === '--version' || name === '-v') {
    console.log(version());
    return;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
  const running = await command(rest);
  if (running) stopOnSignals(running);
}

ignoreClosedOutput();
main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error as Error).name === 'ManifestError' || (error as Error).name === 'ConfigError') {
    console.error(`doclens: ${(error as Error).message}`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    console.error(
      `doclens: ${(error as Error).message.replace(/^listen /, 'cannot listen: ')}; choose another --port (0 picks a free one)`,
    );
    process.exit(1);
  }
  console.error(`doclens: ${(error as Error).message}`);
  process.exit(1);
});
