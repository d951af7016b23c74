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
 * Each sign has a key word it contains: a chunk holding none of the keys holds no sign, and is
 * passed over by `indexOf` (memchr-fast) instead of a latin1 copy and the regular expressions
 * (20 of ~130 ms of `seq 1 5000000`). The keys are bytes made once: a string key is converted
 * again on every call (three per chunk, ~4,000 chunks).
 */
const OUTPUT_SIGNS: readonly { readonly pattern: RegExp; readonly kind: LimitKind; readonly key: Buffer }[] = [
  { pattern: /No space left on device/, kind: 'tmp-full', key: Buffer.from('space left', 'latin1') },
  {
    pattern: /Cannot allocate memory|memory exhausted|MemoryError|[Oo]ut of memory/,
    kind: 'memory',
    key: Buffer.from('emory', 'latin1'),
  },
  {
    pattern: /fork: (retry: )?Resource temporarily unavailable|Cannot fork|fork failed/,
    kind: 'processes',
    key: Buffer.from('fork', 'latin1'),
  },
];
/** Longer than every sign: the bytes of one chunk kept to find a sign split across two. */
const CARRY = 64;

/**
 * Collects the signs seen in the output of one run. Every byte is looked at; only chunks with a
 * key word are decoded. `kinds`: the signs `detectLimit` reads for this run — with a cgroup its
 * counters say memory and processes, and only a full /tmp is told by the output.
 */
export class OutputSigns {
  readonly seen = new Set<LimitKind>();
  private carry = '';
  private readonly signs: typeof OUTPUT_SIGNS;

  constructor(kinds: readonly LimitKind[] = ['tmp-full', 'memory', 'processes']) {
    this.signs = OUTPUT_SIGNS.filter((sign) => kinds.includes(sign.kind));
  }

  push(chunk: Buffer): void {
    const keyed = this.signs.some((sign) => chunk.indexOf(sign.key) !== -1);
    // Across the boundary: the end of the last chunk with the start of this one.
    const text = keyed
      ? this.carry + chunk.toString('latin1')
      : this.carry + chunk.toString('latin1', 0, Math.min(chunk.length, CARRY));
    for (const { pattern, kind } of this.signs) if (pattern.test(text)) this.seen.add(kind);
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
