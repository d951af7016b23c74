import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { expandPattern, isInside, realPathOf } from '@riskgate/risk';
import type { UndoTarget } from './checkpoint-plan.js';
import { type CheckpointLimits, type TreeItem, type WalkBudget, walkRoot } from './checkpoint-tree.js';

/** One path as a change set keeps it: a file's bytes are in the store under their hash. */
export type KeptItem = Exclude<TreeItem, { type: 'file' }> | (Extract<TreeItem, { type: 'file' }> & { hash: string });

/** What one executed tool call changed, kept so that `/undo` can put it back. */
export interface ChangeSet {
  readonly id: string;
  readonly time: string;
  readonly tool: string;
  readonly title: string;
  readonly toolCallId?: string;
  readonly session?: string;
  /** The paths kept (each with everything below it). */
  readonly roots: readonly string[];
  /** What they held before the call. */
  readonly before: readonly KeptItem[];
  /** What the call left there, one fingerprint per path; null when it was too large to compare. */
  readonly after: readonly string[] | null;
  /** What the call did that is not kept (said in the panel before it ran, or found too large since). */
  readonly cannot: readonly string[];
  /** When it was undone. */
  readonly undone?: string;
  /** What an `/undo` replaced, kept so that the undo can be taken back too (`/undo N` on its line). */
  readonly backup?: true;
}

/** What was kept before a call ran, waiting for its end. */
export interface PendingChangeSet {
  readonly roots: readonly string[];
  readonly before: readonly KeptItem[];
  readonly cannot: readonly string[];
}

export interface ChangeSetMeta {
  readonly tool: string;
  readonly title: string;
  readonly toolCallId?: string;
  readonly session?: string;
  readonly backup?: true;
}

export type UndoResult =
  | { readonly type: 'restored'; readonly changeSet: ChangeSet; readonly backup?: ChangeSet }
  | { readonly type: 'conflict'; readonly changeSet: ChangeSet; readonly paths: readonly string[] }
  | { readonly type: 'refused'; readonly message: string };

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * The change sets of one project, under the state directory (never in the person's repository):
 * `sets/<id>.json` per executed call, `blobs/<sha256>` for the bytes, both private to the person
 * (0700 directories, 0600 files: a kept `.env` is as secret as the original). Nothing here is
 * ever sent to the model.
 */
export class CheckpointStore {
  constructor(
    readonly directory: string,
    private readonly limits: CheckpointLimits,
    private readonly keep: number,
  ) {}

  /** Keeps every target as it is now: just before the call runs. */
  capture(targets: readonly UndoTarget[]): PendingChangeSet {
    // A store that cannot sign its manifest cannot keep anything: found before the call runs.
    this.key(true);
    const roots = distinctRoots(targets);
    const budget: WalkBudget = { bytes: 0, entries: 0 };
    const before: KeptItem[] = [];
    const cannot: string[] = [];
    const kept: string[] = [];
    for (const root of roots) {
      const walk = walkRoot(root, this.limits, budget);
      if (!walk.ok) {
        cannot.push(walk.cannot);
        continue;
      }
      kept.push(root);
      before.push(...walk.items.map((item) => this.keepItem(item)));
    }
    return { roots: kept, before, cannot };
  }

  /** Records the change set once the call ended; none when the call changed nothing kept. */
  commit(pending: PendingChangeSet, meta: ChangeSetMeta): ChangeSet | undefined {
    if (pending.roots.length === 0) return undefined;
    const after = this.fingerprints(pending.roots);
    const before = pending.before.map(fingerprintOf);
    if (after !== null && sameLists(after, before)) return undefined;
    const now = new Date();
    const changeSet: ChangeSet = {
      id: `${now.getTime().toString().padStart(15, '0')}-${randomBytes(4).toString('hex')}`,
      time: now.toISOString(),
      ...meta,
      roots: pending.roots,
      before: pending.before,
      after,
      cannot: pending.cannot,
    };
    this.writeSet(changeSet);
    this.prune();
    return changeSet;
  }

  /** The change sets, newest first. */
  list(): ChangeSet[] {
    return this.listing().sets;
  }

  /**
   * The change sets, newest first, and how many manifests in the folder they leave out: not
   * signed by this store (planted, changed, or kept before manifests were signed) or unreadable.
   */
  listing(): { readonly sets: ChangeSet[]; readonly leftOut: number } {
    let names: string[];
    try {
      names = readdirSync(join(this.directory, 'sets')).filter((name) => name.endsWith('.json'));
    } catch {
      return { sets: [], leftOut: 0 };
    }
    let key: Buffer | undefined;
    try {
      key = this.key(false);
    } catch {
      // A key swapped for a link, made readable by others or cut short: nothing it signed counts.
    }
    const sets: ChangeSet[] = [];
    for (const name of key === undefined ? [] : names.sort().reverse()) {
      try {
        const changeSet = JSON.parse(signedText(readRegular(join(this.directory, 'sets', name), true), key!));
        // Only a manifest this store wrote counts: one planted in the folder (unsigned, a link, a
        // file not 0600, items outside its roots) could make /undo write or delete anywhere.
        if (isChangeSet(changeSet, name)) sets.push(changeSet);
      } catch {
        // A manifest cut short by a crash, or not signed with this store's key: the others still count.
      }
    }
    return { sets, leftOut: names.length - sets.length };
  }

  /**
   * Puts back what change set `position` (1 = the newest) kept, byte for byte and mode for mode,
   * only when every path is still as the call left it; `force` restores anyway, after keeping
   * what it overwrites as a change set of its own.
   */
  undo(which: number | 'last', force: boolean): UndoResult {
    const sets = this.list();
    const position =
      which === 'last' ? sets.findIndex((set) => set.undone === undefined && set.backup !== true) + 1 : which;
    const changeSet = position > 0 ? sets[position - 1] : undefined;
    if (changeSet === undefined)
      return {
        type: 'refused',
        message: which === 'last' ? 'nothing to undo' : `there is no change set number ${which}`,
      };
    if (changeSet.undone !== undefined)
      return { type: 'refused', message: `change set ${position} was already undone (${changeSet.undone})` };
    // Every copy is read and checked against its hash before anything is touched: a copy gone,
    // changed, or swapped for a link (to a key elsewhere) restores nothing.
    const missing = changeSet.before.find((item) => item.type === 'file' && this.blob(item.hash) === undefined);
    if (missing !== undefined)
      return {
        type: 'refused',
        message: `the kept copy of ${missing.path} is missing from ${this.directory} or not what was kept`,
      };
    // Roots were kept with their parents' real paths: a directory on the way swapped for a link
    // since would send the restore elsewhere (outside the workspace), so that is never forced.
    const moved = changeSet.roots.find((root) => realPathOf(dirname(root)) !== dirname(root));
    if (moved !== undefined)
      return { type: 'refused', message: `a directory on the way to ${moved} is now a symbolic link` };
    const conflicts = this.conflicts(changeSet);
    if (conflicts.length > 0 && !force) return { type: 'conflict', changeSet, paths: conflicts };
    // An undo is a write too: what it replaces is kept first, as a change set of its own.
    const replaced = this.capture(changeSet.roots.map((path) => ({ path, pattern: false })));
    for (const root of changeSet.roots) this.restoreRoot(root, changeSet.before);
    const undone: ChangeSet = { ...changeSet, undone: new Date().toISOString() };
    this.writeSet(undone);
    const backup = this.commit(replaced, { tool: 'undo', title: `/undo of ${changeSet.title}`, backup: true });
    return { type: 'restored', changeSet: undone, ...(backup === undefined ? {} : { backup }) };
  }

  /** The paths that no longer hold what the call left there. */
  private conflicts(changeSet: ChangeSet): string[] {
    const now = this.fingerprints(changeSet.roots);
    if (changeSet.after === null || now === null) return [...changeSet.roots];
    const before = new Set(changeSet.after);
    const after = new Set(now);
    const changed = [...now.filter((line) => !before.has(line)), ...changeSet.after.filter((line) => !after.has(line))];
    return [...new Set(changed.map((line) => line.slice(0, line.lastIndexOf('\u0000'))))];
  }

  private fingerprints(roots: readonly string[]): string[] | null {
    const budget: WalkBudget = { bytes: 0, entries: 0 };
    const lines: string[] = [];
    for (const root of roots) {
      const walk = walkRoot(root, this.limits, budget);
      if (!walk.ok) return null;
      lines.push(...walk.items.map((item) => fingerprintOf(item.type === 'file' ? withHash(item) : item)));
    }
    return lines;
  }

  /** A kept copy, only when it is a regular file that still holds the bytes of its hash. */
  private blob(hash: string): Buffer | undefined {
    try {
      const content = readRegular(join(this.directory, 'blobs', hash), true);
      return hashOf(content) === hash ? content : undefined;
    } catch {
      return undefined;
    }
  }

  private keepItem(item: TreeItem): KeptItem {
    if (item.type !== 'file') return item;
    const content = readRegular(item.path);
    const hash = hashOf(content);
    const blob = join(this.blobDirectory(), hash);
    if (!existsSync(blob)) writePrivate(blob, content);
    return { ...item, size: content.length, hash };
  }

  private restoreRoot(root: string, items: readonly KeptItem[]): void {
    const below = items.filter((item) => item.path === root || isInside(item.path, root));
    const first = below[0];
    if (first === undefined) return;
    // A file put back over a file: written beside it and renamed over it, never half there.
    if (first.type === 'file' && below.length === 1 && isFile(root)) {
      this.putFile(first);
      return;
    }
    rmSync(root, { recursive: true, force: true });
    if (first.type === 'missing') return;
    mkdirSync(dirname(root), { recursive: true });
    for (const item of below) {
      if (item.type === 'directory') mkdirSync(item.path, { mode: PRIVATE_DIRECTORY });
      else if (item.type === 'file') this.putFile(item);
      else if (item.type === 'symlink') symlinkSync(item.target, item.path);
    }
    // Directories' own modes last, deepest first: a read-only directory is filled before it closes.
    for (const item of [...below].reverse()) if (item.type === 'directory') chmodSync(item.path, item.mode);
  }

  private putFile(item: Extract<KeptItem, { type: 'file' }>): void {
    const content = this.blob(item.hash);
    if (content === undefined) throw new Error(`the kept copy of ${item.path} is not what was kept`);
    const temporary = join(
      dirname(item.path),
      `.${basename(item.path)}.riskgate-undo-${randomBytes(6).toString('hex')}`,
    );
    writePrivate(temporary, content);
    try {
      chmodSync(temporary, item.mode);
      renameSync(temporary, item.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  private writeSet(changeSet: ChangeSet): void {
    const sets = join(this.directory, 'sets');
    privateDirectory(sets);
    const path = join(sets, `${changeSet.id}.json`);
    const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    const text = JSON.stringify(changeSet);
    writePrivate(temporary, Buffer.from(`${macOf(this.key(true)!, text)}\n${text}`));
    renameSync(temporary, path);
  }

  /**
   * The store's own key (32 random bytes, `key`, 0600): every manifest is written with its
   * HMAC, so a manifest that passes every structural check but was put here by something else
   * (an approved write into the store, another program) restores and deletes nothing. Made on
   * the first write; without it (`create` false) no manifest counts.
   */
  private key(create: boolean): Buffer | undefined {
    const path = join(this.directory, 'key');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const key = readRegular(path, true);
        if (key.length !== KEY_BYTES) throw new Error(`${path} is not a key this store made`);
        return key;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        if (!create) return undefined;
      }
      privateDirectory(this.directory);
      // Written whole beside it, then linked into place: a crash never leaves a short key (which
      // would refuse every later call), and a link never replaces one another session made first.
      const temporary = `${path}.${randomBytes(4).toString('hex')}.part`;
      const descriptor = openSync(temporary, 'wx', PRIVATE_FILE);
      try {
        writeSync(descriptor, randomBytes(KEY_BYTES));
        fsyncSync(descriptor);
      } finally {
        closeSync(descriptor);
      }
      try {
        linkSync(temporary, path);
      } catch (error) {
        // Another session made it first: read theirs.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        unlinkSync(temporary);
      }
    }
    throw new Error(`${path} could not be made`);
  }

  private blobDirectory(): string {
    const blobs = join(this.directory, 'blobs');
    privateDirectory(blobs);
    return blobs;
  }

  /** Keeps the newest `keep` change sets; bytes no kept set names go with the others. */
  private prune(): void {
    const sets = this.list();
    if (sets.length <= this.keep) return;
    for (const old of sets.slice(this.keep)) rmSync(join(this.directory, 'sets', `${old.id}.json`), { force: true });
    const used = new Set(
      sets
        .slice(0, this.keep)
        .flatMap((set) => set.before.flatMap((item) => (item.type === 'file' ? [item.hash] : []))),
    );
    // A copy made in the last hour may belong to a call another session is running now (its
    // change set is not written yet): it stays until a later prune.
    const settled = Date.now() - 60 * 60 * 1000;
    for (const name of readdirSync(this.blobDirectory())) {
      const blob = join(this.blobDirectory(), name);
      if (!used.has(name) && lstatSync(blob).mtimeMs < settled) unlinkSync(blob);
    }
  }
}

/** A project's folder name: a hash of its path, so no project's name is spelled out. */
export function projectKey(cwd: string): string {
  return hashOf(Buffer.from(resolve(cwd))).slice(0, 16);
}

function distinctRoots(targets: readonly UndoTarget[]): string[] {
  const paths = targets
    .flatMap((target) => (target.pattern ? expandPattern(target.path).paths : [target.path]))
    .map((path) => join(realPathOf(dirname(path)), basename(path)));
  const unique = [...new Set(paths)].sort();
  // A path inside another kept root is kept with it.
  return unique.filter((path) => !unique.some((other) => other !== path && isInside(path, other)));
}

function withHash(item: Extract<TreeItem, { type: 'file' }>): KeptItem {
  try {
    return { ...item, hash: hashOf(readRegular(item.path)) };
  } catch {
    return { path: item.path, type: 'missing' };
  }
}

/** One line per path: the path, then what it holds (NUL-separated: a path may hold any other character). */
function fingerprintOf(item: KeptItem): string {
  const what =
    item.type === 'file'
      ? `file ${item.mode.toString(8)} ${item.hash}`
      : item.type === 'directory'
        ? `directory ${item.mode.toString(8)}`
        : item.type === 'symlink'
          ? `symlink ${item.target}`
          : 'missing';
  return `${item.path}\u0000${what}`;
}

function sameLists(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((line, index) => line === right[index]);
}

function hashOf(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

export function privateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY });
  chmodSync(path, PRIVATE_DIRECTORY);
}

/** Written whole and private (0600) from the first byte. */
function writePrivate(path: string, content: Buffer): void {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.part`;
  const descriptor = openSync(temporary, 'wx', PRIVATE_FILE);
  try {
    writeSync(descriptor, content);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path);
}

/**
 * A regular file's bytes, never through a link (O_NOFOLLOW) and never blocking on a pipe swapped
 * in since its lstat (O_NONBLOCK); `own` also asks that it be the person's, 0600, as the store
 * writes its files.
 */
function readRegular(path: string, own = false): Buffer {
  const descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw new Error(`${path} is not a regular file`);
    if (own && ((stats.mode & 0o077) !== 0 || stats.uid !== process.getuid?.()))
      throw new Error(`${path} is not private to this user`);
    return readFileSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const KEY_BYTES = 32;

function macOf(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}

/** A manifest's JSON, only when its first line is the HMAC of the rest under the store's key. */
function signedText(content: Buffer, key: Buffer): string {
  const text = content.toString('utf8');
  const newline = text.indexOf('\n');
  const json = text.slice(newline + 1);
  const mac = Buffer.from(text.slice(0, Math.max(newline, 0)));
  const expected = Buffer.from(macOf(key, json));
  if (newline < 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected))
    throw new Error('a manifest this store did not sign');
  return json;
}

/** A manifest as `writeSet` writes it: named by its id, absolute normalized roots, every item below one. */
function isChangeSet(value: unknown, name: string): value is ChangeSet {
  const set = value as ChangeSet;
  if (typeof set !== 'object' || set === null || `${set.id}.json` !== name || !/^\d{15}-[0-9a-f]{8}$/.test(set.id))
    return false;
  if (!Array.isArray(set.roots) || !Array.isArray(set.before)) return false;
  const roots = set.roots as unknown[];
  if (!roots.every((root) => typeof root === 'string' && isAbsolute(root) && normalize(root) === root && root !== '/'))
    return false;
  return (set.before as unknown[]).every((entry) => {
    const item = entry as KeptItem;
    if (typeof item?.path !== 'string' || normalize(item.path) !== item.path) return false;
    if (!set.roots.some((root) => isInside(item.path, root))) return false;
    if (item.type === 'file') return SHA256.test(item.hash) && Number.isInteger(item.mode);
    if (item.type === 'directory') return Number.isInteger(item.mode);
    if (item.type === 'symlink') return typeof item.target === 'string';
    return item.type === 'missing';
  });
}
