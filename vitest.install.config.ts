import { defineConfig } from 'vitest/config';

// The package as users install it, where that takes minutes (`npm run test:install`, not in `npm test`): the
// container image built and run with podman, and npm's install from a Git URL (npm builds the clone).
export default defineConfig({
  test: {
    include: ['test/install/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
