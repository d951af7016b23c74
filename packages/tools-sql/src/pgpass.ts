import { statSync } from 'node:fs';
import { readIfPresent } from './option-files.js';

/**
 * ~/.pgpass (or PGPASSFILE) read as libpq's passwordFromFile reads it. Not node-pg's `pgpass`
 * module: that one reads process.env and HOME rather than the environment it is given, and writes
 * its warnings to process.stderr, under the TUI's frame. A file libpq would ignore (not a plain
 * file, or readable by the group or others) is ignored here too, and the reason is returned for
 * `riskgate doctor` instead of printed.
 */
export interface PgpassLookup {
  readonly host: string;
  readonly port: string;
  readonly database: string;
  readonly user: string;
}

export type PgpassResult =
  | { readonly password: string; readonly file: string }
  | { readonly ignored: string; readonly file: string }
  | undefined;

/** The fields of a line, split at unescaped colons; the escapes are removed (the password ends at the next colon, as in libpq). */
function fields(line: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (character === ':') {
      out.push(current);
      current = '';
    } else current += character === '\\' && index + 1 < line.length ? line[++index] : character;
  }
  out.push(current);
  return out;
}

export function passwordFromPgpass(file: string, lookup: PgpassLookup): PgpassResult {
  let mode: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) return { ignored: `password file "${file}" is not a plain file`, file };
    mode = stats.mode;
  } catch {
    return undefined;
  }
  // 0077: as libpq, which ignores a password file others can read (psql warns, riskgate says so in doctor).
  if (process.platform !== 'win32' && (mode & 0o077) !== 0)
    return {
      ignored: `password file "${file}" has group or world access; permissions should be u=rw (0600) or less`,
      file,
    };
  const text = readIfPresent(file);
  if (text === undefined) return undefined;
  // As libpq: a socket directory or no host is matched as "localhost".
  const host = lookup.host === '' || lookup.host.startsWith('/') ? 'localhost' : lookup.host;
  const wanted = [host, lookup.port, lookup.database, lookup.user];
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const parts = fields(line);
    if (parts.length < 5) continue;
    if (wanted.every((value, index) => parts[index] === '*' || parts[index] === value))
      return { password: parts[4]!, file };
  }
  return undefined;
}
