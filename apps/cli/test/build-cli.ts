import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDependencies } from '../../../vitest.build-dependencies.js';

const cli = fileURLToPath(new URL('..', import.meta.url));
const workspace = join(cli, '..', '..');

/** The newest modification time among the files the bundle is built from. */
function newestSource(): number {
  const roots = [
    join(cli, 'src'),
    join(cli, 'build.mjs'),
    join(cli, 'package.json'),
    ...readdirSync(join(workspace, 'packages')).flatMap((name) => [
      join(workspace, 'packages', name, 'src'),
      join(workspace, 'packages', name, 'templates'),
    ]),
  ];
  let newest = 0;
  const visit = (path: string) => {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const root of roots) visit(root);
  return newest;
}

/**
 * The end-to-end tests run dist/riskgate.js. It is (re)built here when missing or older than
 * its sources (esbuild, from the packages' source, about a second), so `pnpm --filter riskgate
 * test` passes alone from a clean clone and never tests a stale bundle; the workspace packages it
 * copies from (tools-command's grammar, the prompt templates) are built first when they are stale.
 * `pnpm test` builds everything before any test starts, so under it nothing is rewritten here
 * while other tasks read it (tests/packaging packs it; see vitest.build-dependencies.js).
 */
export default function setup(): void {
  buildDependencies();
  let built = 0;
  try {
    built = statSync(join(cli, 'dist', 'riskgate.js')).mtimeMs;
  } catch {
    // not built yet
  }
  if (built >= newestSource()) return;
  execFileSync(process.execPath, [join(cli, 'build.mjs')], { cwd: cli, stdio: 'inherit' });
}
