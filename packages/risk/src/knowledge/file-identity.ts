import type { BigIntStats, Stats } from 'node:fs';

/**
 * When a cached answer about a file or a directory may be reused: the rules every cache of the
 * knowledge base follows (file verdicts, directory listings, tree scans, the sandbox's hidden
 * paths). A cache must never answer "not secret" for a file that has become secret.
 *
 * - The key is the whole identity of the version seen: device, inode, size, modification and
 *   change times to the nanosecond. A write changes the size or the times; a rename over the
 *   path changes the inode; a new name in a directory changes its times. The change time
 *   cannot be set back by anyone (`touch -d` sets mtime, and that moves ctime forward).
 * - Racy timestamps (git's "racily clean" entries): a file's times come from a coarse kernel
 *   clock (a tick of up to 10 ms; 1–2 s on some filesystems), so a write in the same tick as the
 *   read we judged leaves every field of the key as it was — same size, same times. An answer is
 *   therefore reused only when the file's times lie at least `SETTLED_MS` before the moment its
 *   content (or listing) was read; a file changed more recently is read again on every call until
 *   it settles. Why 3 s: more than FAT's 2 s granularity and any kernel tick.
 */
export const SETTLED_MS = 3_000;

export type AnyStats = Stats | BigIntStats;

/** The identity of one version of a file or directory: dev, ino, size, mtime and ctime in nanoseconds. */
export function identityKey(stats: AnyStats): string {
  if (typeof stats.dev === 'bigint') {
    const big = stats as BigIntStats;
    return `${big.dev}:${big.ino}:${big.size}:${big.mtimeNs}:${big.ctimeNs}`;
  }
  const small = stats as Stats;
  // Stats in milliseconds carry the nanoseconds as a fraction (to ~0.25 µs); with the settled
  // rule below a later write can never produce the same times.
  return `${small.dev}:${small.ino}:${small.size}:${small.mtimeMs}:${small.ctimeMs}`;
}

/** Milliseconds since the epoch of the later of the two times. */
function latestChangeMs(stats: AnyStats): number {
  return Math.max(Number(stats.mtimeMs), Number(stats.ctimeMs));
}

/**
 * Whether an answer computed from a read that started at `readAt` (Date.now()) may be reused for
 * a file whose identity is still `stats`: its last change lies `SETTLED_MS` before the read, so
 * any write after the read would carry later times and change the key.
 */
export function settledBefore(stats: AnyStats, readAt: number): boolean {
  return latestChangeMs(stats) < readAt - SETTLED_MS;
}
