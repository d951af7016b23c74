import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CgroupHome, cgroupHome, probeCgroupHome, type ResourceBounds } from './resource-bounds.js';
import { prepareAfterRun, prepareZygote, zygoteWaiting } from './zygote.js';

/**
 * One cgroup per run (resource-bounds.ts finds where they may be made): it holds the bounds of
 * a sandboxed run and the whole process tree of any run, so that processes that left the
 * session are still found, counted and ended.
 */

/** Our cgroups are named `riskgate-<pid>-<n>`: the pid tells a later riskgate whether they are stale. */
const NAME = /^riskgate-(\d+)-\w+$/;

let counter = 0;

let swept = false;

/** What the kernel counted for one run. */
export interface CgroupCounts {
  /** Forks refused at the process bound. */
  readonly processesRefused: number;
  /** Processes the OOM killer ended at the memory bound. */
  readonly oomKills: number;
  readonly peakProcesses?: number;
  readonly peakMemoryBytes?: number;
}

/**
 * One run's cgroup(s). `procsFiles` are joined by the runner's wrapper shell before it starts
 * the command (`echo 0 > cgroup.procs`), so nothing the command forks is ever outside.
 */
export class RunCgroup {
  private constructor(
    readonly home: CgroupHome,
    readonly directories: readonly string[],
  ) {}

  /** A fresh cgroup with the bounds written, or undefined where none can be made. */
  static create(
    bounds: ResourceBounds | undefined,
    where: CgroupHome | undefined = cgroupHome(),
  ): RunCgroup | undefined {
    if (where === undefined) return undefined;
    sweepOnce(where);
    const directories = takeSpare(where) ?? makeDirectories(where);
    if (directories === undefined) return undefined;
    try {
      if (bounds !== undefined) writeBounds(where, directories, bounds);
      return new RunCgroup(where, directories);
    } catch {
      for (const directory of [...directories].reverse()) removeQuietly(directory);
      return undefined;
    }
  }

  /** The cgroup a zygote waits in (zygote.ts), with the bounds written; undefined when they cannot be. */
  static adopt(where: CgroupHome, directories: readonly string[], bounds: ResourceBounds): RunCgroup | undefined {
    try {
      writeBounds(where, directories, bounds);
      return new RunCgroup(where, directories);
    } catch {
      return undefined;
    }
  }

  /**
   * Removes the cgroup once its processes are gone, off the caller's path, then makes the next
   * run's cgroup: mkdir and rmdir of a memory cgroup cost milliseconds of kernel time that
   * would otherwise add to every call (bench/sandbox-bounds.bench.ts).
   *
   * Not at once but a moment later (zygote.ts `prepareAfterRun`), on a timer that does not hold riskgate: the
   * call's result goes to the model first, and this work overlaps the model's next reply instead
   * of delaying the request (forking the next zygote and removing a memory cgroup took ~20 ms
   * there, issue 20). A riskgate that ends meanwhile (a headless run answered at once) prepares
   * nothing it will not use, and leaves the run's empty cgroup to the next riskgate's sweep
   * (sweepStale), as it leaves a waiting zygote's: the run's processes were ended already.
   */
  removeLater(nextSandboxed = false): void {
    prepareAfterRun(() => {
      prepareSpare(this.home);
      if (nextSandboxed && !zygoteWaiting()) {
        const directories = makeDirectories(this.home);
        if (directories !== undefined && !prepareZygote(this.home, directories))
          for (const directory of directories) removeQuietly(directory);
      }
      this.remove().catch(() => {});
    });
  }

  /**
   * Runs `spawn` with riskgate itself inside this cgroup, and moves riskgate back at once: the
   * child is forked inside, so nothing it ever starts is outside (no race with its first fork),
   * and no wrapper shell is needed (its exec cost milliseconds per call). The spawn is
   * synchronous, so nothing else of riskgate's runs in between; the charges riskgate made
   * before stay where they were (cgroups do not move them).
   */
  spawnInside<T>(spawn: () => T): T {
    const pid = String(process.pid);
    try {
      for (const file of this.procsFiles) writeFileSync(file, pid);
      return spawn();
    } finally {
      for (const file of this.home.own) {
        try {
          writeFileSync(file, pid);
        } catch {
          // our old cgroup is gone; staying in the run's cgroup until it is removed is harmless
        }
      }
    }
  }

  get procsFiles(): string[] {
    return this.directories.map((directory) => join(directory, 'cgroup.procs'));
  }

  /** The pids still inside. */
  members(): number[] {
    const pids = new Set<number>();
    for (const file of this.procsFiles) {
      try {
        for (const line of readFileSync(file, 'utf8').split('\n')) if (line !== '') pids.add(Number(line));
      } catch {
        // removed already
      }
    }
    return [...pids];
  }

  /**
   * Ends every process inside, those that left the session (setsid) included. v2 has
   * cgroup.kill; on v1 each member is killed (a fork bomb cannot outgrow pids.max meanwhile).
   */
  killAll(): void {
    if (this.home.mechanism === 'cgroup-v2') {
      try {
        writeFileSync(join(this.directories[0]!, 'cgroup.kill'), '1');
        return;
      } catch {
        // kernels before 5.14: fall through to one by one
      }
    }
    // One pass; killAllAndWait and remove repeat it until the cgroup is empty.
    for (const pid of this.members()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }

  /** Kills until the cgroup is empty (or `withinMs` passed): "ended" means gone, not signalled. */
  async killAllAndWait(withinMs = 1_000): Promise<boolean> {
    const until = performance.now() + withinMs;
    for (;;) {
      this.killAll();
      if (this.members().length === 0) return true;
      if (performance.now() > until) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  counts(): CgroupCounts {
    if (this.home.mechanism === 'cgroup-v2') {
      const directory = this.directories[0]!;
      return {
        processesRefused: keyed(read(join(directory, 'pids.events')), 'max'),
        oomKills: keyed(read(join(directory, 'memory.events')), 'oom_kill'),
        ...optionalNumber('peakProcesses', read(join(directory, 'pids.peak'))),
        ...optionalNumber('peakMemoryBytes', read(join(directory, 'memory.peak'))),
      };
    }
    const [pids, memory] = [join(this.home.pids, this.name), join(this.home.memory, this.name)];
    return {
      processesRefused: keyed(read(join(pids, 'pids.events')), 'max'),
      oomKills: keyed(read(join(memory, 'memory.oom_control')), 'oom_kill'),
      ...optionalNumber('peakProcesses', read(join(pids, 'pids.peak'))),
      ...optionalNumber('peakMemoryBytes', read(join(memory, 'memory.max_usage_in_bytes'))),
    };
  }

  private get name(): string {
    return this.directories[0]!.split('/').pop()!;
  }

  /** Removes the cgroup(s); an empty cgroup is removed at once, a busy one after its processes are killed. */
  async remove(): Promise<void> {
    for (const directory of this.directories) {
      // A killed process leaves the cgroup when the kernel has reaped it: a few milliseconds.
      for (let attempt = 0; attempt < 40 && !removeQuietly(directory); attempt++) {
        this.killAll();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  }
}

function sweepOnce(where: CgroupHome): void {
  if (swept) return;
  swept = true;
  sweepStale(where).catch(() => {});
}

/**
 * Readies the first sandboxed run off its path, for a host that knows the sandbox is there: the
 * cgroup probe without blocking, then a zygote waiting in the first run's cgroup (or, without
 * a cgroup, one bound by rlimits). A headless run waits for the model meanwhile; its first call
 * then neither probes (~20 ms), nor moves riskgate into a cgroup (an RCU grace period), nor
 * forks riskgate itself (issue 20). A session that never runs a command kills the zygote at exit
 * like any other; its empty cgroup is swept by the next riskgate.
 */
export async function prepareFirstRun(): Promise<void> {
  const where = await probeCgroupHome();
  if (zygoteWaiting()) return;
  if (where === undefined) {
    prepareZygote(undefined, []);
    return;
  }
  sweepOnce(where);
  const directories = makeDirectories(where);
  if (directories !== undefined && !prepareZygote(where, directories))
    for (const directory of directories) removeQuietly(directory);
}

let spare: { readonly where: CgroupHome; readonly directories: readonly string[] } | undefined;

function makeDirectories(where: CgroupHome): string[] | undefined {
  const name = `riskgate-${process.pid}-${++counter}`;
  const directories = [...new Set([join(where.pids, name), join(where.memory, name)])];
  const made: string[] = [];
  try {
    for (const directory of directories) {
      mkdirSync(directory);
      made.push(directory);
    }
    return directories;
  } catch {
    for (const directory of made.reverse()) removeQuietly(directory);
    return undefined;
  }
}

function takeSpare(where: CgroupHome): readonly string[] | undefined {
  if (spare?.where !== where) return undefined;
  const { directories } = spare;
  spare = undefined;
  return directories;
}

function prepareSpare(where: CgroupHome): void {
  if (spare !== undefined) return;
  const directories = makeDirectories(where);
  if (directories === undefined) return;
  spare = { where, directories };
  // Not left behind when riskgate exits normally (a killed riskgate's are swept at the next start).
  if (!spareCleanup) {
    spareCleanup = true;
    process.once('exit', () => {
      for (const directory of spare?.directories ?? []) removeQuietly(directory);
    });
  }
}
let spareCleanup = false;

function writeBounds(where: CgroupHome, directories: readonly string[], bounds: ResourceBounds): void {
  const [pids, memory] = [directories[0]!, directories.at(-1)!];
  writeFileSync(join(pids, 'pids.max'), String(bounds.processes));
  if (where.mechanism === 'cgroup-v2') {
    writeFileSync(join(memory, 'memory.max'), String(bounds.memoryBytes));
    // No swap: a bound that spills to swap would still slow the machine.
    if (existsSync(join(memory, 'memory.swap.max'))) writeFileSync(join(memory, 'memory.swap.max'), '0');
    return;
  }
  writeFileSync(join(memory, 'memory.limit_in_bytes'), String(bounds.memoryBytes));
  try {
    writeFileSync(join(memory, 'memory.memsw.limit_in_bytes'), String(bounds.memoryBytes));
  } catch {
    // swap accounting off: nothing to bound
  }
}

/** Removes cgroups a killed riskgate left behind (their pid is gone), emptied first. */
export async function sweepStale(where: CgroupHome): Promise<number> {
  let removed = 0;
  for (const parent of new Set([where.pids, where.memory])) {
    let names: string[];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = NAME.exec(name)?.[1];
      if (pid === undefined || alive(Number(pid))) continue;
      const directory = join(parent, name);
      for (const line of read(join(directory, 'cgroup.procs')).split('\n')) {
        if (line === '') continue;
        try {
          process.kill(Number(line), 'SIGKILL');
        } catch {
          // gone
        }
      }
      // A killed process leaves its cgroup when the kernel has reaped it.
      for (let attempt = 0; attempt < 100; attempt++) {
        if (removeQuietly(directory)) {
          removed++;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeQuietly(directory: string): boolean {
  try {
    rmdirSync(directory);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** `max 152` in pids.events, `oom_kill 1` in memory.events / memory.oom_control. */
function keyed(text: string, key: string): number {
  const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return match === null ? 0 : Number(match[1]);
}

function optionalNumber<K extends string>(key: K, text: string): Partial<Record<K, number>> {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) ? ({ [key]: value } as Record<K, number>) : {};
}
