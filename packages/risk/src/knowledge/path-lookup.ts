import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import picomatch from 'picomatch';
import { listDirectory, lstatBig } from './directory-cache.js';
import { type AnyStats, identityKey, settledBefore } from './file-identity.js';
import { fileVerdict } from './file-verdict.js';
import { lazyMatcher } from './lazy-glob.js';
import { type PathClass, SECRET_WHEN_CONTENT, SENSITIVE_PATHS } from './sensitive-paths.js';

/** What the knowledge base says about one path. */
export interface PathFact {
  readonly class: PathClass;
  /** Plain words: "AWS credentials", "a named pipe: a read waits for a writer". */
  readonly what: string;
}

export interface PathLookupOptions {
  /** The home directory (`~`). Tests point it at a temporary one. */
  readonly home?: string;
}

export interface CompiledRow {
  readonly class: PathClass;
  readonly what: string;
  readonly test: (path: string) => boolean;
  /** The glob's segments, absolute (home expanded) or starting with `**`, for pattern overlap. */
  readonly segments: readonly string[];
  /** The row names one place (`/…` or `~/…`), not a name in any directory. */
  readonly anchored: boolean;
  readonly fileOnly: boolean;
  /** For a row that names one file or directory in any directory: a test of the name alone (fast, for tree walks). */
  readonly name?: (name: string) => boolean;
}

const PICO = { dot: true, nonegate: true } as const;
const compiledFor = new Map<string, readonly CompiledRow[]>();

/**
 * One glob segment compiled once: the rows' segments (PICO) and bash's (dot only when the
 * segment starts with one). Expanding the anchored rows for the sandbox recompiled every
 * segment on every call.
 */
const segmentMatchers = new Map<string, (name: string) => boolean>();
function segmentMatcher(segment: string, dot: boolean | 'rows'): (name: string) => boolean {
  const key = `${dot}\0${segment}`;
  let matcher = segmentMatchers.get(key);
  if (matcher === undefined) {
    matcher = picomatch(segment, dot === 'rows' ? PICO : { dot });
    if (segmentMatchers.size > 10_000) segmentMatchers.clear();
    segmentMatchers.set(key, matcher);
  }
  return matcher;
}

function anchored(glob: string, home: string): string {
  if (glob.startsWith('~/')) return `${home.replace(/\/+$/, '')}/${glob.slice(2)}`;
  if (glob.startsWith('/')) return glob;
  return `**/${glob}`;
}

export function compiledRows(home: string): readonly CompiledRow[] {
  const stateRows = checkpointDirectories(home);
  const key = [home, ...stateRows].join('\0');
  let rows = compiledFor.get(key);
  if (rows === undefined) {
    rows = [...tableRows(home), ...stateRows.map(checkpointRow)];
    compiledFor.set(key, rows);
  }
  return rows;
}

const CHECKPOINTS_WHAT = "riskgate's copies of changed files for /undo, secrets among them";

/**
 * The folder of riskgate's copies for /undo in force for this process, when the table's
 * `~/.local/state` row does not name it: `$XDG_STATE_HOME` set elsewhere (inside the workspace
 * too), or the real home when `home` is another. Its resolved path too, when a link leads there.
 */
export function checkpointDirectories(home: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const key = `${home}\0${env.XDG_STATE_HOME ?? ''}`;
  const now = Date.now();
  // Resolved again at most every second: a link put on the way since is followed soon after.
  if (lastDirectories?.key === key && now - lastDirectories.at < 1_000) return lastDirectories.paths;
  const paths = directoriesInForce(home, env);
  lastDirectories = { key, at: now, paths };
  return paths;
}

let lastDirectories: { readonly key: string; readonly at: number; readonly paths: string[] } | undefined;

function directoriesInForce(home: string, env: NodeJS.ProcessEnv): string[] {
  const state = env.XDG_STATE_HOME ? resolvePath(env.XDG_STATE_HOME) : join(homedir(), '.local', 'state');
  const directory = join(state, 'riskgate', 'checkpoints');
  const tabled = join(home, '.local', 'state', 'riskgate', 'checkpoints');
  return [...new Set([directory, realPathOf(directory)])].filter((path) => path !== tabled);
}

/** A literal folder and everything below it (its name is not read as a glob). */
function checkpointRow(directory: string): CompiledRow {
  return {
    class: 'secret',
    what: CHECKPOINTS_WHAT,
    test: (path) => isAbsolute(path) && isInside(resolvePath(path), directory),
    segments: directory.split('/').filter((part) => part !== ''),
    anchored: true,
    fileOnly: false,
  };
}

function tableRows(home: string): CompiledRow[] {
  return SENSITIVE_PATHS.flatMap((row) =>
    expandBraces(row.glob)
      // A row that holds the home itself (`/root` when riskgate runs as root) would make every
      // path in the home secret, the allowlist's public keys and programs too: the home is
      // private by its own rule (home-allowlist.ts), which leaves those out.
      .filter(
        (alternative) => !(alternative.startsWith('/') && !GLOB_CHARS.test(alternative) && isInside(home, alternative)),
      )
      .map((alternative) => {
        const glob = anchored(alternative, home);
        // A row covers the path itself and, when it is a directory, everything below it.
        // Compiled when a path first holds the row's literal text (lazy-glob.ts).
        const test = lazyMatcher(row.fileOnly === true ? [glob] : [glob, `${glob}/**`], PICO);
        return {
          class: row.class,
          what: row.what,
          test,
          segments: glob.split('/').filter((part) => part !== ''),
          anchored: alternative.startsWith('/') || alternative.startsWith('~/'),
          fileOnly: row.fileOnly === true,
          ...(alternative.startsWith('/') || alternative.startsWith('~/') || alternative.includes('/')
            ? {}
            : { name: lazyMatcher([alternative], PICO) }),
        };
      }),
  );
}

const contentRows = SECRET_WHEN_CONTENT.map((row) => ({ ...row, test: lazyMatcher([`**/${row.glob}`], PICO) }));

/**
 * The real path, or the real path of the nearest existing ancestor with the rest appended. A
 * symlink whose target does not exist (or cannot be resolved here, such as `/dev/mem` in a
 * container) is still followed by its text: the link leads there whatever its name says.
 */
export function realPathOf(path: string, hops = 0): string {
  const missing: string[] = [];
  let cursor = path;
  for (;;) {
    try {
      // realpath(3) itself: the JavaScript realpathSync lstats every component (a recursive read
      // that follows links resolved thousands of pnpm links per call with it).
      return join(realpathSync.native(cursor), ...missing.reverse());
    } catch {
      const target = hops < 40 ? linkTarget(cursor) : undefined;
      if (target !== undefined)
        return realPathOf(join(resolvePath(dirname(cursor), target), ...[...missing].reverse()), hops + 1);
      const parent = dirname(cursor);
      if (parent === cursor) return path;
      missing.push(basename(cursor));
      cursor = parent;
    }
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Relative inside the workspace, `~/…` in the home directory, as people write them. */
export function displayPath(path: string, options: PathLookupOptions & { readonly cwd?: string } = {}): string {
  const home = options.home ?? homedir();
  if (options.cwd !== undefined && path !== options.cwd && isInside(path, options.cwd))
    return relative(options.cwd, path);
  if (path === home) return '~';
  if (home !== '/' && isInside(path, home)) return `~/${relative(home, path)}`;
  return path;
}

/** Table rows that cover the path as written and as resolved (symlinks followed). */
export function tableFacts(path: string, options: PathLookupOptions = {}): PathFact[] {
  return matchRows(new Set([path, realPathOf(path)]), options.home ?? homedir());
}

function matchRows(candidates: ReadonlySet<string>, home: string, isDirectory?: boolean): PathFact[] {
  const facts: PathFact[] = [];
  for (const row of compiledRows(home)) {
    for (const candidate of candidates) {
      if (row.test(candidate) && !(row.fileOnly && (isDirectory ?? statOf(candidate)?.isDirectory() === true))) {
        facts.push({ class: row.class, what: row.what });
        break;
      }
    }
  }
  return facts;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** How much of one file is read for secret content: as much as a file read returns by default. */
const SNIFF_BYTES = 256 * 1024;
/** Per file in a tree scan, where thousands of files are sniffed. */
export const TREE_SNIFF_BYTES = 8 * 1024;

/** The first bytes of a regular file, or undefined when it cannot be read. */
function sniff(path: string, size: number, limit: number): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    // O_NONBLOCK: a file swapped for a pipe since the stat must not hang the judge.
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const buffer = Buffer.alloc(Math.min(size, limit));
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * What the file's kind and content say: pipes, devices, private keys and other secrets by content.
 * The content is judged whole (unpacked when compressed) by `fileVerdict`, once per version of the
 * file; a file that cannot be checked whole is treated as a secret (hidden, asked). `sniffBytes`
 * bounds only the head read for the `SECRET_WHEN_CONTENT` rows and binary formats.
 */
export function fileFacts(
  path: string,
  stats: AnyStats | undefined = statOf(path),
  sniffBytes = SNIFF_BYTES,
): PathFact[] {
  if (stats === undefined) return [];
  if (stats.isFIFO()) return [{ class: 'endless', what: 'a named pipe: a read waits for a writer' }];
  if (stats.isSocket()) return [{ class: 'endless', what: 'a socket' }];
  if (stats.isBlockDevice()) return [{ class: 'raw', what: 'a block device (raw disk)' }];
  if (stats.isCharacterDevice()) {
    return realPathOf(path) === '/dev/null' ? [] : [{ class: 'endless', what: 'a character device' }];
  }
  const size = Number(stats.size);
  if (!stats.isFile() || size === 0) return [];
  // The content's facts, reused while the file keeps its identity and its times had settled
  // before it was read (file-identity.ts): a tree scan judges thousands of files per call.
  const memo = `${sniffBytes}\0${path}`;
  const key = identityKey(stats);
  const cached = contentFacts.get(memo);
  if (cached?.key === key) return cached.facts;
  const readAt = Date.now();
  const { facts, read } = contentFactsOf(path, stats, size, sniffBytes);
  if (contentFacts.size >= MAX_CONTENT_FACTS) contentFacts.clear();
  // A file that could not be opened this time (a descriptor limit, a race) is not remembered as clean.
  if (read && settledBefore(stats, readAt)) contentFacts.set(memo, { key, facts });
  else contentFacts.delete(memo);
  return facts;
}

const contentFacts = new Map<string, { readonly key: string; readonly facts: PathFact[] }>();
const MAX_CONTENT_FACTS = 100_000;

function contentFactsOf(
  path: string,
  stats: AnyStats,
  size: number,
  sniffBytes: number,
): { readonly facts: PathFact[]; readonly read: boolean } {
  const verdict = fileVerdict(path, stats);
  if (verdict === undefined) return { facts: [], read: false };
  const facts: PathFact[] = [];
  if (verdict.secret !== undefined) facts.push({ class: 'secret', what: `${verdict.secret} (by its content)` });
  if (verdict.unchecked !== undefined)
    facts.push({ class: 'secret', what: `${verdict.unchecked}: unchecked, so treated as secret` });
  const head = sniff(path, size, sniffBytes);
  if (head === undefined) return { facts, read: false };
  // Kerberos keytabs are binary: version bytes 0x05 0x02.
  if (head[0] === 0x05 && head[1] === 0x02 && /\.keytab$|keytab/i.test(path))
    facts.push({ class: 'secret', what: 'a Kerberos keytab' });
  const text = head.toString('latin1');
  for (const row of contentRows) {
    if (row.test(path) && row.content.test(text)) facts.push({ class: 'secret', what: row.what });
  }
  return { facts, read: true };
}

/** Everything the knowledge base says about one concrete path. */
export function pathFacts(path: string, options: PathLookupOptions = {}): PathFact[] {
  return [...tableFacts(path, options), ...fileFacts(path)];
}

// ---------------------------------------------------------------------------------------------
// Patterns (globs a shell expands at run time)

const GLOB_CHARS = /[*?[]/;

/**
 * Could the bash glob `pattern` (absolute) name a path the table lists? An over-approximation:
 * it may say yes where no file could match, never no where one could. Bash globs do not match
 * a leading dot unless the pattern segment starts with one.
 */
export function patternMayReach(pattern: string, options: PathLookupOptions = {}): PathFact[] {
  const home = options.home ?? homedir();
  const segments = pattern.split('/').filter((part) => part !== '');
  const facts: PathFact[] = [];
  for (const row of compiledRows(home)) {
    // Rows that name a file in any directory (`.env`, `*.key`) are found by expanding the
    // pattern against the filesystem: `docs/*` reaches a `docs/server.key` only if there is one.
    if (!row.anchored) continue;
    if (segmentsOverlap(segments, 0, row.segments, 0)) facts.push({ class: row.class, what: row.what });
  }
  return facts;
}

/** `a{b,c}d` → `abd`, `acd` (our own rows only: nested braces, no ranges). */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  if (open === -1) return [glob];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let index = open; index < glob.length; index++) {
    const char = glob[index];
    if (char === '{') depth++;
    else if (char === '}' && --depth === 0) {
      close = index;
      break;
    } else if (char === ',' && depth === 1) commas.push(index);
  }
  if (close === -1 || commas.length === 0) return [glob];
  const bounds = [open, ...commas, close];
  const head = glob.slice(0, open);
  const tail = glob.slice(close + 1);
  return bounds
    .slice(0, -1)
    .flatMap((start, index) => expandBraces(`${head}${glob.slice(start + 1, bounds[index + 1])}${tail}`));
}

function segmentsOverlap(pattern: readonly string[], p: number, row: readonly string[], r: number): boolean {
  // The row covers everything below it: a pattern that goes deeper still reaches it.
  if (r === row.length) return true;
  if (p === pattern.length) return false;
  const rowSegment = row[r]!;
  if (rowSegment === '**') {
    // `**` matches zero or more whole segments.
    for (let skip = p; skip <= pattern.length; skip++) {
      if (segmentsOverlap(pattern, skip, row, r + 1)) return true;
    }
    return false;
  }
  return segmentOverlaps(pattern[p]!, rowSegment) && segmentsOverlap(pattern, p + 1, row, r + 1);
}

const ROW_GLOB_CHARS = /[*?[!(]/;

/** The literal text before the first and after the last wildcard of a glob segment. */
function literalEnds(segment: string, wildcards: RegExp): { readonly head: string; readonly tail: string } {
  const first = segment.search(wildcards);
  let last = -1;
  for (let index = segment.length - 1; index >= 0; index--) {
    if ('*?])'.includes(segment[index]!)) {
      last = index;
      break;
    }
  }
  return { head: segment.slice(0, first), tail: segment.slice(last + 1) };
}

/** Could one name match both the bash glob segment and the table's glob segment? */
function segmentOverlaps(patternSegment: string, rowSegment: string): boolean {
  // A row that excludes names (`!(*.pub|known_hosts)`) cannot be reached by a pattern that is one
  // of its exclusions: `~/.ssh/*.pub` names public keys only.
  const negated = /^!\((.*)\)$/.exec(rowSegment);
  if (negated !== null && negated[1]!.split('|').includes(patternSegment)) return false;
  const patternGlob = GLOB_CHARS.test(patternSegment);
  const rowGlob = ROW_GLOB_CHARS.test(rowSegment);
  if (!patternGlob && !rowGlob) return patternSegment === rowSegment;
  if (!patternGlob) return segmentMatcher(rowSegment, 'rows')(patternSegment);
  // bash: `*x` does not match `.ssh`; only a segment starting with `.` reaches dotfiles.
  const patternDot = patternSegment.startsWith('.');
  if (!rowGlob)
    return (patternDot || !rowSegment.startsWith('.')) && segmentMatcher(patternSegment, patternDot)(rowSegment);
  // Both are globs: a safe over-approximation from the literal text around the wildcards.
  const pattern = literalEnds(patternSegment, GLOB_CHARS);
  const row = literalEnds(rowSegment, ROW_GLOB_CHARS);
  if (!patternDot && row.head.startsWith('.')) return false;
  const headsFit = pattern.head.startsWith(row.head) || row.head.startsWith(pattern.head);
  const tailsFit = pattern.tail.endsWith(row.tail) || row.tail.endsWith(pattern.tail);
  return headsFit && tailsFit;
}

export function hasGlob(path: string): boolean {
  return GLOB_CHARS.test(path);
}

/**
 * Expand a bash glob against the filesystem, as bash would (no dotfiles unless the segment
 * starts with `.`), up to `limit` matches. `complete` is false when the limit cut it short.
 */
export function expandPattern(
  pattern: string,
  limit = 2_000,
): { readonly paths: string[]; readonly complete: boolean } {
  const segments = pattern.split('/').filter((part) => part !== '');
  let current = ['/'];
  let complete = true;
  for (const segment of segments) {
    const next: string[] = [];
    for (const base of current) {
      if (!GLOB_CHARS.test(segment)) {
        next.push(join(base, segment));
        continue;
      }
      const matcher = segmentMatcher(segment, segment.startsWith('.'));
      let names: string[];
      try {
        names = readdirSync(base);
      } catch {
        continue;
      }
      for (const name of names) {
        if (matcher(name)) next.push(join(base, name));
        if (next.length > limit) {
          complete = false;
          break;
        }
      }
    }
    current = next.slice(0, limit);
  }
  return { paths: current.filter((path) => lstatOk(path)), complete };
}

function lstatOk(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The existing paths an anchored row names, expanded segment by segment with the same glob
 * semantics as `row.test` (picomatch, dotfiles included, braces already expanded): what the
 * sandbox hides. A `**` segment stops the walk at the directory where it starts (everything
 * below may match, so that directory is the thing to hide).
 */
export function existingPathsOf(row: CompiledRow): string[] {
  return existingPaths(row.segments);
}

/** The existing paths an absolute glob names, given as its segments (the same semantics as the rows). */
export function existingPaths(segments: readonly string[]): string[] {
  let current = ['/'];
  for (const segment of segments) {
    if (segment === '**') return current;
    if (!ROW_GLOB_CHARS.test(segment)) {
      current = current.map((base) => join(base, segment));
      continue;
    }
    const matches = segmentMatcher(segment, 'rows');
    current = current.flatMap((base) =>
      namesIn(base)
        .filter((name) => matches(name))
        .map((name) => join(base, name)),
    );
    if (current.length === 0) return [];
  }
  return current.filter((path) => lstatOk(path));
}

/** A directory's names, from the shared listing cache (directory-cache.ts) when it is a real directory. */
function namesIn(directory: string): string[] {
  const stats = lstatBig(directory);
  if (stats?.isDirectory() === true) return listDirectory(directory, stats)?.entries.map((entry) => entry.name) ?? [];
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
