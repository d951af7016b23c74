// A vitest globalSetup for tests that run packages as an app would (from dist/): the package's
// workspace dependencies are built first when their outputs are missing or older than their
// sources, so `pnpm --filter <package> test` passes alone from a clean clone.
//
// When every output is already fresh nothing is run: turbo restores a cached build by deleting and
// rewriting its outputs (new files, even when identical), and under `pnpm test` other packages'
// tests are reading those files at that moment (a CLI spawned from dist/, the bash grammar). That
// race failed CI runs; `pnpm test` builds everything before any test starts, so here it is a no-op.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('.', import.meta.url).pathname;
const turbo = join(root, 'node_modules', '.bin', 'turbo');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };

/** What a package's build reads: everything in it but its outputs, its tests and installed modules. */
const NOT_INPUTS = new Set(['node_modules', 'test', 'dist', '.turbo', 'coverage']);

/** The newest modification time under `path` (0 when it is missing), skipping `skip` at the top. */
function newest(path, skip = new Set()) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let found = 0;
  for (const entry of readdirSync(path)) if (!skip.has(entry)) found = Math.max(found, newest(join(path, entry)));
  return found;
}

/** True when some output folder is missing or older than a source of the package. */
function stale(directory, outputs) {
  const folders = outputs.map((glob) => join(root, directory, glob.replace(/\/\*\*$/, '')));
  const built = Math.min(...folders.map((folder) => newest(folder)));
  if (built === 0) return true;
  const skip = new Set([...NOT_INPUTS, ...outputs.map((glob) => glob.replace(/\/\*\*$/, ''))]);
  return newest(join(root, directory), skip) > built;
}

// `also` names packages to build that are not dependencies (tests/packaging packs the CLI).
export function buildDependencies(also = []) {
  const { name } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
  const filters = [`--filter=${name}^...`, ...also.map((other) => `--filter=${other}`)];
  const plan = JSON.parse(
    execFileSync(turbo, ['run', 'build', ...filters, '--dry=json'], { cwd: root, env, encoding: 'utf8' }),
  );
  const builds = plan.tasks.filter((task) => task.command !== '<NONEXISTENT>');
  if (!builds.some((task) => stale(task.directory, task.outputs))) return;
  execFileSync(turbo, ['run', 'build', ...filters, '--output-logs=errors-only'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
}

export default function setup() {
  buildDependencies();
}
