import { readFileSync } from 'node:fs';
import { packagePath } from '../runtime/package-files.ts';
import { UsageError } from './args.ts';
import { runBuild } from './build.ts';
import { runDemo } from './demo.ts';
import { runHost } from './host.ts';
import { runProxy } from './proxy.ts';

const help = `Usage: doclens <command> [options]

Commands:
  build    write search, previews and the version switcher beside a built site, for any static server
  demo     run the demo: sample documentation with the local docs host
  host     serve folders of built documentation with the hosting service's read API
  proxy    run the doclens proxy in front of a hosting service

Run "doclens <command> --help" for a command's options.
`;

interface Stoppable {
  close(): Promise<void>;
  /** Says that the command stops, in its own log format (plain text otherwise). */
  stopping?(signal: string): void;
}

const commands: Record<string, (argv: string[]) => Promise<Stoppable | undefined>> = {
  build: runBuild,
  demo: runDemo,
  host: runHost,
  proxy: runProxy,
};

function stopOnSignals(running: Stoppable): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (running.stopping) running.stopping(signal);
    else console.log(`\ndoclens: ${signal} received, stopping`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help);
    return;
  }
  if (name === '--version' || name === '-v') {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
    console.log(pkg.version);
    return;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
  const running = await command(rest);
  if (running) stopOnSignals(running);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || ['ManifestError', 'ConfigError', 'NotABuiltSiteError'].includes((error as Error).name)) {
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
