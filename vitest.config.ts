import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['proxy/**/*.test.ts', 'extraction/**/*.test.ts', 'demo/host/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/**', 'widget/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
