import { defineConfig } from 'vitest/config';

// The example runs as an app would: against the packages' dist/ (built first by turbo).
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], globalSetup: ['../../vitest.build-dependencies.js'], testTimeout: 30_000 },
});
