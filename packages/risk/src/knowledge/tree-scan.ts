import { type Dirent, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { closedToOthers, entryClosedToOthers } from './closed-files.js';
import { contentHoldsSecret } from './content-secret.js';
import { type Listing, listDirectory, lstatBig } from './directory-cache.js';
import { isPrivateHomePath } from './home-allowlist.js';
import { threadCpuClock } from './thread-cpu.js';
import {
  type CompiledRow,
  compiledRows,
  fileFacts,
  isInside,
  type PathFact,
  type PathLookupOptions,
  pathFacts,
  realPathOf,
  TREE_SNIFF_BYTES,
} from './path-lookup.js';

/** Recursive reads (grep -r, rg, find, du): what they would reach, by a bounded walk. */

export interface TreeScan {
  /** Secrets (or pipes and devices) found below the directory, first few. */
  readonly facts: readonly (PathFact & { readonly path: string })[];
  /** The walk stopped at its limit: what lies beyond was not checked. */
  readonly complete: boolean;
}

export interface TreeScanOptions extends PathLookupOptions {
  /** The reader skips names starting with `.` (rg and fd by default). */
  readonly skipsHidden?: boolean;
  /** Entries visited at most. */
  readonly maxEntries?: number;
  /** Regular files whose content is checked, at most (each read whole once, then cached by `fileVerdict`). */
  readonly maxSniffs?: number;
  /**
   * Milliseconds the walk may take; past it the scan is incomplete (and the read asked), never
   * clean. Default `TREE_SCAN_BUDGET_MS`.
   */
  readonly budgetMs?: number;
  /**
   * The workspace: outside it (and the home), an entry its owner keeps from others is a secret
   * (closed-files.ts). Without it, modes are not looked at.
   */
  readonly workspace?: string;
  /**
   * The reader follows symbolic links it meets below the directory (grep -R, find -L, rg -L,
   * du -L, tree -l): a link is judged by what it leads to — a secret, a file of the private home,
   * a tree outside the directory (scanned in turn, a few links deep).
   */
  readonly followsLinks?: boolean;
  /** Warm the caches in the background when the walk is cut short (default true). */
  readonly warm?: boolean;
  /** Links followed to get here (a bound on link chains and loops). */
  readonly linkDepth?: number;
  /** Shared by the scans of followed links: entries left to visit, and trees already scanned. */
  readonly shared?: { entries: number; readonly scanned: Set<string>; readonly overBudget: () => boolean };
}

/**
 * The judge's CPU time for one recursive read (links it follows included; see `budget`): the gate
 * answers within ~50 ms. A walk of a tree seen before costs one lstat per directory and file
 * (listings, name matches and content verdicts are cached by identity: directory-cache.ts,
 * `fileFacts`): 10–20 ms for a checkout with node_modules. A first walk that reads thousands of
 * files (seconds) does not fit, says `complete: false` (asked), and goes on in the background
 * (`warmTree`) so that a later call finds the tree's files judged.
 */
export const TREE_SCAN_BUDGET_MS = 45;

/**
 * The budget: spent when both the wall clock and this thread's CPU time (`threadCpuClock`) are
 * past it, or the wall clock is past twenty times it (at least 1 s). On a loaded machine a walk
 * descheduled for tens of milliseconds is not a walk too large to finish, nor is one that shares
 * the process with a busy thread (V8 compiling the bash grammar in the background when a session
 * starts, a worker): asking for either reason is a prompt nobody needed (a cached walk of a
 * ten-file tree took over 40 ms of wall clock in the test suite).
 */
export function walkBudget(ms: number): () => boolean {
  // The content test compiles its rules on first use (tens of milliseconds, once per process):
  // not the walk's cost, so paid before the clock starts.
  if (!contentEngineReady) {
    contentHoldsSecret(ENGINE_WARM_TEXT);
    contentEngineReady = true;
  }
  const cpu = threadCpuClock();
  const wallStart = performance.now();
  const wallEnd = wallStart + Math.max(1_000, ms * 20);
  // Past the wall clock's budget the thread's clock is read at most once a millisecond (a file read).
  let nextCpuCheck = 0;
  return () => {
    const now = performance.now();
    if (now > wallEnd) return true;
    if (now - wallStart <= ms || now < nextCpuCheck) return false;
    nextCpuCheck = now + 1;
    return cpu() > ms;
  };
}

let contentEngineReady = false;
/** Text that takes the content test down its lazily compiled paths (key words, assignments, URLs, tables). */
const ENGINE_WARM_TEXT =
  'api_key = "placeholder"\npassword: changeme\nhttps://user:pass@host/\nexport TOKEN=x\n<key>pw</key><string>x</string>\nname,password\n';

/** Links followed in a chain at most; beyond, the scan is incomplete. */
const MAX_LINK_DEPTH = 3;

function literalPrefix(segments: readonly string[]): string {
  const prefix: string[] = [];
  for (const part of segments) {
    if (/[*?[{!(]/.test(part)) break;
    prefix.push(part);
  }
  return `/${prefix.join('/')}`;
}

/**
 * What a recursive read of `directory` would reach: table rows that lie inside it (even where
 * they do not exist yet) and, by a bounded walk, files the table names or whose content is a
 * secret, pipes and devices.
 */
export function scanTree(directory: string, options: TreeScanOptions = {}): TreeScan {
  const home = options.home ?? homedir();
  const maxEntries = options.maxEntries ?? 20_000;
  const root = realPathOf(directory);
  const facts = anchoredRowsInside(root, home, options);
  // The walk tests each entry against rows that could match below the root: rows that name a
  // file anywhere (by its name alone: fast), and the few anchored rows that lie above the root
  // (`/proc/*/environ` when the walk starts in /proc/1). Anchored rows inside the root were
  // reported above without looking.
  const rows = compiledRows(home).filter((row) => row.class !== 'machine');
  const byName = rows.filter((row) => row.name !== undefined);
  const byPath = rows.filter(
    (row) => row.name === undefined && (!row.anchored || isInside(root, literalPrefix(row.segments))),
  );
  // One budget for the whole read, the trees its followed links lead to included.
  const shared = options.shared ?? {
    entries: maxEntries,
    scanned: new Set<string>([root]),
    overBudget: walkBudget(options.budgetMs ?? TREE_SCAN_BUDGET_MS),
  };
  // Modes are looked at only outside the workspace and the home: an lstat per entry of a system tree.
  const realHome = realPathOf(home);
  const modes =
    options.workspace !== undefined &&
    !isInside(root, realPathOf(options.workspace)) &&
    !(realHome !== '/' && isInside(root, realHome));
  if (modes) {
    const closed = closedToOthers(root, { home, workspace: options.workspace! });
    if (closed !== undefined) return { facts: [...facts, { ...closed, path: root }], complete: true };
  }
  const walk: Walk = {
    root,
    home,
    options,
    maxEntries,
    facts,
    byName,
    byPath,
    shared,
    modes,
    queue: [root],
    // Per listing, what the name rows say of each entry (names do not change while it holds).
    memo: `tree-scan\0${home}`,
    visited: 0,
    sniffs: options.maxSniffs ?? maxEntries,
  };
  return walkTree(walk);
}

type FoundFact = PathFact & { path: string };

/** One scan's walk: what it tests entries against, its bounds, and what it has found and has yet to visit. */
interface Walk {
  readonly root: string;
  readonly home: string;
  readonly options: TreeScanOptions;
  readonly maxEntries: number;
  readonly facts: FoundFact[];
  readonly byName: readonly CompiledRow[];
  readonly byPath: readonly CompiledRow[];
  readonly shared: NonNullable<TreeScanOptions['shared']>;
  /** Entries closed to others are secrets (outside the workspace and the home). */
  readonly modes: boolean;
  readonly queue: string[];
  /** The key of `namedRows`' results in a listing. */
  readonly memo: string;
  visited: number;
  /** Regular files whose content may still be checked. */
  sniffs: number;
}

/** Absolute rows inside the tree (`grep -r KEY ~` reaches ~/.aws whether or not we look). */
function anchoredRowsInside(root: string, home: string, options: TreeScanOptions): FoundFact[] {
  const facts: FoundFact[] = [];
  for (const row of compiledRows(home)) {
    if (!row.anchored || row.class === 'machine') continue;
    const path = literalPrefix(row.segments);
    if (
      isInside(path, root) &&
      !(
        options.skipsHidden &&
        relative(root, path)
          .split(sep)
          .some((part) => part.startsWith('.'))
      )
    ) {
      facts.push({ class: row.class, what: row.what, path });
    }
  }
  return facts;
}

/** The bounded walk: every entry counted against the entry bound, the shared link budget and the time budget. */
function walkTree(walk: Walk): TreeScan {
  const { root, options, facts, queue, shared } = walk;
  const overBudget = shared.overBudget;
  for (let next = 0; next < queue.length && facts.length < 20; next++) {
    const dir = queue[next]!;
    const stats = lstatBig(dir);
    if (stats === undefined || !stats.isDirectory()) continue;
    const listed = listDirectory(dir, stats);
    if (listed === undefined) continue;
    const named = namedRows(listed, walk);
    if (overBudget()) return incomplete(root, options, facts);
    for (const [index, entry] of listed.entries.entries()) {
      if (
        ++walk.visited > walk.maxEntries ||
        ((walk.visited & 0x7f) === 0 && overBudget()) ||
        (options.followsLinks === true && --shared.entries < 0)
      )
        return incomplete(root, options, facts);
      if (visitEntry(walk, dir, entry, named[index]!) === 'incomplete') return incomplete(root, options, facts);
    }
  }
  return { facts, complete: true };
}

/** What the name rows say of each entry of a listing, computed once per listing. */
function namedRows(listed: Listing, walk: Walk): readonly (readonly PathFact[])[] {
  const { memo } = walk;
  let named = listed.derived.get(memo) as readonly (readonly PathFact[])[] | undefined;
  if (named === undefined) {
    named = listed.entries.map((entry) => {
      const directory = entry.isDirectory();
      return walk.byName.filter((row) => !(row.fileOnly && directory) && row.name!(entry.name));
    });
    listed.derived.set(memo, named);
  }
  return named;
}

/** One entry of a listing: judged by the table, its mode and its kind; a directory is queued, a file read. */
function visitEntry(walk: Walk, dir: string, entry: Dirent, named: readonly PathFact[]): 'incomplete' | undefined {
  const { root, options, facts } = walk;
  if (options.skipsHidden && entry.name.startsWith('.')) return;
  const path = join(dir, entry.name);
  if (options.followsLinks === true && entry.isSymbolicLink()) {
    const followed = followLink(path, root, { ...options, shared: walk.shared }, walk.home);
    if (followed === 'incomplete') return 'incomplete';
    facts.push(...followed);
    return;
  }
  const directory = entry.isDirectory();
  // Recursive readers do not follow symlinks by default (grep -r, rg, find): judge the link's own name.
  let secretDirectory = false;
  for (const row of named) {
    facts.push({ class: row.class, what: row.what, path });
    secretDirectory ||= directory;
  }
  for (const row of walk.byPath) {
    if (row.fileOnly && directory) continue;
    if (row.test(path)) {
      facts.push({ class: row.class, what: row.what, path });
      secretDirectory ||= directory;
    }
  }
  const closed = walk.modes ? entryClosedToOthers(path) : undefined;
  if (closed !== undefined) {
    facts.push({ ...closed, path });
    return;
  }
  // A directory the table names is reported whole; what lies inside adds nothing.
  if (directory) {
    if (!secretDirectory) walk.queue.push(path);
  } else if (entry.isFIFO() || entry.isCharacterDevice() || entry.isBlockDevice() || entry.isSocket()) {
    facts.push({ ...fileFacts(path)[0]!, path });
  } else if (entry.isFile()) {
    // A file left unread is not a file known to hold no secret: the scan says it stopped short.
    if (walk.sniffs-- <= 0) return 'incomplete';
    // Its identity now (a listing says nothing of content); `fileFacts` reads it again only
    // when that changed or had not settled when it was read (file-identity.ts).
    const now = lstatBig(path);
    if (now === undefined) return;
    // Swapped for something else since the listing: judged by what the path leads to now.
    for (const fact of fileFacts(path, now.isFile() ? now : undefined, TREE_SNIFF_BYTES)) facts.push({ ...fact, path });
  }
}

/** A scan cut short: what it found, `complete: false`, and the rest of the walk warmed in the background. */
function incomplete(root: string, options: TreeScanOptions, facts: (PathFact & { path: string })[]): TreeScan {
  if (options.warm !== false) warmTree(root, options);
  return { facts, complete: false };
}

const warming = new Set<string>();

/**
 * Walks a tree the judge could not finish in its budget, in slices between the event loop's
 * other work, so that its listings and content verdicts are cached for the next call. It decides
 * nothing: a later call walks again and judges what it finds. Stops once a walk completes, or
 * after 20 slices (a tree past the entry bound stays asked).
 */
export function warmTree(root: string, options: TreeScanOptions = {}): void {
  const key = `${options.home ?? ''}\0${root}`;
  if (warming.has(key) || options.linkDepth !== undefined) return;
  warming.add(key);
  let slices = 0;
  const slice = () => {
    const scan = scanTree(root, { ...options, budgetMs: 250, warm: false });
    if (scan.complete || ++slices >= 20) warming.delete(key);
    else setTimeout(slice, 10).unref();
  };
  setTimeout(slice, 0).unref();
}

/** What a followed link below the scanned root leads to (nothing for a link inside the root: walked already). */
function followLink(
  path: string,
  root: string,
  options: TreeScanOptions,
  home: string,
): (PathFact & { path: string })[] | 'incomplete' {
  const target = realPathOf(path);
  if (isInside(target, root)) return [];
  let directory: boolean;
  try {
    directory = statSync(target).isDirectory();
  } catch {
    return []; // a dangling link reads nothing
  }
  const facts: (PathFact & { path: string })[] = [];
  if (options.workspace !== undefined && isPrivateHomePath(target, { home, workspace: options.workspace })) {
    facts.push({
      class: 'secret',
      what: `a symbolic link to ${target}, in your home outside the workspace (private unless allowlisted)`,
      path,
    });
    return facts;
  }
  for (const fact of pathFacts(target, { home }))
    facts.push({ ...fact, what: `${fact.what}, through the symbolic link`, path });
  if (facts.length > 0 || !directory) return facts;
  // A tree already scanned (a link back up, two links to one place) adds nothing.
  if (options.shared!.scanned.has(target)) return facts;
  options.shared!.scanned.add(target);
  const depth = options.linkDepth ?? 0;
  if (depth >= MAX_LINK_DEPTH) return 'incomplete';
  const inner = scanTree(target, { ...options, linkDepth: depth + 1 });
  for (const fact of inner.facts) facts.push({ ...fact, path: fact.path });
  return inner.complete ? facts : 'incomplete';
}
