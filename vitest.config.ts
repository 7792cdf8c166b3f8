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
          include: [
            'proxy/**/*.test.ts',
            'extraction/**/*.test.ts',
            'search/**/*.test.ts',
            'host/**/*.test.ts',
            'cli/**/*.test.ts',
            'static/**/*.test.ts',
            'versions/**/*.test.ts',
            'widget/**/*.node-test.ts',
          ],
          exclude: ['**/node_modules/**', ...STARTS_SERVERS],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/**/*.test.ts', ...STARTS_SERVERS],
          exclude: ['**/node_modules/**', 'test/e2e/**', 'test/install/**'],
        },
      },
    ],
  },
});
