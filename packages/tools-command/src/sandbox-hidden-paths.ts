import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { compiledRows, existingPathsOf, isInside, secretFilesBelow } from '@riskgate/risk';
import { homeIsPrivate } from './sandbox-home.js';

/** One path the sandbox covers: a directory with an empty tmpfs, a file with /dev/null. */
export interface HiddenPath {
  readonly path: string;
  readonly kind: 'directory' | 'file';
}

export interface HiddenPathOptions {
  readonly home?: string;
  /** The directory the command runs in: searched for secret files too when outside the workspace. */
  readonly cwd: string;
  /** The workspace, searched for secret files at any depth. Defaults to `cwd`. */
  readonly workspace?: string;
}

/**
 * The secrets the sandbox hides, read from the one table of sensitive paths through the one
 * matcher the judge uses (`compiledRows`: braces expanded before the glob is split, so
 * `~/.{composer,config/composer}/auth.json` is two whole rows) — never a second list:
 *
 * - Anchored secret rows (`/etc/shadow`, `/run/secrets`, `/proc/*`) are expanded against the
 *   filesystem; a `**` segment hides the directory where it starts.
 * - The workspace (and a command directory outside it) is scanned at any depth for files the
 *   table names and files whose content holds a secret (`secretFilesBelow`: bounded, cached).
 * - Nothing in a private home needs hiding: the home is an empty tmpfs (sandbox-home.ts).
 * - `/proc/…` and `/dev/…` rows need nothing: the sandbox mounts its own /proc (its own
 *   processes only) and a minimal /dev.
 * - A row that holds the home directory itself (`/root` when riskgate runs as root) is left to
 *   the home's own treatment, which keeps the allowlisted programs.
 */
/** The directory a row's glob starts from: its segments up to the first with a wildcard. */
function literalPrefix(segments: readonly string[]): string {
  const literal: string[] = [];
  for (const segment of segments) {
    if (/[*?[{!(]/.test(segment)) break;
    literal.push(segment);
  }
  return `/${literal.join('/')}`;
}

export function hiddenPaths(options: HiddenPathOptions): HiddenPath[] {
  const home = options.home ?? homedir();
  const workspace = options.workspace ?? options.cwd;
  const privateHome = homeIsPrivate(home, workspace);
  const found = new Map<string, HiddenPath>();
  const add = (candidate: string, known?: 'directory' | 'file') => {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      return; // absent: nothing to hide
    }
    if (real === '/' || isInside(home, real)) return;
    if (real.startsWith('/proc/') || real.startsWith('/dev/')) return;
    if (privateHome && isInside(real, home) && !isInside(real, workspace)) return;
    try {
      found.set(real, { path: real, kind: known ?? (statSync(real).isDirectory() ? 'directory' : 'file') });
    } catch {
      // Vanished or unreadable between the two calls: bubblewrap would fail on it, skip it.
    }
  };
  for (const row of compiledRows(home)) {
    if (row.class !== 'secret' || !row.anchored) continue;
    // The sandbox's own /proc and /dev hold nothing of the host's (expanding /proc/*/task/* costs 400 ms).
    if (row.segments[0] === 'proc' || row.segments[0] === 'dev') continue;
    // A private home is an empty tmpfs: its rows are hidden by it, unless they reach into the
    // workspace (or hold it). Expanding them anyway read ~/.ssh and the rest on every call.
    const prefix = literalPrefix(row.segments);
    if (privateHome && isInside(prefix, home) && !isInside(prefix, workspace) && !isInside(workspace, prefix)) continue;
    for (const path of existingPathsOf(row)) add(path);
  }
  // The call was asked when the judge's scan (2 s) did not finish; here the walk is finished
  // whatever it takes, and a workspace past the walk's entry bound runs nothing.
  const scan = secretFilesBelow(workspace, { home, budgetMs: 120_000 });
  if (!scan.complete)
    throw new Error(
      `the workspace ${workspace} holds more files than riskgate can check for secrets; the sandbox cannot hide them all`,
    );
  for (const file of scan.files) add(file.path, file.kind);
  // A command directory outside the workspace (`/srv/app`, `/`) gets a short walk: a whole
  // system tree before every command would cost seconds; the judge still checks what is read.
  if (!isInside(options.cwd, workspace) && !(privateHome && isInside(options.cwd, home))) {
    for (const file of secretFilesBelow(options.cwd, { home, maxEntries: 2_000, budgetMs: 200 }).files)
      add(file.path, file.kind);
  }
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}
