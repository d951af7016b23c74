import { defineConfig } from 'vitest/config';
import { riskgateSourceConditions } from '../../vitest.shared.js';

export default defineConfig({
  ...riskgateSourceConditions,
  // The end-to-end tests run the bundled CLI: build it once before any test file starts.
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    globalSetup: ['test/build-cli.ts'],
  },
});
