import { defineConfig } from 'vitest/config';

/** Unit tests beside the code that start a server (the docs host): they run with the server-level tests. */
const STARTS_SERVERS = ['host/search.test.ts'];

// Two projects: `unit` (pure functions and in-process pieces, seconds) and `server` (real proxies, docs
// hosts, nginx, Redis and child processes on loopback). `vitest run` runs both; `--project` one of them.
// The widget's other tests run in Chromium (web-test-runner); its *.node-test.ts need no browser.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['proxy/**/*.test.ts', 'extraction/**/*.test.ts', 'host/**/*.test.ts', 'cli/**/*.test.ts', 'widget/**/*.node-test.ts'],
          exclude: ['**/node_modules/**', ...STARTS_SERVERS],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          // These mostly wait (on sockets, timers, child processes): two files at a time even on two cores,
          // where vitest's default would run one.
          maxWorkers: 2,
          // After the unit tests (vitest runs projects of different worker counts in turn).
          sequence: { groupOrder: 1 },
          include: ['test/**/*.test.ts', ...STARTS_SERVERS],
          exclude: ['**/node_modules/**', 'test/e2e/**'],
        },
      },
    ],
  },
});
