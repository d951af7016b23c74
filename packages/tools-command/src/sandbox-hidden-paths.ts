import { closeSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isInside, SECRET_WHEN_CONTENT, SENSITIVE_PATHS } from '@riskgate/risk';
import picomatch from 'picomatch';

/** One path the sandbox covers: a directory with an empty tmpfs, a file with /dev/null. */
export interface HiddenPath {
  readonly path: string;
  readonly kind: 'directory' | 'file';
}

export interface HiddenPathOptions {
  readonly home?: string;
  /** The directory the command runs in: its top level is searched for secret files too. */
  readonly cwd: string;
}

/**
 * The secrets the sandbox hides, read from the one table of sensitive paths
 * (`SENSITIVE_PATHS`, class `secret`) — never a second list:
 *
 * - Anchored rows (`~/.ssh`, `/etc/shadow`, `~/.mozilla/firefox/*\/logins.json`) are expanded
 *   against the filesystem; a `**` segment hides the directory where it starts (everything
 *   below may match).
 * - Rows that match a name in any directory (`.env`, `id_rsa`, `*.pem`, `.pgpass`) are looked
 *   for in the home directory and the command's directory, where they usually are. Deeper
 *   copies are left to the assessor and the output guard: scanning a whole tree before every
 *   command would cost seconds.
 * - `/proc/…` and `/dev/…` rows need nothing: the sandbox mounts its own /proc (its own
 *   processes only) and a minimal /dev.
 * - A secret row that holds the home directory itself (`/root` when riskgate runs as root) is
 *   not hidden whole — that would hide every program installed in the home directory; its
 *   secret children are hidden by their own rows.
 */
export function hiddenPaths(options: HiddenPathOptions): HiddenPath[] {
  const home = options.home ?? homedir();
  const found = new Map<string, HiddenPath>();
  const add = (candidate: string) => {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      return; // absent: nothing to hide
    }
    if (real === '/' || isInside(home, real)) return;
    if (real.startsWith('/proc/') || real.startsWith('/dev/')) return;
    try {
      found.set(real, { path: real, kind: statSync(real).isDirectory() ? 'directory' : 'file' });
    } catch {
      // Vanished or unreadable between the two calls: bubblewrap would fail on it, skip it.
    }
  };
  const unanchored: string[] = [];
  for (const row of SENSITIVE_PATHS) {
    if (row.class !== 'secret') continue;
    if (!row.glob.startsWith('/') && !row.glob.startsWith('~/')) {
      unanchored.push(row.glob);
      continue;
    }
    // The sandbox's own /proc and /dev hold nothing of the host's (expanding /proc/*/task/* costs 400 ms).
    if (row.glob.startsWith('/proc/') || row.glob.startsWith('/dev/')) continue;
    const absolute = row.glob.startsWith('~/') ? join(home, row.glob.slice(2)) : row.glob;
    for (const path of expandSegments(absolute.split('/').filter((part) => part !== ''))) add(path);
  }
  const matches = picomatch(unanchored, PICO);
  for (const directory of new Set([home, options.cwd])) {
    for (const name of namesIn(directory)) {
      if (matches(name) || secretByContent(directory, name)) add(join(directory, name));
    }
  }
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

const GLOB = /[*?[{(!]/;
const PICO = { dot: true, nonegate: true } as const;

/**
 * Expand an absolute glob segment by segment (picomatch per segment, dotfiles included, as the
 * path table matches). A `**` segment ends the walk at the directory where it starts.
 */
function expandSegments(segments: readonly string[]): string[] {
  let current = ['/'];
  for (const segment of segments) {
    if (segment === '**') return current;
    if (!GLOB.test(segment)) {
      current = current.map((base) => join(base, segment));
      continue;
    }
    const matches = picomatch(segment, PICO);
    current = current.flatMap((base) => namesIn(base).filter((name) => matches(name)).map((name) => join(base, name)));
    if (current.length === 0) return [];
  }
  return current;
}

/** Rows of SECRET_WHEN_CONTENT that name a file by its name alone (`*.pem`, `.npmrc`). */
const CONTENT_ROWS = SECRET_WHEN_CONTENT.filter((row) => !row.glob.includes('/')).map((row) => ({ matches: picomatch(row.glob, PICO), content: row.content }));

/** A `.pem` holding a private key, an `.npmrc` holding a token: read its head only when the name fits a row. */
function secretByContent(directory: string, name: string): boolean {
  const rows = CONTENT_ROWS.filter((row) => row.matches(name));
  if (rows.length === 0) return false;
  let fd: number | undefined;
  try {
    const path = join(directory, name);
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
    const head = Buffer.alloc(64 * 1024);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
    return rows.some((row) => row.content.test(text));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function namesIn(directory: string): string[] {
  try {
    if (!lstatSync(directory).isDirectory()) return [];
    return readdirSync(directory);
  } catch {
    return [];
  }
}
