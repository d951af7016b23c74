import { relative } from 'node:path';
import {
  type AuditLog,
  type ChangeSet,
  type Checkpoints,
  type KeptItem,
  undoAuditEntry,
  undoNote,
} from '@riskgate/core';

/** What `/undo` (and `riskgate undo`) may touch. */
export interface UndoContext {
  readonly checkpoints: Checkpoints;
  readonly audit: AuditLog;
  /** The session the audit line names. */
  readonly sessionId?: string;
  /** Tells the model (in a session; `riskgate undo` has no conversation to tell). */
  readonly addNote?: (text: string) => void;
  readonly notice: (text: string, tone?: 'info' | 'error') => void;
}

/**
 * `/undo` puts back the newest change set not undone yet, `/undo N` the N-th of `/undo list`,
 * `/undo N --force` even over what changed since (what it overwrites is kept as a change set of
 * its own). An undo is audited and told to the model (paths only, never content).
 */
export async function undoCommand(words: readonly string[], context: UndoContext): Promise<void> {
  const { checkpoints, notice } = context;
  try {
    if (words[0] === 'list') {
      const { sets, leftOut } = await checkpoints.listing();
      notice(listText(sets, leftOut));
      return;
    }
    const force = words.includes('--force');
    const rest = words.filter((word) => word !== '--force');
    const which = rest[0] === undefined ? 'last' : Number(rest[0]);
    if (which !== 'last' && (!Number.isInteger(which) || which < 1 || rest.length > 1)) {
      notice('/undo takes a change set number from /undo list (and --force), or list', 'error');
      return;
    }
    const result = await checkpoints.undo(which, force);
    if (result.type === 'refused') {
      notice(`not undone: ${result.message}`, 'error');
      return;
    }
    if (result.type === 'conflict') {
      const number = (await positionOf(checkpoints, result.changeSet)) ?? which;
      notice(
        `not undone: ${result.paths.map(shown).join(', ')} changed since ${result.changeSet.tool} "${result.changeSet.title}" ran, and /undo would overwrite that.\n/undo ${number} --force puts them back anyway (what is there now is kept first: /undo list shows it).`,
        'error',
      );
      return;
    }
    context.audit.record(undoAuditEntry(result, context.sessionId));
    context.addNote?.(undoNote(result.changeSet));
    const { changeSet } = result;
    notice(
      [
        `undone: ${changeSet.tool} ${changeSet.title}`,
        ...changeSet.roots.map((root) => `  ${restoreText(root, changeSet.before)}`),
        ...changeSet.cannot.map((reason) => `  not restored (cannot be undone): ${reason}`),
      ].join('\n'),
    );
  } catch (error) {
    notice(`/undo failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }
}

async function positionOf(checkpoints: Checkpoints, changeSet: ChangeSet): Promise<number | undefined> {
  const index = (await checkpoints.list()).findIndex((set) => set.id === changeSet.id);
  return index === -1 ? undefined : index + 1;
}

function listText(sets: readonly ChangeSet[], leftOut: number): string {
  // Said, not hidden: a manifest riskgate did not sign (changed or put there by something else, or
  // kept before manifests were signed) is never restored.
  const ignored =
    leftOut === 0
      ? []
      : [
          `${leftOut} kept ${leftOut === 1 ? 'change was' : 'changes were'} left out: not signed by this store (changed or put there by something else, or kept by an older riskgate); /undo never restores ${leftOut === 1 ? 'it' : 'them'}`,
        ];
  if (sets.length === 0) return ['nothing to undo: no kept change in this project yet', ...ignored].join('\n');
  return [
    'kept changes, newest first (/undo N restores one; /undo alone the newest not undone):',
    ...sets.map((set, index) => {
      const state = set.undone !== undefined ? ` (undone ${clock(set.undone)})` : '';
      const what = set.backup === true ? 'what an /undo replaced' : `${set.tool} ${set.title}`;
      return [
        `${index + 1}. ${clock(set.time)} ${what}${state}`,
        ...set.roots.map((root) => `     ${restoreText(root, set.before)}`),
        ...set.cannot.map((reason) => `     cannot be undone: ${reason}`),
      ].join('\n');
    }),
    ...ignored,
  ].join('\n');
}

/** What putting a root back does, in words: "puts back notes.txt", "removes new.txt (it did not exist)". */
function restoreText(root: string, before: readonly KeptItem[]): string {
  const first = before.find((item) => item.path === root);
  const inside = before.filter((item) => item.path.startsWith(`${root}/`)).length;
  switch (first?.type) {
    case 'missing':
    case undefined:
      return `removes ${shown(root)} (it did not exist)`;
    case 'directory':
      return `puts back ${shown(root)}/ (${inside} entries below it)`;
    case 'symlink':
      return `puts back the link ${shown(root)} → ${first.target}`;
    case 'file':
      return `puts back ${shown(root)} (${first.size.toLocaleString('en-US')} bytes, mode ${first.mode.toString(8)})`;
  }
}

function shown(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside !== '' && !inside.startsWith('..') ? inside : path;
}

/** The time of day (UTC), as /audit shows it. */
function clock(time: string): string {
  return time.slice(11, 19);
}
