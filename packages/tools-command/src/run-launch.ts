import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { HostReader } from './host-reader.js';
import { cgroupHome, DEFAULT_BOUNDS, type ResourceBounds, RunCgroup } from './resource-bounds.js';
import { BWRAP, bubblewrapArguments, closeSeccompFilter, openSeccompFilter, READER_SECCOMP_FD, SECCOMP_FD } from './sandbox.js';

/** What the runner spawns for one command line, and what it must clean up afterwards. */
export interface Launch {
  readonly file: string;
  readonly args: readonly string[];
  /** Descriptors for fd 3 and 4 (the seccomp filters), closed by `release` once spawned. */
  readonly extraFds: readonly number[];
  /** Variables added to the child's environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly cgroup?: RunCgroup;
  /** The bounds in force (sandboxed runs), for the report. */
  readonly bounds?: ResourceBounds;
  /** Set in the child's environment when no cgroup holds the tree: /proc is scanned for it at the end. */
  readonly marker?: string;
  /** Closes the filter descriptors (the child holds its own copies). */
  release(): void;
}

export interface LaunchOptions {
  readonly command: string;
  readonly cwd: string;
  readonly workspace?: string;
  readonly sandbox: boolean;
  readonly timeoutMs: number;
  /** Bounds for a sandboxed run (defaults: DEFAULT_BOUNDS), or false for none. */
  readonly bounds?: Partial<ResourceBounds> | false;
  readonly hostReader?: HostReader;
}

/** The marker variable (unsandboxed runs without a cgroup). */
export const RUN_MARKER = 'RISKGATE_RUN';

const BASH = ['bash', '--noprofile', '--norc', '-c'];

/** Single quotes for /bin/sh: every character literal. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Builds the spawn for one run.
 *
 * - Unsandboxed (an approved command): no bounds (the person chose to run it), but its whole
 *   tree is held — by a cgroup where one can be made, else by a marker variable — so that
 *   processes that left the session (setsid) are still ended at the timeout.
 * - Sandboxed: bubblewrap, with the bounds. A small /bin/sh wrapper joins the run's cgroup
 *   (`echo 0 > cgroup.procs`: the wrapper itself, before it starts anything, so nothing the
 *   command forks is ever outside) and sets the per-process rlimits (CPU time, file size, and
 *   data size where no cgroup bounds memory), then execs bubblewrap. Without a cgroup the
 *   process bound is RLIMIT_NPROC, set inside the sandbox's user namespace where it counts only
 *   the sandbox's processes (outside it would count every process of the user); the kernel
 *   does not enforce it for uid 0 (measured), which `riskgate doctor` says.
 * - With a host reader: two bubblewraps joined by a pipe in the wrapper: the reader with the
 *   host view and its own filter on fd 4, the rest of the line fully sandboxed on fd 3.
 */
export function launchFor(options: LaunchOptions): Launch {
  if (!options.sandbox) return unsandboxed(options);
  const bounds = options.bounds === false ? undefined : { ...DEFAULT_BOUNDS, cpuSeconds: Math.ceil(options.timeoutMs / 1000) + 1, ...options.bounds };
  const cgroup = bounds === undefined ? undefined : RunCgroup.create(bounds);
  const profile = { cwd: options.cwd, ...(options.workspace === undefined ? {} : { workspace: options.workspace }), ...(bounds === undefined ? {} : { tmpBytes: bounds.tmpBytes }) };
  const rlimitsOnly = bounds !== undefined && cgroup === undefined;
  // RLIMIT_NPROC must be set inside the user namespace (see above): one more bash, only then.
  const inner = rlimitsOnly
    ? [...BASH, `ulimit -u ${bounds.processes} 2>/dev/null; exec bash --noprofile --norc -c "$1"`, 'riskgate', options.command]
    : [...BASH, options.command];
  const sandboxFd = openSeccompFilter('sandbox');
  const fds: number[] = sandboxFd === undefined ? [] : [sandboxFd];
  const release = () => {
    for (const fd of fds) closeSeccompFilter(fd);
  };
  const reader = options.hostReader;
  if (bounds === undefined && reader === undefined) {
    return { file: BWRAP, args: [...bubblewrapArguments(profile), ...inner], extraFds: fds, env: {}, release };
  }
  const lines: string[] = [];
  for (const file of cgroup?.procsFiles ?? []) lines.push(`echo 0 > ${shellQuote(file)} || exit 125`);
  if (bounds !== undefined) {
    // /bin/sh counts -f in 512-byte blocks (POSIX), -d in KiB.
    // The soft CPU bound sends SIGXCPU (which says why); the hard one, a second later, SIGKILL.
    lines.push(`ulimit -S -t ${bounds.cpuSeconds} 2>/dev/null`, `ulimit -H -t ${(bounds.cpuSeconds ?? 0) + 1} 2>/dev/null`);
    lines.push(`ulimit -f ${Math.ceil(bounds.fileBytes / 512)} 2>/dev/null`);
    if (rlimitsOnly) lines.push(`ulimit -d ${Math.ceil(bounds.memoryBytes / 1024)} 2>/dev/null`);
  }
  const quote = (words: readonly string[]) => words.map(shellQuote).join(' ');
  if (reader === undefined) {
    lines.push(`exec ${quote([BWRAP, ...bubblewrapArguments(profile), ...inner])}`);
  } else {
    const readerFd = openSeccompFilter('reader');
    if (readerFd !== undefined) fds.push(readerFd);
    const readerCommand = quote([BWRAP, ...bubblewrapArguments({ ...profile, hostView: true, seccompFd: READER_SECCOMP_FD }), reader.program, ...reader.args]);
    if (reader.rest === undefined) {
      lines.push(`exec ${readerCommand} ${SECCOMP_FD}<&-`);
    } else {
      const rest = reader.rest;
      const restInner = rlimitsOnly ? [...inner.slice(0, -1), rest] : [...BASH, rest];
      lines.push(`${readerCommand} ${SECCOMP_FD}<&- | ${quote([BWRAP, ...bubblewrapArguments(profile), ...restInner])} ${READER_SECCOMP_FD}<&-`);
    }
  }
  return { file: '/bin/sh', args: ['-c', lines.join('\n')], extraFds: fds, env: {}, ...(cgroup === undefined ? {} : { cgroup }), ...(bounds === undefined ? {} : { bounds }), release };
}

function unsandboxed(options: LaunchOptions): Launch {
  const cgroup = cgroupHome() === undefined ? undefined : RunCgroup.create(undefined);
  const release = () => {};
  if (cgroup === undefined) {
    const marker = randomUUID();
    return { file: BASH[0]!, args: [...BASH.slice(1), options.command], extraFds: [], env: { [RUN_MARKER]: marker }, marker, release };
  }
  const join = cgroup.procsFiles.map((file) => `echo 0 > ${shellQuote(file)} || exit 125`).join('\n');
  return { file: '/bin/sh', args: ['-c', `${join}\nexec bash --noprofile --norc -c "$1"`, 'riskgate', options.command], extraFds: [], env: {}, cgroup, release };
}

/**
 * SIGKILLs every process whose environment carries the run's marker (those that left the
 * process group included). Only processes of our own user are readable, which are the only
 * ones an unsandboxed command of ours can have started. A command may drop the variable for
 * its children; that is why a cgroup is preferred where one can be made.
 */
export function killMarked(marker: string): number {
  const needle = `${RUN_MARKER}=${marker}\0`;
  let killed = 0;
  for (let round = 0; round < 5; round++) {
    let found = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      let environ: string;
      try {
        environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      } catch {
        continue;
      }
      if (!environ.includes(needle)) continue;
      found++;
      try {
        process.kill(Number(entry), 'SIGKILL');
        killed++;
      } catch {
        // gone
      }
    }
    if (found === 0) break;
  }
  return killed;
}
