// `npm test`: every check and test layer in turn, stopping at the first that fails, then a table of
// how long each took, so that a slow layer shows at once.
import { spawnSync } from 'node:child_process';

const layers = ['typecheck', 'lint', 'cycles', 'test:unit', 'test:server', 'test:browser', 'test:e2e'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const times = [];
let failed;
for (const layer of layers) {
  const started = performance.now();
  const { status, signal } = spawnSync(npm, ['run', layer], { stdio: 'inherit' });
  times.push([layer, (performance.now() - started) / 1000]);
  if (status !== 0) {
    failed = { layer, status: status ?? 1, signal };
    break;
  }
}

const total = times.reduce((sum, [, seconds]) => sum + seconds, 0);
const rows = [...times, ['total', total]].map(([layer, seconds]) => `  ${layer.padEnd(14)} ${seconds.toFixed(1).padStart(7)} s`);
console.log(`\nnpm test, time per layer:\n${rows.join('\n')}`);
if (failed) {
  console.error(`npm test: ${failed.layer} failed (${failed.signal ?? `exit code ${failed.status}`})`);
  process.exit(failed.status);
}
