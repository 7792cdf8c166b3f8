import { defineConfig } from 'vitest/config';

// End-to-end: the real demo (host, proxy, built bundles) driven in Chromium by playwright-core.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
