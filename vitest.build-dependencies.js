// A vitest globalSetup for tests that run packages as an app would (from dist/): turbo builds
// the package's workspace dependencies first (cached when nothing changed), so
// `pnpm --filter <package> test` passes alone from a clean clone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// `also` names packages to build that are not dependencies (tests/packaging packs the CLI).
export function buildDependencies(also = []) {
  const { name } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
  const root = new URL('.', import.meta.url).pathname;
  const filters = [`--filter=${name}^...`, ...also.map((other) => `--filter=${other}`)];
  execFileSync(join(root, 'node_modules', '.bin', 'turbo'), ['run', 'build', ...filters, '--output-logs=errors-only'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
}

export default function setup() {
  buildDependencies();
}
