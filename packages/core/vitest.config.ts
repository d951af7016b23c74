import { defineConfig } from 'vitest/config';
import { riskgateSourceConditions } from '../../vitest.shared.js';

// OpenTelemetry's "module" builds (picked by the shared conditions) import files without
// extensions, which only a bundler resolves (esbuild does, for the CLI); Node, which runs the
// externalised dependencies here, does not. So the core's tests resolve without "module": Node's
// own conditions give every dependency the build Node runs.
const conditions = riskgateSourceConditions.resolve.conditions.filter((condition) => condition !== 'module');

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: riskgateSourceConditions.ssr.resolve.externalConditions } },
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000 },
});
