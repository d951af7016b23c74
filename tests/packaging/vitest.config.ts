import { defineConfig } from 'vitest/config';

// Packing and npm installs take a while: one file, generous timeouts.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], globalSetup: ['../../vitest.build-dependencies.js'], testTimeout: 120_000, hookTimeout: 600_000 } });
