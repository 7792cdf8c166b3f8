#!/usr/bin/env node
// The doclens command: TypeScript sources run in this one process, so stopping it stops every server.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
