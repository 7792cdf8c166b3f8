// The `doclens` process: runs the command (cli/command.ts) and stops what it started on SIGINT or SIGTERM.
import { main, type Stoppable } from './command.ts';
import { processIO } from './io.ts';

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
    // Ctrl-C reaches bin/doclens.js and this process both, and the first passes it on: one stop.
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
    if (running.stopping) running.stopping(signal);
    else console.log(`\ndoclens: ${signal} received, stopping`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started by bin/doclens.js over a channel (host and demo): when that process is gone, stop as on SIGTERM.
  if (process.channel) process.once('disconnect', () => stop('SIGTERM'));
}

// The channel alone must not keep a command that has finished (help, a usage mistake) running.
process.channel?.unref();
ignoreClosedOutput();

const { status, running } = await main(process.argv.slice(2), processIO);
if (running) stopOnSignals(running);
// A command that failed to start may leave handles open (a half-started server): exit regardless.
else if (status !== 0) process.exit(status);
