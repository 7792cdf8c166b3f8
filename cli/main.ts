// The `doclens` process: runs the command (cli/command.ts) and stops what it started on SIGINT or SIGTERM.
import { main, type Stoppable } from './command.ts';
import { processIO } from './io.ts';

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
  // Started by bin/doclens.js over a channel (host and demo): when that process is gone, stop as on SIGTERM.
  if (process.channel) process.once('disconnect', () => stop('SIGTERM'));
}

// The channel alone must not keep a command that has finished (help, a usage mistake) running.
process.channel?.unref();

const { status, running } = await main(process.argv.slice(2), processIO);
if (running) stopOnSignals(running);
// A command that failed to start may leave handles open (a half-started server): exit regardless.
else if (status !== 0) process.exit(status);
