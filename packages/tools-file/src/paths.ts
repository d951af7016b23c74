import { existsSync, lstatSync } from 'node:fs';
import { expandHome, isInside, realPathOf } from '@riskgate/risk';
import { homedir } from 'node:os';
import { relative, resolve } from 'node:path';

export interface ResolvedPath {
  /** As the model wrote it. */
  readonly requested: string;
  /** `~` expanded, made absolute against the workspace, `.` and `..` removed — no symlinks followed. */
  readonly lexical: string;
  /** Every symlink followed (for a path that does not exist yet: its nearest existing parent's). */
  readonly real: string;
  readonly exists: boolean;
  /** The path itself is a symlink. */
  readonly isSymlink: boolean;
  /** Inside the workspace, judged on the real path. */
  readonly insideWorkspace: boolean;
  /** Inside the workspace as written, but its real path leaves it through a symlink. */
  readonly escapesThroughSymlink: boolean;
  /** How rules and the panel name it: relative to the workspace inside it, absolute outside. */
  readonly display: string;
}

/** Resolve a path the model gave, symlinks included, before anything is decided about it. */
export function resolvePath(requested: string, workspace: string, home = homedir()): ResolvedPath {
  const workspaceReal = realPathOf(resolve(workspace));
  const lexical = resolve(workspace, expandHome(requested, home));
  const real = realPathOf(lexical);
  let isSymlink = false;
  try {
    isSymlink = lstatSync(lexical).isSymbolicLink();
  } catch {
    isSymlink = false;
  }
  const insideWorkspace = isInside(real, workspaceReal);
  const lexicallyInside = isInside(lexical, resolve(workspace)) || isInside(lexical, workspaceReal);
  return {
    requested,
    lexical,
    real,
    exists: existsSync(real),
    isSymlink,
    insideWorkspace,
    escapesThroughSymlink: lexicallyInside && !insideWorkspace,
    display: insideWorkspace ? relative(workspaceReal, real) || '.' : real,
  };
}
