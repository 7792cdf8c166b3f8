#!/usr/bin/env node
// The doclens command, every server in this one process (stopping it stops them all). An installed
// package runs the JavaScript compiled into lib/; a checkout, which has the TypeScript sources, runs
// them through tsx (a development dependency), so that an edit needs no build.
import { existsSync } from 'node:fs';

const sources = new URL('../cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../lib/cli/main.js');
}
