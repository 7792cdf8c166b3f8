import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * tsx's registration module, resolved once: a resolution goes through the module loader's hooks,
 * which the main thread waits for (tens of milliseconds on a busy machine, for every thread started).
 */
const tsx = pathToFileURL(
  createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs'),
).href;

/**
 * Starts a worker thread on one of the package's modules: the one place that knows how a thread loads
 * the sources. They run as the main thread runs them, TypeScript through tsx, registered in the thread
 * before the module is imported (a `--import` in a worker's `execArgv` comes too late for its entry
 * module in Node 20). `entry` is the module's URL, `new URL('./name.ts', import.meta.url)`; a
 * `background` thread runs at a lower priority, so that the main thread stays responsive.
 */
export function startWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> & { background?: boolean } = {}): Worker {
  const { background, ...workerOptions } = options;
  // A background thread yields the processor to the main thread from its start (loading its code
  // included): on Linux the nice value is per thread; elsewhere it is the process's, so it is left
  // alone. Nice 10 (a tenth of the main thread's share), not 19: on a busy machine that would starve it.
  const yieldProcessor = background && process.platform === 'linux' ? `require('node:os').setPriority(10);` : '';
  const load = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  const bootstrap = `${yieldProcessor}${load}`;
  return new Worker(bootstrap, { ...workerOptions, eval: true });
}
