import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sandboxSizesTmpfs } from './sandbox.js';

/**
 * Bounds on what a sandboxed command may use (issue 18): a fork bomb, a memory hog, a /tmp
 * filler or an endless sort stops at its bound instead of exhausting the machine.
 */
export interface ResourceBounds {
  /** Processes and threads at once. */
  readonly processes: number;
  /** Memory (resident, page cache and tmpfs pages included under a cgroup). */
  readonly memoryBytes: number;
  /** CPU seconds per process (RLIMIT_CPU); the runner sets it from the timeout when absent. */
  readonly cpuSeconds?: number;
  /** Largest file a process may write (RLIMIT_FSIZE). */
  readonly fileBytes: number;
  /** Size of the sandbox's private /tmp (and the other writable tmpfs). */
  readonly tmpBytes: number;
  /**
   * Open files per process (RLIMIT_NOFILE). Open files are kernel memory a cgroup v1 memory
   * bound does not hold: 126 processes holding 19,990 each filled the machine's file table
   * (fs.file-max; measured), and then no program on the machine could open a file.
   */
  readonly openFiles: number;
}

const MiB = 1024 * 1024;

/** Defaults: far above what a read needs (`sort` of a large log, `find /`), far below the machine. */
export const DEFAULT_BOUNDS: ResourceBounds = {
  processes: 256,
  memoryBytes: 1024 * MiB,
  fileBytes: 256 * MiB,
  tmpBytes: 256 * MiB,
  openFiles: 1024,
};

export type BoundMechanism = 'cgroup-v2' | 'cgroup-v1' | 'rlimits';

/** Where runs get their cgroups: one parent directory per controller hierarchy (one for v2). */
export interface CgroupHome {
  readonly mechanism: 'cgroup-v2' | 'cgroup-v1';
  /** v2: the one directory; v1: the pids and the memory directory. */
  readonly pids: string;
  readonly memory: string;
  /** The cgroup.procs files of the cgroups riskgate itself is in, to return to after a spawn. */
  readonly own: readonly string[];
}

const CGROUP_ROOT = '/sys/fs/cgroup';

let home: CgroupHome | null | undefined;
let probing: Promise<CgroupHome | undefined> | undefined;

/**
 * The cgroup parent directories riskgate may create run cgroups in, found once per process:
 * cgroup v2 when our cgroup delegates `memory` and `pids` to its children (a systemd user
 * session does), else v1's `pids` and `memory` hierarchies when we may write them (root in a
 * container). Undefined when neither: the runner falls back to rlimits. Found here and now,
 * blocking, unless `probeCgroupHome` has found it already.
 */
export function cgroupHome(): CgroupHome | undefined {
  if (home === undefined) home = findCgroupHome(tryCreate) ?? null;
  return home ?? undefined;
}

/**
 * The same, found without blocking: a host starts it early (with the sandbox probe), so the
 * first sandboxed call does not wait ~20 ms for a shell to join a probe cgroup (issue 20). It
 * asks the same questions as `cgroupHome`; whichever ends first decides for the process.
 */
export function probeCgroupHome(): Promise<CgroupHome | undefined> {
  if (home !== undefined) return Promise.resolve(home ?? undefined);
  probing ??= findCgroupHomeAsync().then(
    (found) => {
      if (home === undefined) home = found ?? null;
      return home ?? undefined;
    },
    () => cgroupHome(),
  );
  return probing;
}

/** Where to look: our cgroups by controller, from /proc/self/cgroup. */
function ownCgroups(): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return undefined;
  }
}

/** The candidate homes in the order they are tried: v2 (our cgroup, then its parent), then v1. */
function candidates(lines: readonly string[]): CgroupHome[] {
  const found: CgroupHome[] = [];
  const pathOf = (controller: string) =>
    lines.map((line) => line.split(':')).find(([, controllers]) => controllers?.split(',').includes(controller))?.[2];
  const v2Path = lines.find((line) => line.startsWith('0::'))?.slice(3);
  for (const mount of [CGROUP_ROOT, join(CGROUP_ROOT, 'unified')]) {
    if (v2Path === undefined || !existsSync(join(mount, 'cgroup.controllers'))) continue;
    // Our own cgroup when it delegates to children; else its parent (a systemd slice holds no
    // processes of its own, so it may delegate while our scope beside it holds the terminal).
    for (const directory of [join(mount, v2Path), dirname(join(mount, v2Path))])
      found.push({
        mechanism: 'cgroup-v2',
        pids: directory,
        memory: directory,
        own: [join(mount, v2Path, 'cgroup.procs')],
      });
  }
  const pids = pathOf('pids');
  const memory = pathOf('memory');
  if (pids === undefined || memory === undefined) return found;
  // `pids:/` is the hierarchy's root: no trailing slash in what doctor prints.
  const pidsDirectory = join(CGROUP_ROOT, 'pids', pids).replace(/(.)\/$/, '$1');
  const memoryDirectory = join(CGROUP_ROOT, 'memory', memory).replace(/(.)\/$/, '$1');
  const own = [join(pidsDirectory, 'cgroup.procs'), join(memoryDirectory, 'cgroup.procs')];
  found.push({ mechanism: 'cgroup-v1', pids: pidsDirectory, memory: memoryDirectory, own });
  return found;
}

function findCgroupHome(create: (parent: string) => boolean): CgroupHome | undefined {
  const lines = ownCgroups();
  if (lines === undefined) return undefined;
  for (const candidate of candidates(lines)) {
    if (
      candidate.mechanism === 'cgroup-v2'
        ? usable(candidate.pids, ['memory', 'pids']) && create(candidate.pids)
        : create(candidate.pids) && create(candidate.memory)
    )
      return candidate;
  }
  return undefined;
}

async function findCgroupHomeAsync(): Promise<CgroupHome | undefined> {
  const lines = ownCgroups();
  if (lines === undefined) return undefined;
  for (const candidate of candidates(lines)) {
    if (candidate.mechanism === 'cgroup-v2') {
      if (usable(candidate.pids, ['memory', 'pids']) && (await tryCreateAsync(candidate.pids))) return candidate;
    } else if ((await tryCreateAsync(candidate.pids)) && (await tryCreateAsync(candidate.memory))) return candidate;
  }
  return undefined;
}

/** v2: children get the controllers only when the parent lists them in subtree_control. */
function usable(directory: string, controllers: readonly string[]): boolean {
  try {
    const enabled = readFileSync(join(directory, 'cgroup.subtree_control'), 'utf8').trim().split(/\s+/);
    return controllers.every((controller) => enabled.includes(controller));
  } catch {
    return false;
  }
}

/**
 * Whether a cgroup can be made under `parent`, joined the way a run's first process joins it
 * (moving a process needs write access to the common ancestor too), and removed again.
 */
function tryCreate(parent: string): boolean {
  const probe = join(parent, `riskgate-${process.pid}-probe`);
  try {
    mkdirSync(probe);
  } catch {
    return false;
  }
  let joined = false;
  try {
    execFileSync('/bin/sh', ['-c', JOIN, 'riskgate-probe', join(probe, 'cgroup.procs')], {
      stdio: 'ignore',
      timeout: 5_000,
    });
    joined = true;
  } catch {
    // not ours to use
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      rmdirSync(probe);
      break;
    } catch {
      // the probe's shell leaves the cgroup a moment after it is reaped
    }
  }
  return joined;
}

/** The probe's shell joins the cgroup named by its first argument (as the zygote joins a run's). */
const JOIN = 'echo 0 > "$1"';

/** `tryCreate` without blocking: the shell runs while riskgate goes on; its own probe name. */
async function tryCreateAsync(parent: string): Promise<boolean> {
  const probe = join(parent, `riskgate-${process.pid}-early`);
  try {
    await mkdir(probe);
  } catch {
    return false;
  }
  const joined = await new Promise<boolean>((resolve) => {
    execFile('/bin/sh', ['-c', JOIN, 'riskgate-probe', join(probe, 'cgroup.procs')], { timeout: 5_000 }, (error) =>
      resolve(error === null),
    );
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await rmdir(probe);
      break;
    } catch {
      // the probe's shell leaves the cgroup a moment after it is reaped
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  return joined;
}

/** One line for `riskgate doctor`: the mechanism in force and the bounds. */
export function describeBounds(bounds: ResourceBounds = DEFAULT_BOUNDS): string {
  const where = cgroupHome();
  const mechanism: BoundMechanism = where?.mechanism ?? 'rlimits';
  const tmp = sandboxSizesTmpfs()
    ? `${formatBytes(bounds.tmpBytes)} /tmp`
    : `/tmp unsized (bubblewrap before 0.8 has no --size; ${where === undefined ? 'only each file is bounded' : 'its pages count against the memory bound'})`;
  const limits = `${bounds.processes} processes, ${formatBytes(bounds.memoryBytes)} memory, CPU time = the timeout, ${formatBytes(bounds.fileBytes)} per file, ${tmp}`;
  const root = process.getuid?.() === 0;
  const how =
    mechanism === 'rlimits'
      ? `rlimits (no writable cgroup here; memory is bounded per process; ${root ? 'riskgate runs as root, for whom the kernel does not enforce the process bound: a fork bomb is held only by the timeout' : "the process bound counts the sandbox's own processes"})`
      : `${mechanism === 'cgroup-v2' ? 'cgroup v2' : 'cgroup v1 (pids, memory)'} at ${where!.pids}`;
  return `bounds: ${how}: ${limits}`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MiB && bytes % (1024 * MiB) === 0) return `${bytes / (1024 * MiB)} GiB`;
  if (bytes >= MiB) return `${Math.round(bytes / MiB)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}
