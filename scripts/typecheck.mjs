// `npm run typecheck`: `tsc -b` over the projects of tsconfig.json (or those named as arguments: `npm run
// build:lib` names the ones that ship, which emit into lib/), one run at a time in this checkout: runs at
// once would read each other's half-written declarations in node_modules/.cache/tsc and lib/.
// `--force` checks every project: incremental builds can keep a diagnostic that a change to another
// file's global declarations made wrong.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cache = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));
const lock = `${cache}tsc.lock`;
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Whether the run that wrote the lock is still there (a run stopped by Ctrl+C leaves its lock behind). */
function holderAlive() {
  const pid = Number(readFileSync(lock, 'utf8'));
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

mkdirSync(cache, { recursive: true });
for (;;) {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    break;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
  try {
    if (!holderAlive()) rmSync(lock, { force: true });
    else Atomics.wait(pause, 0, 0, 200);
  } catch (error) {
    // The holder finished between our attempt and our look: try again.
    if (error.code !== 'ENOENT') throw error;
  }
}
try {
  const { status } = spawnSync(process.execPath, [tsc, '-b', '--force', ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = status ?? 1;
} finally {
  rmSync(lock, { force: true });
}
