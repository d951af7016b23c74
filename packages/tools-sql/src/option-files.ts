import { readFileSync } from 'node:fs';

/**
 * The two INI dialects psql and mysql read for their connections, each as its own program reads
 * it (the `ini` package quotes, nests dotted sections and cuts inline comments, which neither
 * program does):
 * - libpq's service files (pg_service.conf): `[service]`, `key=value` with the value taken as it
 *   stands after the `=` (no quotes, no escapes), `#` comments on their own line.
 * - MySQL/MariaDB option files (my.cnf): `[group]`, `key=value` or a bare `key`, `#`/`;` comments,
 *   a value in quotes with backslash escapes, `-` and `_` the same in names. `!include` is not
 *   followed (riskgate reads the files a client reads for itself, not what they pull in).
 */
export type OptionSections = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** pg_service.conf as libpq's parseServiceFile reads it; a line it would reject is a clear error. */
export function parseServiceFile(text: string, file: string): Map<string, Map<string, string>> | string {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const section = /^\[(.*)\]$/.exec(line);
    if (section !== null) {
      current = new Map();
      // As libpq: the first section of a name wins (it stops at the first match).
      if (!sections.has(section[1]!)) sections.set(section[1]!, current);
      continue;
    }
    const equals = line.indexOf('=');
    if (equals <= 0) return `syntax error in service file "${file}", line ${index + 1}`;
    current?.set(line.slice(0, equals).trim(), line.slice(equals + 1).trim());
  }
  return sections;
}

/** A my.cnf value: quotes removed and the escapes the client knows turned into characters. */
function unquote(value: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(value);
  if (quoted === null) return value.replace(/\s+[#;].*$/, '');
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', s: ' ', '\\': '\\' };
  return quoted[2]!.replace(/\\(.)/g, (_, character: string) => escapes[character] ?? character);
}

/** A MySQL option file as the client reads it: names lower-cased with `_` as `-`, a bare option as "". */
export function parseMysqlOptionFile(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';') || line.startsWith('!')) continue;
    const section = /^\[([^\]]*)\]/.exec(line);
    if (section !== null) {
      const name = section[1]!.trim().toLowerCase();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    const equals = line.indexOf('=');
    const name = (equals < 0 ? line : line.slice(0, equals)).trim().toLowerCase().replaceAll('_', '-');
    current?.set(name, equals < 0 ? '' : unquote(line.slice(equals + 1).trim()));
  }
  return sections;
}

/** A file's text, or undefined when it is not there (any other read error is reported). */
export function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
