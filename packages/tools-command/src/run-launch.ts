import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { HostReader } from './host-reader.js';
import { cgroupHome, DEFAULT_BOUNDS, type ResourceBounds } from './resource-bounds.js';
import { RunCgroup } from './run-cgroup.js';
import { shellQuote } from './shell-quote.js';
import { sandboxUser, setprivPrefix } from './sandbox-user.js';
import { takeZygote, type Zygote } from './zygote.js';
import {
  BWRAP,
  bubblewrapArguments,
  closeSeccompFilter,
  openSeccompFilter,
  READER_SECCOMP_FD,
  SANDBOX_STDIN,
  SECCOMP_FD,
} from './sandbox.js';

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
  /** A process waiting in the run's cgroup to exec the command (zygote.ts), when one was ready. */
  readonly zygote?: Zygote;
  /** A sandboxed run bound by rlimits alone: the runner starts the next run's zygote (without a cgroup) after it. */
  readonly rlimitZygote?: boolean;
  /** Closes the filter descriptors (the child holds its own copies). */
  release(): void;
}

export interface LaunchOptions {
  readonly command: string;
  readonly cwd: string;
  readonly workspace?: string;
  /** The home directory, private in the sandbox but for its allowlist. */
  readonly home?: string;
  readonly sandbox: boolean;
  readonly timeoutMs: number;
  /** Bounds for a sandboxed run (defaults: DEFAULT_BOUNDS), or false for none. */
  readonly bounds?: Partial<ResourceBounds> | false;
  readonly hostReader?: HostReader;
  /** False: bound by rlimits alone, as where no cgroup can be had (tests of that fallback). */
  readonly cgroups?: boolean;
  /** A file the sandboxed command reads as its standard input (sandboxed runs only). */
  readonly stdinFile?: string;
}

/** The marker variable (unsandboxed runs without a cgroup). */
export const RUN_MARKER = 'RISKGATE_RUN';

const BASH = ['bash', '--noprofile', '--norc', '-c'];

/**
 * Builds the spawn for one run. The runner spawns it inside the run's cgroup when there is one
 * (RunCgroup.spawnInside: riskgate joins the cgroup for the synchronous spawn and leaves it).
 *
 * - Unsandboxed (an approved command): no bounds (the person chose to run it), but its whole
 *   tree is held — by a cgroup where one can be made, else by a marker variable — so that
 *   processes that left the session (setsid) are still ended at the timeout.
 * - Sandboxed: bubblewrap, with the bounds: the cgroup's process and memory bounds, and the
 *   per-process rlimits set by the sandbox's bash before the command's first word (CPU time,
 *   file size, and — without a cgroup — data size and processes). The processes rlimit only
 *   works there: inside the sandbox's user namespace RLIMIT_NPROC counts the sandbox's own
 *   processes (outside it would count every process of the user); the kernel does not enforce
 *   it for uid 0 (measured), which `riskgate doctor` says. The command cannot raise a hard
 *   limit back: the sandbox has no capabilities.
 * - With a host reader: two bubblewraps joined by a pipe in a /bin/sh: the reader with the host
 *   view and its own filter on fd 4, the rest of the line fully sandboxed on fd 3.
 */
export function launchFor(options: LaunchOptions): Launch {
  if (!options.sandbox) return unsandboxed(options);
  const bounds =
    options.bounds === false
      ? undefined
      : { ...DEFAULT_BOUNDS, cpuSeconds: Math.ceil(options.timeoutMs / 1000) + 1, ...options.bounds };
  const where = bounds === undefined || options.cgroups === false ? undefined : cgroupHome();
  // Bounds by rlimits alone (no cgroup here, or none asked for): a zygote without a cgroup.
  const zygote = bounds === undefined ? undefined : takeZygote(where);
  const adopted =
    zygote === undefined || bounds === undefined || zygote.home === undefined
      ? undefined
      : RunCgroup.adopt(zygote.home, zygote.directories, bounds);
  const usable = zygote !== undefined && (zygote.home === undefined || adopted !== undefined);
  if (zygote !== undefined && !usable) zygote.child.kill('SIGKILL');
  const cgroup = adopted ?? (where === undefined || bounds === undefined ? undefined : RunCgroup.create(bounds, where));
  const places = {
    cwd: options.cwd,
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    ...(options.home === undefined ? {} : { home: options.home }),
  };
  const user = sandboxUser(places);
  const profile = {
    ...places,
    ...(bounds === undefined ? {} : { tmpBytes: bounds.tmpBytes }),
    ...(user === undefined ? {} : { user }),
    ...(options.stdinFile === undefined ? {} : { stdinFile: options.stdinFile }),
  };
  const stdin = options.stdinFile === undefined ? '' : `exec 0<${SANDBOX_STDIN}; `;
  const inner = (command: string) => [
    ...(user === undefined ? [] : setprivPrefix(user)),
    ...BASH,
    `${CLOSE_INHERITED}${bounds === undefined ? '' : limitPrefix(bounds, cgroup === undefined)}${stdin}${command}`,
  ];
  // As `nobody`, every repository belongs to someone else, and git refuses to read those (its
  // safe.directory check): it trusts them here as it trusted root's own, inside the sandbox.
  const env: Record<string, string> =
    user === undefined ? {} : { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };
  const sandboxFd = openSeccompFilter('sandbox');
  const fds: number[] = sandboxFd === undefined ? [] : [sandboxFd];
  const release = () => {
    for (const fd of fds) closeSeccompFilter(fd);
  };
  const held = {
    ...(cgroup === undefined ? {} : { cgroup }),
    ...(bounds === undefined ? {} : { bounds }),
    ...(usable ? { zygote: zygote! } : {}),
    ...(bounds !== undefined && where === undefined ? { rlimitZygote: true } : {}),
    release,
  };
  const reader = options.hostReader;
  if (reader === undefined) {
    return {
      file: BWRAP,
      args: [...bubblewrapArguments(profile), ...inner(options.command)],
      extraFds: fds,
      env,
      ...held,
    };
  }
  const quote = (words: readonly string[]) => words.map(shellQuote).join(' ');
  const readerFd = openSeccompFilter('reader');
  if (readerFd !== undefined) fds.push(readerFd);
  const readerCommand = quote([
    BWRAP,
    ...bubblewrapArguments({ ...profile, hostView: true, seccompFd: READER_SECCOMP_FD }),
    reader.program,
    ...reader.args,
  ]);
  const script =
    reader.rest === undefined
      ? `exec ${readerCommand} ${SECCOMP_FD}<&-`
      : `${readerCommand} ${SECCOMP_FD}<&- | ${quote([BWRAP, ...bubblewrapArguments(profile), ...inner(reader.rest)])} ${READER_SECCOMP_FD}<&-`;
  return { file: '/bin/sh', args: ['-c', script], extraFds: fds, env, ...held };
}

/**
 * Closes every descriptor above stderr before the command's first word. A descriptor riskgate
 * inherited from whatever started it (a terminal, an editor, a test runner) passes through
 * bubblewrap, and one open for writing on a file outside is a way out of the read-only
 * filesystem: `echo x >&200` wrote there (measured). On the first line, so line numbers stay.
 */
// No redirection around the loop: bash would save stderr in a descriptor above 2 for it, which
// the loop would then close (stderr lost).
const CLOSE_INHERITED =
  'for __rg_fd in /proc/self/fd/*; do __rg_fd=${__rg_fd##*/}; [ "$__rg_fd" -gt 2 ] 2>/dev/null && eval "exec $__rg_fd>&-"; done; unset __rg_fd; ';

/**
 * `ulimit …; ` in front of the command, on its first line, so line numbers stay the same. Bash
 * runs it before it reads the command's first word. -t: soft bound sends SIGXCPU (which says
 * why), the hard one a second later SIGKILL; -f in KiB; -d (memory without a cgroup) in KiB.
 */
function limitPrefix(bounds: ResourceBounds, rlimitsOnly: boolean): string {
  const cpu = bounds.cpuSeconds ?? 1;
  const limits = [
    `-S -t ${cpu}`,
    `-H -t ${cpu + 1}`,
    `-f ${Math.ceil(bounds.fileBytes / 1024)}`,
    `-n ${bounds.openFiles}`,
  ];
  if (rlimitsOnly) limits.push(`-d ${Math.ceil(bounds.memoryBytes / 1024)}`, `-u ${bounds.processes}`);
  return `${limits.map((limit) => `ulimit ${limit} 2>/dev/null`).join('; ')}; `;
}

function unsandboxed(options: LaunchOptions): Launch {
  const cgroup = cgroupHome() === undefined || options.cgroups === false ? undefined : RunCgroup.create(undefined);
  const command = {
    file: BASH[0]!,
    args: [...BASH.slice(1), `${CLOSE_INHERITED}${options.command}`],
    extraFds: [],
    release: () => {},
  };
  if (cgroup !== undefined) return { ...command, env: {}, cgroup };
  const marker = randomUUID();
  return { ...command, env: { [RUN_MARKER]: marker }, marker };
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
