import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
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

interface DirectoryEntry {
  readonly mtimeMs: number;
  readonly ino: number;
  readonly entries: readonly Dirent[];
  /**
   * Each entry's reading by the name rows, for one home: names do not change while the
   * directory's mtime does not, so a steady-state walk matches no row (21,000 entries × 230 rows
   * took 1–2 s per call in a checkout with node_modules).
   */
  classified?: { readonly home: string; readonly items: readonly ClassifiedEntry[] };
}

interface ClassifiedEntry {
  readonly path: string;
  readonly kind: 'directory' | 'file' | 'other';
  /** What the name rows say, when they name it. */
  readonly named?: string;
  /** A file of an installed dependency that is code, docs or a manifest: not read. */
  readonly dependencyCode: boolean;
}

interface FileVerdict {
  readonly key: string;
  readonly what: string | undefined;
}

const directories = new Map<string, DirectoryEntry>();
const verdicts = new Map<string, FileVerdict>();
/** Bounds the caches: a long session in many workspaces must not grow them without end. */
const MAX_CACHED = 200_000;

function listing(directory: string, stats: Stats): readonly Dirent[] | undefined {
  const cached = directories.get(directory);
  if (cached !== undefined && cached.mtimeMs === stats.mtimeMs && cached.ino === stats.ino) return cached.entries;
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return undefined;
  }
  if (directories.size > MAX_CACHED) directories.clear();
  directories.set(directory, { mtimeMs: stats.mtimeMs, ino: stats.ino, entries });
  return entries;
}

/** A directory's entries as the name rows read them, cached with its listing. */
function classified(
  directory: string,
  stats: Stats,
  home: string,
  rows: readonly CompiledRow[],
): readonly ClassifiedEntry[] | undefined {
  const entries = listing(directory, stats);
  if (entries === undefined) return undefined;
  const cached = directories.get(directory);
  if (cached?.classified?.home === home && cached.entries === entries) return cached.classified.items;
  const items: ClassifiedEntry[] = [];
  for (const entry of entries) {
    // Symlinks are not followed: their targets are judged where they lie (the home is private,
    // system secrets are hidden by their anchored rows, workspace targets by this walk).
    if (entry.isSymbolicLink()) continue;
    const path = join(directory, entry.name);
    const isDirectory = entry.isDirectory();
    const named = rows.find(
      (row) => !(row.fileOnly && isDirectory) && (row.name === undefined ? row.test(path) : row.name(entry.name)),
    );
    items.push({
      path,
      kind: isDirectory ? 'directory' : entry.isFile() ? 'file' : 'other',
      ...(named === undefined ? {} : { named: named.what }),
      dependencyCode: !isDirectory && DEPENDENCY_DIRECTORY.test(path) && DEPENDENCY_CODE.test(path),
    });
  }
  if (cached !== undefined) cached.classified = { home, items };
  return items;
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

export function secretFilesBelow(directory: string, options: SecretFileOptions = {}): SecretFileScan {
  const home = options.home ?? homedir();
  const maxEntries = options.maxEntries ?? 50_000;
  const deadline = performance.now() + (options.budgetMs ?? 2_000);
  const sniffBytes = options.sniffBytes ?? 64 * 1024;
  const rows = compiledRows(home).filter((row) => row.class === 'secret');
  const byName = rows.filter((row) => row.name !== undefined);
  // Rows that name a path in any directory with a `/` in it (`.docker/config.json`).
  const byPath = rows.filter((row) => row.name === undefined && !row.anchored);
  const files: SecretFile[] = [];
  let visited = 0;
  const queue = [realPathOf(directory)];
  while (queue.length > 0) {
    const current = queue.shift()!;
    const stats = lstatOf(current);
    if (stats === undefined || !stats.isDirectory()) continue;
    const items = classified(current, stats, home, [...byName, ...byPath]);
    if (items === undefined) continue;
    for (const item of items) {
      if (++visited > maxEntries || performance.now() > deadline) return { files, complete: false };
      const { path } = item;
      if (item.named !== undefined) {
        files.push({ path, kind: item.kind === 'directory' ? 'directory' : 'file', what: item.named });
        continue;
      }
      if (item.kind === 'directory') {
        if (!SKIPPED_PATHS.test(path)) queue.push(path);
        continue;
      }
      if (item.kind !== 'file') continue;
      if (item.dependencyCode || (DEPENDENCY_DIRECTORY.test(path) && (lstatOf(path)?.size ?? 0) > DEPENDENCY_MAX_BYTES))
        continue;
      const what = contentVerdict(path, sniffBytes);
      if (what !== undefined) files.push({ path, kind: 'file', what });
    }
  }
  return { files, complete: true };
}

/** A file's content verdict, read again only when the file changed. */
function contentVerdict(path: string, sniffBytes: number): string | undefined {
  const stats = lstatOf(path);
  if (stats === undefined || !stats.isFile()) return undefined;
  const key = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  const cached = verdicts.get(path);
  if (cached?.key === key) return cached.what;
  const what = fileFacts(path, stats, sniffBytes).find((fact) => fact.class === 'secret')?.what;
  if (verdicts.size > MAX_CACHED) verdicts.clear();
  verdicts.set(path, { key, what });
  return what;
}
