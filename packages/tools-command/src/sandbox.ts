import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isInside } from '@riskgate/risk';
import { execa } from 'execa';
import { type HiddenPath, hiddenPaths } from './sandbox-hidden-paths.js';
import { openDirectories, privateHomeArguments } from './sandbox-home.js';
import { NOBODY, SETPRIV, type SandboxUser, setDropRootWorks, setprivPrefix } from './sandbox-user.js';
import { sandboxSeccompProgram } from './seccomp.js';

/**
 * The bubblewrap sandbox whitelisted commands run in (DESIGN.md, "Defence in depth"): if an
 * assessor lets a writing command through, the write fails instead of doing damage.
 *
 * - `--ro-bind / /`: the whole filesystem read-only, the workspace included.
 * - `--tmpfs /tmp`, `--dev /dev`, `--proc /proc`: a private /tmp (sized), a minimal /dev (read-only
 *   but for a sized /dev/shm), and a /proc that shows only the sandbox's own processes (no other
 *   process's environment or memory).
 * - `--unshare-all`: own network (loopback only, not the host's: 127.0.0.1 is unreachable),
 *   PID, IPC, UTS and cgroup namespaces; nothing outside can be signalled or traced.
 * - `--cap-drop ALL`: as root, bubblewrap keeps every capability by default, and with them
 *   `mount -o remount,bind,rw /` makes the filesystem writable again (measured).
 * - `--die-with-parent`: the sandbox dies with riskgate. Not `--new-session`: the runner starts
 *   bubblewrap detached (a new session without a terminal, so no TIOCSTI keystroke injection),
 *   and the command must stay in bubblewrap's process group. The runner's SIGTERM to that group
 *   then reaches every process inside, and its SIGKILL after the grace period also reaches the
 *   sandbox's PID 1 (forcibly delivered from outside), whose death ends every process in the
 *   namespace, setsid ones included. With `--new-session`, a stop that arrived while bubblewrap
 *   was still setting up left the sandbox running (measured).
 * - the seccomp filter (seccomp.ts): no Unix sockets (PostgreSQL, MySQL, Docker, D-Bus listen
 *   on them), no io_uring.
 * - `/run` (and `/var/run`, its usual symlink) an empty tmpfs: the daemons' sockets and the
 *   mounted container secrets are not there to find.
 * - the home private (sandbox-home.ts): an empty tmpfs with the allowlist bound back read-only.
 * - the secret paths of the knowledge base hidden (sandbox-hidden-paths.ts): an empty tmpfs
 *   over each directory, /dev/null over each file, in the workspace at any depth.
 * - bounds on processes, memory, CPU time and file size: run-launch.ts and resource-bounds.ts.
 * - the host's PID and network namespaces only for a lone reader (host-reader.ts), never a line.
 */
export interface SandboxProfile {
  /** The directory the command runs in. */
  readonly cwd: string;
  /** The workspace: visible (read-only) even when it lies in /tmp or /run, which the sandbox empties. */
  readonly workspace?: string;
  readonly home?: string;
  /**
   * The lone host reader (`ps aux`, `ss -tln`; host-reader.ts): keep the host's PID and network
   * namespaces so it sees them; the filesystem stays read-only, the secrets hidden, and its
   * filter refuses connect(). Never for a shell or the rest of a line.
   */
  readonly hostView?: boolean;
  /** Size of each writable tmpfs (/tmp, /run, /dev/shm). */
  readonly tmpBytes?: number;
  /** The descriptor bubblewrap reads its seccomp filter from (SECCOMP_FD unless the reader's). */
  readonly seccompFd?: number;
  /** Run as this user instead of root (sandbox-user.ts); the command is then prefixed with setprivPrefix. */
  readonly user?: SandboxUser;
  /** A file bound read-only at SANDBOX_STDIN: what the command reads on its standard input. */
  readonly stdinFile?: string;
}

/** Where a run's standard input (RunCommandOptions.stdin) appears inside the sandbox. */
export const SANDBOX_STDIN = '/run/riskgate-stdin';

/**
 * Set for commands in the sandbox: tools that check for updates on every run would try the
 * network (measured: `pip list` looked up pypi.org and made ~/.cache/pip), which the sandbox
 * refuses — after a DNS timeout. Switched off, they answer from what is installed.
 */
export const SANDBOX_ENVIRONMENT: Readonly<Record<string, string>> = {
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PIP_NO_INPUT: '1',
  NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  NO_UPDATE_NOTIFIER: '1',
  HOMEBREW_NO_AUTO_UPDATE: '1',
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  GIT_TERMINAL_PROMPT: '0',
};

/** Directories the sandbox replaces with empty ones. */
const EMPTIED = ['/tmp', '/run'];

export const BWRAP = 'bwrap';

/** Size of each writable tmpfs when the profile names none (resource-bounds.ts DEFAULT_BOUNDS.tmpBytes). */
const DEFAULT_TMPFS_BYTES = 256 * 1024 * 1024;

/**
 * The fixed part of the sandbox: what every command gets. Every writable tmpfs is sized: they
 * live in RAM, and `seq 1 1000000000000 | sort` filled an unsized /tmp with the machine's memory
 * (measured). /dev itself is made read-only after /dev/shm is mounted on it, so the only
 * writable places are the sized /tmp, /run and /dev/shm.
 */
function baseArguments(tmpBytes: number, hostView: boolean, user: SandboxUser | undefined): string[] {
  const size = tmpfsSizes ? ['--size', String(tmpBytes)] : [];
  // Dropping to another user (sandbox-user.ts) needs the writable tmpfs open to everyone, and
  // no user namespace (in one, only uid 0 is mapped and setuid fails); root needs none anyway.
  const open = user === undefined ? [] : ['--perms', '1777'];
  const namespaces = hostView
    ? ['--unshare-user-try', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try']
    : user === undefined
      ? ['--unshare-all']
      : ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try'];
  // setpriv needs these two to change user; it loses both (and every other) when it does.
  const capabilities =
    user === undefined
      ? ['--cap-drop', 'ALL']
      : ['--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID'];
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    ...size,
    ...open,
    '--tmpfs',
    '/dev/shm',
    '--remount-ro',
    '/dev',
    '--proc',
    '/proc',
    // Inside, uid 0 is the host's root (a privileged bubblewrap maps it to itself), and sysctls
    // are checked by uid alone, not by capability: a sandboxed root wrote kernel.core_pattern,
    // whose helper the kernel then ran as host root (measured). Bubblewrap's own cover of
    // /proc/sys skips it when the directory (0555) is not writable, which it never is.
    '--ro-bind',
    '/proc/sys',
    '/proc/sys',
    '--ro-bind-try',
    '/proc/sysrq-trigger',
    '/proc/sysrq-trigger',
    ...size,
    ...open,
    '--tmpfs',
    '/tmp',
    ...size,
    '--tmpfs',
    '/run',
    // The host reader (host-reader.ts) keeps the host's PID and network namespaces, nothing else.
    ...namespaces,
    ...capabilities,
    '--die-with-parent',
  ];
}

/**
 * Whether this bubblewrap sizes a tmpfs (`--size`, bubblewrap 0.8; Ubuntu 22.04 ships 0.6):
 * found by the probe. Without it the tmpfs pages still count against a cgroup's memory bound,
 * and rlimits bound each file; `riskgate doctor` says which.
 */
let tmpfsSizes = true;

export function sandboxSizesTmpfs(): boolean {
  return tmpfsSizes;
}

/** File descriptor bubblewrap reads the seccomp filter from (after stdin, stdout, stderr). */
export const SECCOMP_FD = 3;
/** The host reader's filter (no connect()), when it runs beside the rest of the line. */
export const READER_SECCOMP_FD = 4;

export function bubblewrapArguments(
  profile: SandboxProfile,
  hidden: readonly HiddenPath[] = hiddenPaths(profile),
): string[] {
  const user = profile.hostView === true ? undefined : profile.user;
  const args = baseArguments(profile.tmpBytes ?? DEFAULT_TMPFS_BYTES, profile.hostView === true, user);
  // A directory above the workspace or the home that others may not enter: an empty one, with
  // the workspace and the command's directory bound back (the home gets its own tmpfs below).
  const workspace = profile.workspace ?? profile.cwd;
  for (const bridge of user?.bridges ?? []) {
    args.push('--tmpfs', bridge);
    for (const directory of new Set([workspace, profile.cwd]))
      if (isInside(directory, bridge))
        args.push(...openDirectories(bridge, directory), '--ro-bind', directory, directory);
  }
  // The home: empty but for the allowlist (and the workspace when it lies there).
  const home = privateHomeArguments(profile);
  const homePath = home[1];
  for (const bridge of user?.bridges ?? [])
    if (homePath !== undefined && isInside(homePath, bridge)) args.push(...openDirectories(bridge, homePath));
  args.push(...home);
  for (const bridge of user?.bridges ?? []) args.push('--remount-ro', bridge);
  // A workspace in /tmp (scratch directories, tests) is shown again, read-only like the rest.
  const shown = [...new Set([profile.workspace ?? profile.cwd, profile.cwd])].filter((directory) =>
    EMPTIED.some((emptied) => isInside(directory, emptied)),
  );
  for (const directory of shown) args.push('--ro-bind', directory, directory);
  for (const { path, kind } of fitArguments(hidden)) {
    const emptied =
      EMPTIED.some((directory) => isInside(path, directory)) && !shown.some((directory) => isInside(path, directory));
    if (emptied) continue; // nothing there to hide
    if (kind === 'directory') args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  if (profile.stdinFile !== undefined) args.push('--ro-bind', profile.stdinFile, SANDBOX_STDIN);
  // The private /tmp and the hidden directories are the only writable places; the rest stays read-only.
  args.push('--chdir', profile.cwd);
  if (HAS_SECCOMP) args.push('--seccomp', String(profile.seccompFd ?? SECCOMP_FD));
  return args;
}

/**
 * bubblewrap refuses more than 9,000 arguments in all ("Exceeded maximum number of arguments"),
 * and a workspace with thousands of secret files (the red team planted 5,200) then ran nothing.
 * Past MAX_HIDDEN paths, the directory that holds the most of them is hidden whole instead, until
 * they fit: more is hidden, never less (what else that directory held is not there either).
 */
const MAX_HIDDEN = 2_500;

export function fitArguments(hidden: readonly HiddenPath[]): readonly HiddenPath[] {
  let paths = [...hidden];
  while (paths.length > MAX_HIDDEN) {
    // The closest directory that gathers at least two hidden paths: their parent if one has
    // two, else their grandparent, and so on (each step shrinks the list, hiding as little more as it can).
    let best: [string, number] | undefined;
    for (let up = 1; best === undefined && up < 64; up++) {
      const counts = new Map<string, number>();
      for (const { path } of paths) {
        let directory = path;
        for (let step = 0; step < up && directory !== '/'; step++) directory = dirname(directory);
        if (directory !== '/') counts.set(directory, (counts.get(directory) ?? 0) + 1);
      }
      best = [...counts.entries()].filter(([, count]) => count >= 2).sort((a, b) => b[1] - a[1])[0];
    }
    if (best === undefined) break;
    const [directory] = best;
    paths = [
      ...paths.filter(({ path }) => !isInside(path, directory)),
      { path: directory, kind: 'directory' as const },
    ];
  }
  return paths;
}

const SECCOMP_BYTES = { sandbox: sandboxSeccompProgram(), reader: sandboxSeccompProgram(undefined, true) };
/** Whether this architecture has a filter (without one the sandbox is not offered). */
export const HAS_SECCOMP = SECCOMP_BYTES.sandbox !== undefined;

const seccompPaths: { sandbox?: string | undefined; reader?: string | undefined } = {};

/**
 * A fresh read-only descriptor of the filter for one bubblewrap run; the caller closes it once
 * the child is spawned. A file, not a pipe: bubblewrap reads fd 3 to its end before it starts
 * the command, and a pipe that execa fills reaches its end only when Node's event loop gets
 * round to closing it — measured at 1.3 s in a busy CLI. Each run opens its own descriptor so
 * that runs side by side never share a file offset.
 */
export function openSeccompFilter(kind: 'sandbox' | 'reader' = 'sandbox'): number | undefined {
  const bytes = SECCOMP_BYTES[kind];
  if (bytes === undefined) return undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (seccompPaths[kind] === undefined) {
      const directory = mkdtempSync(join(tmpdir(), 'riskgate-seccomp-'));
      const path = join(directory, 'filter.bpf');
      writeFileSync(path, bytes, { mode: 0o400 });
      seccompPaths[kind] = path;
      process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
    }
    try {
      return openSync(seccompPaths[kind]!, 'r');
    } catch {
      seccompPaths[kind] = undefined; // removed by a /tmp cleaner: write it again
    }
  }
  return undefined;
}

export function closeSeccompFilter(fd: number | undefined): void {
  if (fd !== undefined) closeSync(fd);
}

export interface SandboxStatus {
  readonly available: boolean;
  /** One line for the person: what works, or why not and what to do. */
  readonly message: string;
}

let probed: Promise<SandboxStatus> | undefined;

export interface ProbeOptions {
  /** Probe again instead of answering from the first probe. */
  readonly fresh?: boolean;
  /** The bubblewrap program (tests point it at a missing or failing one). */
  readonly bwrap?: string;
}

/**
 * Whether the sandbox works here: bubblewrap installed and able to make its namespaces (a
 * container may forbid them). Tried once per process with the real arguments and a trivial
 * command; the answer is kept.
 */
export function probeSandbox(options: ProbeOptions = {}): Promise<SandboxStatus> {
  if (options.bwrap !== undefined) return runProbe(options.bwrap);
  if (probed === undefined || options.fresh === true) probed = runProbe(BWRAP);
  return probed;
}

const FALLBACK = 'whitelisted commands run unsandboxed, and only the commands that are safe without it run unasked';

async function runProbe(bwrap: string): Promise<SandboxStatus> {
  if (process.platform !== 'linux')
    return { available: false, message: `no sandbox on ${process.platform} (bubblewrap is Linux only): ${FALLBACK}` };
  // Without the filter, Unix sockets (databases, Docker, D-Bus) stay reachable: not a sandbox we vouch for.
  if (!HAS_SECCOMP)
    return { available: false, message: `no sandbox: no seccomp filter for ${process.arch}: ${FALLBACK}` };
  // Each attempt reads the filter from a descriptor of its own (a fresh file offset).
  const attempt = async () => {
    const fd = openSeccompFilter();
    if (fd === undefined) return undefined;
    try {
      return await execa(bwrap, [...bubblewrapArguments({ cwd: '/' }, []), 'true'], {
        reject: false,
        timeout: 10_000,
        stdio: ['ignore', 'pipe', 'pipe', fd as never],
      });
    } finally {
      closeSeccompFilter(fd);
    }
  };
  tmpfsSizes = true;
  let result = await attempt();
  // An older bubblewrap without --size: the sandbox still works, its tmpfs unsized.
  if (result !== undefined && result.exitCode !== 0 && /--size/.test(String(result.stderr ?? ''))) {
    tmpfsSizes = false;
    result = await attempt();
  }
  if (result === undefined)
    return { available: false, message: `no sandbox: the seccomp filter could not be written: ${FALLBACK}` };
  if (result.exitCode === 0) {
    const asNobody = await probeDropRoot(bwrap);
    const who =
      process.getuid?.() !== 0
        ? ''
        : asNobody
          ? ', commands run as nobody (files others may not read stay unread)'
          : ', commands run as root (setpriv could not drop to nobody here)';
    return {
      available: true,
      message: `sandbox: bubblewrap (read-only filesystem, no network, own PID namespace, no Unix sockets, secret paths hidden${who})`,
    };
  }
  if ((result as { code?: string }).code === 'ENOENT') {
    return {
      available: false,
      message: `no sandbox: bubblewrap is not installed (apt-get install bubblewrap): ${FALLBACK}`,
    };
  }
  const reason =
    String(result.stderr ?? '')
      .trim()
      .split('\n')[0] || String(result.shortMessage ?? `exit code ${result.exitCode}`);
  return {
    available: false,
    message: `no sandbox: bubblewrap cannot create its namespaces here (${reason}): ${FALLBACK}`,
  };
}

/** As root: whether a sandboxed command can drop to `nobody` here (sandbox-user.ts). */
async function probeDropRoot(bwrap: string): Promise<boolean> {
  setDropRootWorks(false);
  if (process.getuid?.() !== 0 || SETPRIV === undefined) return false;
  const fd = openSeccompFilter();
  if (fd === undefined) return false;
  try {
    const user = { uid: NOBODY, gid: NOBODY, bridges: [] };
    const result = await execa(
      bwrap,
      [...bubblewrapArguments({ cwd: '/', user }, []), ...setprivPrefix(user), '/bin/sh', '-c', 'id -u'],
      {
        reject: false,
        timeout: 10_000,
        stdio: ['ignore', 'pipe', 'pipe', fd as never],
      },
    );
    const works = result.exitCode === 0 && String(result.stdout).trim() === String(NOBODY);
    setDropRootWorks(works);
    return works;
  } finally {
    closeSeccompFilter(fd);
  }
}
