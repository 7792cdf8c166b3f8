import { spawn } from 'node:child_process';

/**
 * Starts two processes that keep a core each busy, as other work on the machine would; the returned
 * function stops them (they are stopped at exit too, should the caller never get to it).
 */
export function busyProcesses(): () => void {
  const busy = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  const stop = () => {
    for (const child of busy) child.kill();
    process.off('exit', stop);
  };
  process.on('exit', stop);
  return stop;
}
