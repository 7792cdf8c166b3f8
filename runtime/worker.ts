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
 * Node 20).
 */
export function startWorker(source: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const entry = runningModule(source);
  const load =
    moduleExtension === '.js'
      ? `import(${JSON.stringify(entry.href)});`
      : `import(${JSON.stringify(tsxModule())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(load, { ...options, eval: true });
}
