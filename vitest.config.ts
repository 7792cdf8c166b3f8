import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'proxy/**/*.test.ts',
      'extraction/**/*.test.ts',
      'host/**/*.test.ts',
      'cli/**/*.test.ts',
      'test/**/*.test.ts',
      'widget/**/*.node-test.ts',
    ],
    // The widget's other tests run in Chromium (web-test-runner); its *.node-test.ts need no browser.
    exclude: ['**/node_modules/**', 'test/e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
