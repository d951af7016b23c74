import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * What one path held, as `/undo` puts it back: nothing, a file (its bytes by hash, its mode), a
 * symbolic link (its target text: the link itself, never what it points to) or a directory.
 */
export type TreeItem =
  | { readonly path: string; readonly type: 'missing' }
  | { readonly path: string; readonly type: 'file'; readonly mode: number; readonly size: number }
  | { readonly path: string; readonly type: 'symlink'; readonly target: string }
  | { readonly path: string; readonly type: 'directory'; readonly mode: number };

export interface CheckpointLimits {
  /** A file larger than this is not kept: the path cannot be undone ("too large"). */
  readonly maxFileBytes: number;
  /** All files of one change set together. */
  readonly maxTotalBytes: number;
  /** Paths of one change set (a deleted tree counts each entry). */
  readonly maxEntries: number;
}

export const DEFAULT_CHECKPOINT_LIMITS: CheckpointLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  maxEntries: 5_000,
};

/** What a walk has used of a change set's limits so far (shared by the roots of one call). */
export interface WalkBudget {
  bytes: number;
  entries: number;
}

export type WalkResult =
  | { readonly ok: true; readonly items: readonly TreeItem[] }
  | { readonly ok: false; readonly cannot: string };

/**
 * Everything at `root` and below it, parents first, without following a symbolic link (a link
 * is kept as a link, so nothing outside is read through it). Refuses — with the words the panel
 * shows — what it cannot keep: a file over the size limit, too much in all, a device or a pipe.
 */
export function walkRoot(root: string, limits: CheckpointLimits, budget: WalkBudget): WalkResult {
  const items: TreeItem[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const path = pending.shift()!;
    let stats: Stats;
    try {
      stats = lstatSync(path);
    } catch {
      items.push({ path, type: 'missing' });
      continue;
    }
    budget.entries += 1;
    if (budget.entries > limits.maxEntries)
      return { ok: false, cannot: `${root}: more than ${limits.maxEntries.toLocaleString('en-US')} paths` };
    const item = itemOf(path, stats);
    if (typeof item === 'string') return { ok: false, cannot: `${path}: ${item}` };
    if (item.type === 'file') {
      if (item.size > limits.maxFileBytes)
        return {
          ok: false,
          cannot: `${path} is too large (${megabytes(item.size)}; the limit is ${megabytes(limits.maxFileBytes)})`,
        };
      budget.bytes += item.size;
      if (budget.bytes > limits.maxTotalBytes)
        return { ok: false, cannot: `${root} is too large (over ${megabytes(limits.maxTotalBytes)} in all)` };
    }
    items.push(item);
    if (item.type !== 'directory') continue;
    const children = childrenOf(path);
    if (children === undefined) return { ok: false, cannot: `${path}: its entries cannot be read` };
    pending.unshift(...children);
  }
  return { ok: true, items };
}

function itemOf(path: string, stats: Stats): TreeItem | string {
  if (stats.isSymbolicLink()) return { path, type: 'symlink', target: readlinkSync(path) };
  if (stats.isFile()) return { path, type: 'file', mode: stats.mode & 0o7777, size: stats.size };
  if (stats.isDirectory()) return { path, type: 'directory', mode: stats.mode & 0o7777 };
  return 'not a file, directory or link (a device, pipe or socket is not kept)';
}

function childrenOf(path: string): string[] | undefined {
  try {
    return readdirSync(path)
      .sort()
      .map((name) => join(path, name));
  } catch {
    return undefined;
  }
}

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
