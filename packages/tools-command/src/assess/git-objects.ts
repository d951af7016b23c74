import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { contentHoldsSecret } from '@riskgate/risk';

/**
 * Secrets in a repository's object store, by content (issue 17, red-team finding F1). A
 * settings file committed with real values and cleaned in the next commit is clean on disk, so
 * the workspace scan passes it and the sandbox cannot hide it (git reads its blob from
 * .git/objects); `git show HEAD~2:settings.yml | rev` then handed every token over in a form no
 * output guard reads. So every blob the object store holds — reachable from a branch, a tag, the
 * stash, the index, the reflog, or from nothing at all (`git cat-file -p <hash>` prints dangling
 * ones) — is read with the secret engine before a command that prints history content runs
 * unasked.
 *
 * A blob's id is the hash of its content, so a verdict never goes stale: verdicts are kept by id
 * for the process's life, and a later call only reads blobs it has not seen. The object list is
 * kept per object-store state. Bounded: blobs larger than MAX_BLOB_BYTES and a first look over
 * the time budget leave the answer 'unchecked' (the read is asked); the next call goes on from
 * where this one stopped.
 */

/** A text blob larger than this is not read (the history read is asked). */
const MAX_BLOB_BYTES = 8 * 1024 * 1024;
/** Time one assessment may spend reading blobs; the rest waits for the next call. */
const BUDGET_MS = 3_000;
/** Blobs and bytes read per `git cat-file --batch` process. */
const BATCH = 500;
const BATCH_BYTES = 64 * 1024 * 1024;

const verdicts = new Map<string, string | null>();
const MAX_VERDICTS = 500_000;
const objectLists = new Map<string, { readonly key: string; readonly blobs: readonly Blob[] }>();

interface Blob {
  readonly id: string;
  readonly size: number;
}

/** git with the settings that could run programs switched off, as riskgate's own look. */
function git(gitDirectory: string, args: readonly string[], input?: string): Buffer {
  return execFileSync(
    'git',
    ['-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '--no-pager', `--git-dir=${gitDirectory}`, ...args],
    {
      timeout: BUDGET_MS,
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'ignore'],
      ...(input === undefined ? {} : { input }),
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
    },
  );
}

function mtime(path: string): string {
  try {
    return String(statSync(path).mtimeMs);
  } catch {
    return '-';
  }
}

/** Every blob in the object store (packed, loose, reachable or not), with its size. */
function blobsOf(gitDirectory: string): readonly Blob[] | undefined {
  const objects = join(gitDirectory, 'objects');
  // New objects change the loose directories' or the pack directory's times; refs do not matter.
  const key = [
    mtime(objects),
    mtime(join(objects, 'pack')),
    mtime(join(gitDirectory, 'index')),
    ...Array.from({ length: 256 }, (_, index) => mtime(join(objects, index.toString(16).padStart(2, '0')))),
  ].join(':');
  const cached = objectLists.get(gitDirectory);
  if (cached?.key === key) return cached.blobs;
  let listing: string;
  try {
    listing = git(gitDirectory, [
      'cat-file',
      '--batch-all-objects',
      '--batch-check=%(objectname) %(objecttype) %(objectsize)',
      '--unordered',
    ]).toString('latin1');
  } catch {
    return undefined;
  }
  const blobs: Blob[] = [];
  for (const line of listing.split('\n')) {
    const [id, type, size] = line.split(' ');
    if (type === 'blob' && id !== undefined) blobs.push({ id, size: Number(size) });
  }
  objectLists.set(gitDirectory, { key, blobs });
  return blobs;
}

/** Reads blobs through one `git cat-file --batch` and records each verdict. */
function judgeBlobs(gitDirectory: string, blobs: readonly Blob[]): boolean {
  const result = spawnSync('git', ['-c', 'core.fsmonitor=false', `--git-dir=${gitDirectory}`, 'cat-file', '--batch'], {
    input: `${blobs.map((blob) => blob.id).join('\n')}\n`,
    maxBuffer: blobs.reduce((sum, blob) => sum + blob.size + 128, 0) + 1024,
    timeout: BUDGET_MS,
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
  });
  if (result.status !== 0 || !Buffer.isBuffer(result.stdout)) return false;
  const output = result.stdout;
  let at = 0;
  while (at < output.length) {
    const header = output.indexOf(0x0a, at);
    if (header < 0) return false;
    const [id, type, size] = output.subarray(at, header).toString('latin1').split(' ');
    if (id === undefined || type === undefined || size === undefined) return false;
    const start = header + 1;
    const end = start + Number(size);
    if (type === 'blob') {
      const content = output.subarray(start, end);
      // Binary blobs are judged by their names (git prints "Binary files differ" in a patch).
      const binary = content.subarray(0, 8_000).includes(0);
      const found = binary ? undefined : contentHoldsSecret(content.toString('utf8'));
      if (verdicts.size > MAX_VERDICTS) verdicts.clear();
      verdicts.set(id, found ?? null);
    }
    at = end + 1;
  }
  return true;
}

/**
 * What the first blob of the store that holds a secret holds, in words; undefined when none
 * does; 'unchecked' when the store could not be read in full within the budget.
 */
export function secretInObjects(gitDirectory: string): string | undefined | 'unchecked' {
  const blobs = blobsOf(gitDirectory);
  if (blobs === undefined) return 'unchecked';
  for (const blob of blobs) {
    const verdict = verdicts.get(blob.id);
    if (verdict !== undefined && verdict !== null) return verdict;
  }
  const unseen = blobs.filter((blob) => !verdicts.has(blob.id));
  if (unseen.some((blob) => blob.size > MAX_BLOB_BYTES)) return 'unchecked';
  return judgeAll(gitDirectory, unseen);
}

/** The same for the blobs the index holds (what `git diff` without a revision prints as the old side). */
export function secretInIndex(gitDirectory: string, cwd: string): string | undefined | 'unchecked' {
  let listing: string;
  try {
    listing = execFileSync('git', ['-c', 'core.fsmonitor=false', `--git-dir=${gitDirectory}`, 'ls-files', '-s', '-z'], {
      cwd,
      timeout: BUDGET_MS,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
    }).toString('latin1');
  } catch {
    return 'unchecked';
  }
  // "<mode> <id> <stage>\t<path>"
  const ids = [
    ...new Set(
      listing
        .split('\0')
        .map((entry) => entry.split(' ')[1])
        .filter((id): id is string => id !== undefined && /^[0-9a-f]{40,64}$/.test(id)),
    ),
  ];
  for (const id of ids) {
    const verdict = verdicts.get(id);
    if (verdict !== undefined && verdict !== null) return verdict;
  }
  const unseen = ids.filter((id) => !verdicts.has(id));
  if (unseen.length === 0) return undefined;
  let sizes: string;
  try {
    sizes = git(
      gitDirectory,
      ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'],
      `${unseen.join('\n')}\n`,
    ).toString('latin1');
  } catch {
    return 'unchecked';
  }
  const blobs = sizes
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([, type]) => type === 'blob')
    .map(([id, , size]) => ({ id: id!, size: Number(size) }));
  if (blobs.some((blob) => blob.size > MAX_BLOB_BYTES)) return 'unchecked';
  return judgeAll(gitDirectory, blobs);
}

/** Reads the blobs in batches (by count and bytes) until one holds a secret or the budget ends. */
function judgeAll(gitDirectory: string, blobs: readonly Blob[]): string | undefined | 'unchecked' {
  const deadline = performance.now() + BUDGET_MS;
  let batch: Blob[] = [];
  let bytes = 0;
  const flush = (): string | undefined | 'unchecked' => {
    if (batch.length === 0) return undefined;
    if (performance.now() > deadline || !judgeBlobs(gitDirectory, batch)) return 'unchecked';
    for (const blob of batch) {
      const verdict = verdicts.get(blob.id);
      if (verdict !== undefined && verdict !== null) return verdict;
    }
    batch = [];
    bytes = 0;
    return undefined;
  };
  for (const blob of blobs) {
    batch.push(blob);
    bytes += blob.size;
    if (batch.length >= BATCH || bytes >= BATCH_BYTES) {
      const found = flush();
      if (found !== undefined) return found;
    }
  }
  return flush();
}
