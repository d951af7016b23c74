import { type BigIntStats, type Dirent, lstatSync, readdirSync } from 'node:fs';
import { identityKey, settledBefore } from './file-identity.js';

/**
 * Directory listings shared by the walks of the knowledge base (the sandbox's workspace scan,
 * the judge's tree scans), reused while the directory keeps its identity: a name added, removed
 * or renamed changes the directory's times (file-identity.ts), and a listing read within
 * `SETTLED_MS` of the directory's last change is read again on the next walk. What a walk
 * derives from the names alone (which table rows they match) is kept beside the listing in
 * `derived` and goes with it.
 */
export interface Listing {
  readonly entries: readonly Dirent[];
  /** Results computed from the names, by the walk that computed them (its key: what else they depend on). */
  readonly derived: Map<string, unknown>;
}

interface Entry extends Listing {
  readonly key: string;
  readonly settled: boolean;
}

const listings = new Map<string, Entry>();
/** Bounds the cache: a long session in many trees must not grow it without end. */
const MAX_CACHED = 100_000;

/** Nanosecond times (file-identity.ts); undefined when the path is gone or unreadable. */
export function lstatBig(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The directory's entries (`stats`: its lstat, just taken), from the cache when it still holds. */
export function listDirectory(directory: string, stats: BigIntStats): Listing | undefined {
  const key = identityKey(stats);
  const cached = listings.get(directory);
  if (cached?.settled === true && cached.key === key) return cached;
  const readAt = Date.now();
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    listings.delete(directory);
    return undefined;
  }
  const entry: Entry = { key, settled: settledBefore(stats, readAt), entries, derived: new Map() };
  if (listings.size >= MAX_CACHED) listings.clear();
  listings.set(directory, entry);
  return entry;
}
