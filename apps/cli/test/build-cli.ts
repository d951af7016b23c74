import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The end-to-end tests run dist/riskgate.js. Building it here (esbuild, from the packages'
 * source, about a second) makes `pnpm --filter riskgate test` pass alone from a clean clone
 * and never test a stale bundle.
 */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../build.mjs', import.meta.url))], { stdio: 'inherit' });
}
