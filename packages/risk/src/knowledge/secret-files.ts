import type { BigIntStats } from 'node:fs';
import { listDirectory, lstatBig } from './directory-cache.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type CompiledRow, compiledRows, fileFacts, type PathLookupOptions, realPathOf } from './path-lookup.js';

/**
 * Every secret file below a directory, at any depth, for the sandbox to hide (/dev/null over a
 * file, an empty directory over a directory): by name (the path table's secret rows) and by
 * content (`contentHoldsSecret` through `fileFacts`). Without it, `base64 wp-config.php`,
 * `xxd .dev.vars` or `find . -exec cat {} +` hand a secret over in a form no output guard knows.
 *
 * Bounded in entries and time; cached per directory and per file (keyed by mtime, size and
 * inode), so a steady-state call costs one lstat per entry and no reads. Each file's content is
 * judged whole and unpacked (`fileVerdict`); a file too large to check is hidden as a secret.
 * Every directory is walked, `node_modules` and `vendor` included (a package's `.env` or a
 * vendored config is as readable as the person's own); only `.git/objects` and `.git/lfs` are left
 * to the git assessor, which judges history channels. A walk cut short says so (`complete:
 * false`): the command tool then asks rather than run with secrets the walk never reached.
 */
export interface SecretFile {
  readonly path: string;
  readonly kind: 'file' | 'directory';
  /** Plain words: "the value of DB_PASSWORD (by its content)". */
  readonly what: string;
}

export interface SecretFileScan {
  readonly files: readonly SecretFile[];
  /** The walk visited everything (within its limits); false when a limit cut it short. */
  readonly complete: boolean;
}

export interface SecretFileOptions extends PathLookupOptions {
  readonly maxEntries?: number;
  /** Milliseconds the walk may take before it stops (the first walk of a large tree). */
  readonly budgetMs?: number;
  /** Bytes of each file's head read for the content rows of particular names (the content test reads whole files). */
  readonly sniffBytes?: number;
}

const SKIPPED_PATHS = /\/\.git\/(?:objects|lfs)$/;
/**
 * Installed dependencies (`node_modules`, `vendor`, virtualenvs' `site-packages`): walked by name at
 * any depth, but only configuration-like files are read for content — their code, docs and
 * manifests are thousands of files that hold the packages' own examples, and hiding a
 * `package.json` or a program there would break the commands that load them. A credential file
 * of the person's placed there (`node_modules/pkg/.env`, `vendor/x/config.php`) is still found.
 */
const DEPENDENCY_DIRECTORY = /\/(?:node_modules|vendor|site-packages|bower_components)\//;
const DEPENDENCY_CODE =
  /\.(?:[cm]?[jt]sx?|d\.[cm]?ts|map|md|mdx|markdown|txt|html?|css|scss|less|c|cc|cpp|h|hpp|o|a|so|node|wasm|py|pyc|pyi|rb|go|rs|java|class|jar|png|jpe?g|gif|svg|ico|woff2?|ttf|eot|lock|LICENSE)$|(?:^|\/)(?:package\.json|LICENSE[^/]*|README[^/]*|CHANGELOG[^/]*|tsconfig[^/]*\.json)$/i;
const DEPENDENCY_MAX_BYTES = 256 * 1024;

interface ClassifiedEntry {
  readonly path: string;
  readonly kind: 'directory' | 'file' | 'other';
  /** What the name rows say, when they name it. */
  readonly named?: string;
  /** A file of an installed dependency that is code, docs or a manifest: not read. */
  readonly dependencyCode: boolean;
  /** A file of an installed dependency (only configuration-sized files are read). */
  readonly dependency: boolean;
}

/** A directory's entries as the name rows read them, cached with its listing. */
function classified(
  directory: string,
  stats: BigIntStats,
  home: string,
  rows: readonly CompiledRow[],
): readonly ClassifiedEntry[] | undefined {
  const listed = listDirectory(directory, stats);
  if (listed === undefined) return undefined;
  // Names do not change while the listing holds, so a steady-state walk matches no row (21,000
  // entries × 230 rows took 1–2 s per call in a checkout with node_modules).
  const memo = `secret-files\0${home}`;
  const cached = listed.derived.get(memo) as readonly ClassifiedEntry[] | undefined;
  if (cached !== undefined) return cached;
  const items: ClassifiedEntry[] = [];
  for (const entry of listed.entries) {
    // Symlinks are not followed: their targets are judged where they lie (the home is private,
    // system secrets are hidden by their anchored rows, workspace targets by this walk).
    if (entry.isSymbolicLink()) continue;
    const path = join(directory, entry.name);
    const isDirectory = entry.isDirectory();
    const named = rows.find(
      (row) => !(row.fileOnly && isDirectory) && (row.name === undefined ? row.test(path) : row.name(entry.name)),
    );
    const dependency = !isDirectory && DEPENDENCY_DIRECTORY.test(path);
    items.push({
      path,
      kind: isDirectory ? 'directory' : entry.isFile() ? 'file' : 'other',
      ...(named === undefined ? {} : { named: named.what }),
      dependencyCode: dependency && DEPENDENCY_CODE.test(path),
      dependency,
    });
  }
  listed.derived.set(memo, items);
  return items;
}

const lstatOf = lstatBig;

export function secretFilesBelow(directory: string, options: SecretFileOptions = {}): SecretFileScan {
  const home = options.home ?? homedir();
  const maxEntries = options.maxEntries ?? 50_000;
  const started = performance.now();
  const deadline = started + (options.budgetMs ?? 2_000);
  const sniffBytes = options.sniffBytes ?? 64 * 1024;
  const rows = compiledRows(home).filter((row) => row.class === 'secret');
  const byName = rows.filter((row) => row.name !== undefined);
  // Rows that name a path in any directory with a `/` in it (`.docker/config.json`).
  const byPath = rows.filter((row) => row.name === undefined && !row.anchored);
  const files: SecretFile[] = [];
  let visited = 0;
  const queue = [realPathOf(directory)];
  const named = [...byName, ...byPath];
  // A queue read by index: `shift()` on a queue of thousands of directories is quadratic.
  for (let next = 0; next < queue.length; next++) {
    const current = queue[next]!;
    const stats = lstatOf(current);
    if (stats === undefined || !stats.isDirectory()) continue;
    const items = classified(current, stats, home, named);
    if (items === undefined) continue;
    // The clock is read once per directory and every 256 entries, not per entry.
    if (performance.now() > deadline) return { files, complete: false };
    for (const item of items) {
      if (++visited > maxEntries || ((visited & 0xff) === 0 && performance.now() > deadline))
        return { files, complete: false };
      const { path } = item;
      if (item.named !== undefined) {
        files.push({ path, kind: item.kind === 'directory' ? 'directory' : 'file', what: item.named });
        continue;
      }
      if (item.kind === 'directory') {
        if (!SKIPPED_PATHS.test(path)) queue.push(path);
        continue;
      }
      if (item.kind !== 'file' || item.dependencyCode) continue;
      const what = contentVerdict(path, sniffBytes, item.dependency);
      if (what !== undefined) files.push({ path, kind: 'file', what });
    }
  }
  completed.set(`${home}\0${queue[0]!}`, { at: performance.now(), entries: visited, ms: performance.now() - started });
  return { files, complete: true };
}

/** The last complete walk of each directory (for one home): when it ended, the entries it visited, its time. */
const completed = new Map<string, { readonly at: number; readonly entries: number; readonly ms: number }>();

/**
 * Whether a walk of `directory` completed in the last `withinMs`, within `maxEntries` and `budgetMs`: the judge's
 * question before a call that would run in the sandbox ("can the sandbox hide every secret file
 * here?"). It is not the boundary: the sandbox walks the workspace again for each call
 * (sandbox-hidden-paths.ts) and runs nothing when that walk cannot finish. Reusing the answer
 * saves the gate a second walk per call (one lstat per entry: 15–25 ms in a checkout with
 * node_modules).
 */
export function walkedRecently(
  directory: string,
  options: PathLookupOptions & {
    readonly maxEntries?: number;
    readonly budgetMs?: number;
    readonly withinMs?: number;
  } = {},
): boolean {
  const last = completed.get(`${options.home ?? homedir()}\0${realPathOf(directory)}`);
  return (
    last !== undefined &&
    performance.now() - last.at <= (options.withinMs ?? 60_000) &&
    last.entries <= (options.maxEntries ?? 50_000) &&
    last.ms <= (options.budgetMs ?? 2_000)
  );
}

/**
 * A file's content verdict: one lstat (its identity in nanoseconds), then `fileFacts`, which reads
 * the file again only when that identity changed or its times had not settled when it was last
 * read (file-identity.ts). A dependency's file over DEPENDENCY_MAX_BYTES is not read (code, not
 * configuration).
 */
function contentVerdict(path: string, sniffBytes: number, dependency: boolean): string | undefined {
  const stats = lstatOf(path);
  if (stats === undefined || !stats.isFile()) return undefined;
  if (dependency && stats.size > BigInt(DEPENDENCY_MAX_BYTES)) return undefined;
  return fileFacts(path, stats, sniffBytes).find((fact) => fact.class === 'secret')?.what;
}
