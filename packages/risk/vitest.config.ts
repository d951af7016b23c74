import { defineConfig } from 'vitest/config';
import { riskgateSourceConditions } from '../../vitest.shared.js';

export default defineConfig({
  ...riskgateSourceConditions,
  test: { include: ['test/**/*.test.ts', 'src/**/*.test.ts'], testTimeout: 30_000 },
});
