import type { Effect } from '@riskgate/risk';
import { producerOf } from './producers.js';
import type { PathExtra } from './table.js';
import type { WalkHost as Walk } from './walk-host.js';
import { UNKNOWN, type WordValue } from './words.js';

/** Path effects for a word: one per text bash could produce; names known only at run time are asked about. */
export function pathEffects(
  walk: Walk,
  kind: 'read' | 'list' | 'write' | 'delete',
  word: WordValue,
  extra: PathExtra = {},
): void {
  if (word.pipe === true && kind !== 'delete') return;
  const verb = { read: 'reads', list: 'lists', write: 'writes', delete: 'deletes' }[kind];
  // `cat $(git ls-files)`: the names lie in the tree the substitution lists.
  const tree =
    word.tree ??
    (word.unknown && word.substitution !== undefined
      ? producerOf(word.substitution, walk.source, walk.scope.cwd)
      : undefined);
  if (tree !== undefined) word = { ...word, tree, glob: false };
  for (const text of word.tree === undefined ? word.texts : [word.tree.path]) {
    if (text === '-' && (kind === 'read' || kind === 'write')) continue;
    if (specialPath(walk, text, word, verb, extra)) continue;
    const { path, listsTree } = listedTree(walk.resolvePath(text), kind, word);
    if (path === undefined) {
      const where = text.includes(UNKNOWN)
        ? `${word.raw}, a name known only at run time`
        : `${word.raw} in a directory known only at run time`;
      walk.emit({ kind: 'unknown', severity: 'high', detail: `${verb} ${where}` });
      continue;
    }
    emitPathEffect(walk, kind, path, word, listsTree, extra);
  }
}

/**
 * Texts that are not a file to judge: `/dev/tcp/HOST/PORT` (a connection) and `..` after a link
 * to another place (asked). True when the text was one of them.
 */
function specialPath(walk: Walk, text: string, word: WordValue, verb: string, extra: PathExtra): boolean {
  const device = /^\/dev\/(tcp|udp)\/([^/]+)\/(\d+)$/.exec(text);
  if (device !== null) {
    walk.emit({
      kind: 'connect',
      host: device[2]!,
      port: Number(device[3]),
      scheme: device[1]!,
      via: extra.via ?? word.raw,
    });
    return true;
  }
  // `..` after a directory that is a link to somewhere else (`/proc/self/cwd/..`, `/dev/fd/..`)
  // goes where that link points — for the command, not for riskgate: a textual resolution
  // would judge another file.
  if (/(?:^|\/)\.\.(?:\/|$)/.test(text) && THROUGH_LINKED_DIRECTORY.test(text)) {
    walk.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${verb} ${word.raw}, a path through a link riskgate cannot follow`,
    });
    return true;
  }
  return false;
}

/**
 * A listing through a glob (`du -sh *`, `ls src/*`) reads names and sizes of what lies below
 * the glob's literal directory: judged as a listing of that tree, secrets in it included.
 * Not for segments starting with `.` (`.*` also matches `..`).
 */
function listedTree(
  resolved: string | undefined,
  kind: 'read' | 'list' | 'write' | 'delete',
  word: WordValue,
): { readonly path: string | undefined; readonly listsTree: boolean } {
  if (
    resolved === undefined ||
    kind !== 'list' ||
    !word.glob ||
    resolved.split('/').some((segment) => segment.startsWith('.') && /[*?[]/.test(segment))
  )
    return { path: resolved, listsTree: false };
  const segments = resolved.split('/');
  const first = segments.findIndex((segment) => /[*?[]/.test(segment));
  return { path: segments.slice(0, first).join('/') || '/', listsTree: true };
}

function emitPathEffect(
  walk: Walk,
  kind: 'read' | 'list' | 'write' | 'delete',
  path: string,
  word: WordValue,
  listsTree: boolean,
  extra: PathExtra,
): void {
  const recursive = extra.recursive === true || word.tree?.recursive === true || listsTree;
  walk.emit({
    kind: `${kind}-path`,
    path,
    ...((word.glob && !listsTree) || (word.tree?.pattern ?? false) ? { pattern: true } : {}),
    ...(recursive ? { recursive: true } : {}),
    ...(extra.skipsHidden === true || word.tree?.skipsHidden === true ? { skipsHidden: true } : {}),
    // A reader of names a lister printed (`find . | xargs cat`, `find -exec cat {} +`) opens each
    // name, following a symbolic link to wherever it leads, whatever the lister did.
    ...(recursive &&
    (extra.followsLinks === true ||
      word.tree?.followsLinks === true ||
      (word.tree !== undefined && kind === 'read' && word.tree.noLinks !== true))
      ? { followsLinks: true }
      : {}),
    ...(extra.severity === undefined ? {} : { severity: extra.severity }),
    ...(extra.note === undefined ? {} : { note: extra.note }),
    ...(extra.via === undefined ? {} : { via: extra.via }),
  } as Effect);
}

/** Directories that are links to another process's or descriptor's place: `/proc/PID/cwd`, `/proc/self/root`, `/dev/fd`. */
const THROUGH_LINKED_DIRECTORY =
  /(?:^|\/)(?:proc\/[^/]+\/(?:cwd|root|fd|map_files|task\/[^/]+\/(?:cwd|root|fd))|dev\/(?:fd|stdin|stdout|stderr))(?:\/|$)/;
