#!/usr/bin/env node
// The doclens command, every server in this one process (stopping it stops them all). An installed
// package runs the JavaScript compiled into lib/; a checkout, which has the TypeScript sources, runs
// them through tsx (a development dependency), so that an edit needs no build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

// The commands that serve an index collect their threads' garbage on demand, which needs Node's
// --expose-gc from the start (runtime/forced-gc.ts): they run in a Node started with it, this process
// passing signals on and exiting as it exits. The channel between the two tells the command when this
// process is gone, however it ended (cli/main.ts). `build` forces no collections (static/page-worker.ts).
const INDEXING = ['host', 'demo'];
if (INDEXING.includes(process.argv[2]) && typeof globalThis.gc !== 'function') {
  const args = ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  child.on('error', (error) => {
    console.error(`doclens: ${error.message}`);
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
} else {
  const sources = new URL('../cli/main.ts', import.meta.url);
  if (existsSync(sources)) {
    const { register } = await import('tsx/esm/api');
    register();
    await import(sources.href);
  } else {
    await import('../lib/cli/main.js');
  }
}
