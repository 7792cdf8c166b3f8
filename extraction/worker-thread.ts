import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on one of the package's modules: the one place that knows how a thread loads
 * the sources. They run as the main thread runs them, TypeScript through tsx, registered in the thread
 * before the module is imported (a `--import` in a worker's `execArgv` comes too late for its entry
 * module in Node 20). `entry` is the module's URL, `new URL('./name.ts', import.meta.url)`.
 */
export function startWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
