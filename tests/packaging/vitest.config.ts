import { defineConfig } from 'vitest/config';

// Packing and npm installs take a while: one file, generous timeouts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/build-first.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
