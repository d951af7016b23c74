import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { displayPath, expandPattern, hasGlob, isInside, type JudgedEffect, realPathOf } from '@riskgate/risk';
import { type CheckpointLimits, DEFAULT_CHECKPOINT_LIMITS, type WalkBudget, walkRoot } from './checkpoint-tree.js';

/** A path a call will write or delete, to keep before it runs; a pattern is expanded then. */
export interface UndoTarget {
  readonly path: string;
  readonly pattern: boolean;
}

/**
 * What `/undo` could restore of a call, worked out from its effects before it runs: the paths it
 * keeps, and — in the words the panel shows — what it cannot take back.
 */
export interface UndoPlan {
  readonly targets: readonly UndoTarget[];
  /** Each "cannot be undone" reason: an unknown program, a request, a database write, a file too large. */
  readonly cannot: readonly string[];
  /** The targets as the panel names them (relative in the workspace, `~/…` in the home). */
  readonly shown: readonly string[];
}

export interface UndoPlanContext {
  readonly cwd: string;
  readonly home?: string;
  readonly limits?: CheckpointLimits;
}

/**
 * The undo plan of a call's effects; undefined when it changes nothing (reads only). Only known
 * writes, deletes and moves of listed paths are covered: whatever else a call does (a program
 * riskgate does not read, a request, a database write, a process) is named as what cannot be
 * undone, so the person never approves a call believing it can be taken back when it cannot.
 */
export function planUndo(effects: readonly JudgedEffect[], context: UndoPlanContext): UndoPlan | undefined {
  const lasting = effects.filter((entry) => entry.verdict === 'side-effect' || entry.verdict === 'unknown');
  if (lasting.length === 0) return undefined;
  const targets: UndoTarget[] = [];
  const cannot: string[] = [];
  for (const { effect, text } of lasting) {
    if (effect.kind !== 'write-path' && effect.kind !== 'delete-path') {
      cannot.push(cannotText(effect.kind, text));
      continue;
    }
    const pattern = effect.pattern === true || hasGlob(effect.path);
    const root = pattern ? { path: effect.path } : rootOf(effect.path, effect.kind, context.cwd);
    if ('cannot' in root) cannot.push(root.cannot);
    else if (!targets.some((target) => target.path === root.path)) targets.push({ path: root.path, pattern });
  }
  const kept = withinLimits(targets, context.limits ?? DEFAULT_CHECKPOINT_LIMITS, cannot);
  const where = { cwd: context.cwd, ...(context.home === undefined ? {} : { home: context.home }) };
  return {
    targets: kept,
    cannot: [...new Set(cannot)],
    shown: kept.map((target) => displayPath(target.path, where)),
  };
}

function cannotText(kind: JudgedEffect['effect']['kind'], text: string): string {
  switch (kind) {
    case 'write-db':
      return `${text} (a database write is not kept)`;
    case 'run-program':
    case 'unknown':
      return `${text} (what it changes is not known)`;
    default:
      return text;
  }
}

/**
 * The path to keep for one write or delete. A write goes through symbolic links (bash's `>` and
 * file_operations both write the file a link leads to), so the file kept is the link's target —
 * unless that leaves the workspace: a link is never followed outside it. A delete removes the
 * entry itself (a link stays a link). A write to a path that does not exist yet keeps its highest
 * missing parent, so undoing it also removes the directories it created.
 */
function rootOf(path: string, kind: 'write-path' | 'delete-path', cwd: string): { path: string } | { cannot: string } {
  const parent = realPathOf(dirname(path));
  if (kind === 'delete-path') return { path: join(parent, basename(path)) };
  const real = realPathOf(path);
  if (isLink(path) && !isInside(real, realPathOf(cwd)))
    return { cannot: `${path} is a symbolic link to ${real}, outside the workspace (not followed to keep it)` };
  let root = real;
  while (!exists(root) && !exists(dirname(root)) && dirname(root) !== root) root = dirname(root);
  return { path: root };
}

/** The targets whose content fits the limits now; the others become "too large" reasons. */
function withinLimits(targets: readonly UndoTarget[], limits: CheckpointLimits, cannot: string[]): UndoTarget[] {
  const budget: WalkBudget = { bytes: 0, entries: 0 };
  const kept: UndoTarget[] = [];
  for (const target of targets) {
    const roots = target.pattern
      ? expandPattern(target.path, limits.maxEntries)
      : { paths: [target.path], complete: true };
    if (!roots.complete) {
      cannot.push(`${target.path} matches more than ${limits.maxEntries.toLocaleString('en-US')} paths`);
      continue;
    }
    const refused = roots.paths.map((root) => walkRoot(root, limits, budget)).find((walk) => !walk.ok);
    if (refused !== undefined && !refused.ok) cannot.push(refused.cannot);
    else kept.push(target);
  }
  return kept;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
