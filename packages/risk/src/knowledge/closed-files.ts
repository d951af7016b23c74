import { accessSync, constants, lstatSync, type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isInside, type PathFact, realPathOf } from './path-lookup.js';

/**
 * Files their owner keeps from others (DESIGN.md, "The boundary does not trust the parse"). A
 * program that stores a credential makes the file unreadable to other users — a RabbitMQ cookie
 * (0400), Redis's configuration (0640 redis), debconf's passwords (0600), the keys under
 * /etc/ssl/private (a 0710 directory), another user's chat accounts — and no table of names
 * reaches every such program. Its mode already says "private"; riskgate takes it at its word:
 *
 * - the judge: a read or listing that reaches such a path outside the workspace and the home is
 *   a secret read (asked), wherever it runs; riskgate as root would otherwise read it unasked
 *   without a sandbox;
 * - the sandbox: as root, commands run as `nobody`, so the kernel's own checks keep every such
 *   file out (tools-command sandbox-user.ts) — the two agree.
 *
 * The workspace is left out (a person's umask of 077 would make all their work "private"; the
 * workspace scan judges its files by name and content), and so is the home (private as a whole).
 * A path riskgate itself cannot read is left out too: the read would fail, nothing to hand over.
 */
export interface ClosedOptions {
  readonly home: string;
  readonly workspace: string;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

/** Why the path is closed to others, in words, or undefined when others may read it. */
export function closedToOthers(path: string, options: ClosedOptions): PathFact | undefined {
  const real = realPathOf(path);
  if (isInside(real, realPathOf(options.workspace)) || isInside(path, options.workspace)) return undefined;
  const home = realPathOf(options.home);
  if (home !== '/' && (isInside(real, home) || isInside(path, options.home))) return undefined;
  const stats = statOf(real);
  // Devices, pipes and sockets have facts of their own (path-lookup.ts fileFacts).
  if (stats === undefined || !(stats.isFile() || stats.isDirectory()) || !readable(real)) return undefined;
  // A directory is read by listing it (o+r); a file by opening it (o+r).
  if ((stats.mode & 0o004) === 0) {
    const kind = stats.isDirectory() ? 'a directory' : 'a file';
    return { class: 'secret', what: `${kind} its owner keeps from other users (mode ${octal(stats.mode)})` };
  }
  for (let directory = dirname(real); directory !== '/'; directory = dirname(directory)) {
    const above = statOf(directory);
    if (above !== undefined && (above.mode & 0o001) === 0) {
      return {
        class: 'secret',
        what: `inside ${directory}, which its owner keeps from other users (mode ${octal(above.mode)})`,
      };
    }
  }
  return undefined;
}

/** For a tree walk: an entry (already lstat-able) closed to others, by its own mode only. */
export function entryClosedToOthers(path: string): PathFact | undefined {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!(stats.isFile() || stats.isDirectory()) || (stats.mode & 0o004) !== 0) return undefined;
  if (!readable(path)) return undefined;
  const kind = stats.isDirectory() ? 'a directory' : 'a file';
  return { class: 'secret', what: `${kind} its owner keeps from other users (mode ${octal(stats.mode)})` };
}
