import { type ChildProcess, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { CgroupHome } from './resource-bounds.js';
import { closeSeccompFilter, openSeccompFilter } from './sandbox.js';
import { shellQuote } from './shell-quote.js';

/**
 * The next sandboxed run's first process, started ahead in the next run's cgroup. Why: moving a
 * process into a cgroup waits for an RCU grace period when the last move was a while ago —
 * measured ~10 ms per call on this 2-core machine under load, paid on the call's path when
 * riskgate joined the cgroup for each spawn. The zygote joins its cgroup itself, between calls;
 * a call then only writes its script to the zygote, which execs bubblewrap from inside.
 *
 * It is a /bin/sh with the sandbox's filters on fd 3 and 4, that joins the cgroup and then
 * reads its script from fd 5. When riskgate dies first, fd 5 reaches its end and the zygote
 * exits; its cgroup is swept at the next start.
 *
 * Where no cgroup can be had (runs bound by rlimits alone), a zygote without one waits all the
 * same: forking riskgate itself costs ~5 ms on the call's path (a process with two WebAssembly
 * memories maps 20+ GB of address space, which fork copies the page tables of), against ~0.8 ms
 * for a bare Node; the zygote is a small /bin/sh, forked between calls.
 */
export interface Zygote {
  readonly child: ChildProcess;
  readonly directories: readonly string[];
  /** Where its cgroup is; undefined for a zygote of runs bound by rlimits alone (no cgroup here). */
  readonly home: CgroupHome | undefined;
}

// fd 5 is a socket (Node's stdio pipes are socket pairs), which /dev/fd/5 cannot open: the
// shell reads its script from it as its standard input instead.
const ZYGOTE_SCRIPT = 'for f in "$@"; do echo 0 > "$f" || exit 125; done\nexec /bin/sh -s <&5 5<&-';

let ready: (Zygote & { alive: boolean }) | undefined;
let exitHook = false;

/** Starts a zygote in `directories` (made by the caller; none without a cgroup), unless one is waiting already. */
export function prepareZygote(home: CgroupHome | undefined, directories: readonly string[]): boolean {
  if (ready !== undefined) return false;
  const sandboxFd = openSeccompFilter('sandbox');
  const readerFd = openSeccompFilter('reader');
  if (sandboxFd === undefined || readerFd === undefined) {
    closeSeccompFilter(sandboxFd);
    closeSeccompFilter(readerFd);
    return false;
  }
  let child: ChildProcess;
  try {
    const procs = directories.map((directory) => `${directory}/cgroup.procs`);
    child = spawn('/bin/sh', ['-c', ZYGOTE_SCRIPT, 'riskgate-zygote', ...procs], {
      cwd: '/',
      stdio: ['ignore', 'pipe', 'pipe', sandboxFd, readerFd, 'pipe'],
      detached: true,
      env: {},
    });
  } catch {
    return false;
  } finally {
    closeSeccompFilter(sandboxFd);
    closeSeccompFilter(readerFd);
  }
  const entry = { child, directories, home, alive: true };
  child.once('exit', () => {
    entry.alive = false;
    if (ready === entry) ready = undefined;
  });
  child.once('error', () => {
    entry.alive = false;
    if (ready === entry) ready = undefined;
  });
  // A waiting zygote must not keep riskgate running, nor outlive it.
  child.unref();
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => ready?.child.kill('SIGKILL'));
  }
  for (const stream of child.stdio) (stream as { unref?: () => void } | null)?.unref?.();
  ready = entry;
  return true;
}

/** How long after a run the next run's zygote (and cgroup) is readied: `prepareAfterRun`. */
export const AFTER_RUN_MS = 25;

/**
 * Runs `prepare` (the next run's zygote, its cgroup) a moment after a run, on a timer that does
 * not hold riskgate: the call's result goes to the model first and this work overlaps the
 * model's next reply instead of delaying the request (forking the next zygote and removing a
 * memory cgroup took ~20 ms there, issue 20). A call that comes sooner than AFTER_RUN_MS — a
 * model answering within 25 ms, which no endpoint does — starts its run without a
 * zygote: riskgate forks itself into the run's cgroup (slower, bounded the same).
 */
export function prepareAfterRun(prepare: () => void): void {
  setTimeout(prepare, AFTER_RUN_MS).unref();
}

export function zygoteWaiting(): boolean {
  return ready?.alive === true;
}

/** The waiting zygote for `home` (undefined: for runs without a cgroup), alive, or undefined. */
export function takeZygote(home: CgroupHome | undefined): Zygote | undefined {
  const entry = ready;
  if (entry === undefined || entry.home !== home || !entry.alive || entry.child.exitCode !== null) return undefined;
  ready = undefined;
  entry.child.ref();
  for (const stream of entry.child.stdio) (stream as { ref?: () => void } | null)?.ref?.();
  return entry;
}

/**
 * Hands the zygote its command: the working directory, the environment (the zygote started
 * with none), and `exec` of the program, with the descriptors the program does not need closed.
 */
export function startZygote(
  zygote: Zygote,
  command: {
    readonly file: string;
    readonly args: readonly string[];
    readonly cwd: string;
    readonly env: Readonly<Record<string, string>>;
    readonly fds: number;
  },
): void {
  // Only names the shell can export; others (rare: `a-b`, `a.b`) do not reach the command.
  const exports = Object.entries(command.env)
    .filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map(([name, value]) => `export ${name}=${shellQuote(value)}`);
  // The command's stdin is /dev/null, as for a direct spawn; the script came on the zygote's.
  const close = command.fds < 2 ? ' 4<&-' : '';
  const script = [
    `cd ${shellQuote(command.cwd)} || exit 125`,
    ...exports,
    `exec ${[command.file, ...command.args].map(shellQuote).join(' ')} </dev/null${close}`,
    '',
  ].join('\n');
  const input = zygote.child.stdio[5 as number] as unknown as Writable;
  // A zygote that died meanwhile: the run then reports its exit (125), not an exception.
  input.on('error', () => {});
  input.end(script);
}
