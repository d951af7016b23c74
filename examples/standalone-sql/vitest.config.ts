import { defineConfig } from 'vitest/config';

// The example runs under plain Node, as an app would run it: against the packages' dist/.
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], globalSetup: ['../../vitest.build-dependencies.js'], testTimeout: 30_000 },
});
