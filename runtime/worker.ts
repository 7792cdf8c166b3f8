import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { moduleExtension, runningModule } from './package-files.ts';

/**
 * Starts a worker thread on a module of the package, named by its source beside the caller:
 * `startWorker(new URL('./index-worker.ts', import.meta.url), options)`. Compiled, the thread runs
 * the `.js` file tsc wrote beside the caller. From the sources, tsx is registered in the thread before
 * the entry is imported (a `--import` in a worker's `execArgv` comes too late for its entry module in
 * Node 20); tsx is a development dependency, there only in a checkout.
 */
export function startWorker(source: URL, options: Omit<WorkerOptions, 'eval'>): Worker {
  const entry = runningModule(source);
  if (moduleExtension === '.js') return new Worker(entry, options);
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
