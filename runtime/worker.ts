import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { moduleExtension, runningModule } from './package-files.ts';

/**
 * tsx's registration module, resolved once and only from the sources (tsx is a development dependency,
 * there only in a checkout): a resolution goes through the module loader's hooks, which the main thread
 * waits for (tens of milliseconds on a busy machine, for every thread started).
 */
let tsx: string | undefined;
const tsxModule = () => {
  tsx ??= pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return tsx;
};

/**
 * Starts a worker thread on a module of the package, named by its source beside the caller:
 * `startWorker(new URL('./index-worker.ts', import.meta.url), options)`. Compiled, the thread runs
 * the `.js` file tsc wrote beside the caller. From the sources, tsx is registered in the thread before
 * the entry is imported (a `--import` in a worker's `execArgv` comes too late for its entry module in
 * Node 20). A `background` thread runs at a lower priority, so that the main thread stays responsive.
 */
export function startWorker(source: URL, options: Omit<WorkerOptions, 'eval'> & { background?: boolean } = {}): Worker {
  const { background, ...workerOptions } = options;
  const entry = runningModule(source);
  // A background thread yields the processor to the main thread from its start (loading its code
  // included): on Linux the nice value is per thread; elsewhere it is the process's, so it is left
  // alone. Nice 10 (a tenth of the main thread's share), not 19: on a busy machine that would starve it.
  const yieldProcessor = background && process.platform === 'linux' ? `require('node:os').setPriority(10);` : '';
  const load =
    moduleExtension === '.js'
      ? `import(${JSON.stringify(entry.href)});`
      : `import(${JSON.stringify(tsxModule())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(`${yieldProcessor}${load}`, { ...workerOptions, eval: true });
}
