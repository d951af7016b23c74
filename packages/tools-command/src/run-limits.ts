import { formatBytes, type ResourceBounds } from './resource-bounds.js';
import type { CgroupCounts } from './run-cgroup.js';

/** Which bound stopped a sandboxed run, told to the model and shown on the screen. */
export type LimitKind = 'memory' | 'processes' | 'cpu-time' | 'file-size' | 'tmp-full';

export interface LimitHit {
  readonly kind: LimitKind;
  /** The bound in words: "1 GiB", "256 processes". */
  readonly bound: string;
}

/**
 * Output that shows a bound was met where no cgroup counts it (rlimits only): a failed
 * allocation or fork. Scanned chunk by chunk, since the middle of a long output is not kept.
 */
const OUTPUT_SIGNS: readonly (readonly [RegExp, LimitKind])[] = [
  [/No space left on device/, 'tmp-full'],
  [/Cannot allocate memory|memory exhausted|MemoryError|[Oo]ut of memory/, 'memory'],
  [/fork: (retry: )?Resource temporarily unavailable|Cannot fork|fork failed/, 'processes'],
];

/**
 * A word every sign above contains: a chunk holding none of them holds no sign, and is passed
 * over by `indexOf` (memchr-fast) instead of a latin1 copy and three regular expressions per
 * chunk (20 of ~130 ms of `seq 1 5000000`).
 */
const SIGN_KEYS = ['space left', 'emory', 'fork'] as const;
/** Longer than every sign: the bytes of one chunk kept to find a sign split across two. */
const CARRY = 64;

/** Collects the signs seen in the output of one run. Every byte is looked at; only chunks with a key word are decoded. */
export class OutputSigns {
  readonly seen = new Set<LimitKind>();
  private carry = '';

  push(chunk: Buffer): void {
    const keyed = SIGN_KEYS.some((key) => chunk.indexOf(key, 0, 'latin1') !== -1);
    // Across the boundary: the end of the last chunk with the start of this one.
    const text = keyed
      ? this.carry + chunk.toString('latin1')
      : this.carry + chunk.toString('latin1', 0, Math.min(chunk.length, CARRY));
    for (const [pattern, kind] of OUTPUT_SIGNS) if (pattern.test(text)) this.seen.add(kind);
    this.carry =
      chunk.length >= CARRY
        ? chunk.toString('latin1', chunk.length - CARRY)
        : (this.carry + chunk.toString('latin1')).slice(-CARRY);
  }
}

/** SIGXCPU and SIGXFSZ: the kernel's signals for the CPU time and file size rlimits. */
const SIGNAL_LIMITS: Readonly<Record<string, LimitKind>> = { SIGXCPU: 'cpu-time', SIGXFSZ: 'file-size' };

/**
 * The bound that stopped the run, from the real signals: the cgroup's counters (OOM kills,
 * refused forks), the rlimit signals, ENOSPC in the output (the sized /tmp), and — without a
 * cgroup — failed allocations and forks in the output. The first that applies, in this order.
 */
export function detectLimit(options: {
  readonly bounds: ResourceBounds;
  readonly counts?: CgroupCounts;
  readonly signal: string | null;
  readonly signs: OutputSigns;
}): LimitHit | undefined {
  const { bounds, counts, signal, signs } = options;
  const hit = (kind: LimitKind): LimitHit => ({ kind, bound: boundText(kind, bounds) });
  if (counts !== undefined && counts.oomKills > 0) return hit('memory');
  if (counts !== undefined && counts.processesRefused > 0) return hit('processes');
  if (signal !== null && SIGNAL_LIMITS[signal] !== undefined) return hit(SIGNAL_LIMITS[signal]);
  if (signs.seen.has('tmp-full')) return hit('tmp-full');
  if (counts === undefined) {
    if (signs.seen.has('memory')) return hit('memory');
    if (signs.seen.has('processes')) return hit('processes');
  }
  return undefined;
}

function boundText(kind: LimitKind, bounds: ResourceBounds): string {
  switch (kind) {
    case 'memory':
      return formatBytes(bounds.memoryBytes);
    case 'processes':
      return `${bounds.processes} processes`;
    case 'cpu-time':
      return `${bounds.cpuSeconds ?? '?'} s`;
    case 'file-size':
      return formatBytes(bounds.fileBytes);
    case 'tmp-full':
      return formatBytes(bounds.tmpBytes);
    default:
      return kind satisfies never;
  }
}

/** "stopped at the memory limit (1 GiB)" and the like. */
export function limitWords(limit: LimitHit): string {
  switch (limit.kind) {
    case 'memory':
      return `stopped at the memory limit (${limit.bound})`;
    case 'processes':
      return `stopped at the process limit (${limit.bound})`;
    case 'cpu-time':
      return `stopped at the CPU time limit (${limit.bound})`;
    case 'file-size':
      return `stopped at the file size limit (${limit.bound})`;
    case 'tmp-full':
      return `stopped: /tmp full (${limit.bound})`;
    default:
      return limit.kind satisfies never;
  }
}
