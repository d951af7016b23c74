import { constants } from 'node:os';
import { looksBinary } from '@riskgate/risk';
import { execa } from 'execa';
import { childEnvironment } from './child-environment.js';
import { cutNotice, HeadTail, LiveOutput } from './output-capture.js';
import { BWRAP, bubblewrapArguments, closeSeccompFilter, openSeccompFilter, SANDBOX_ENVIRONMENT, sandboxStdio } from './sandbox.js';

export interface RunCommandOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Output for the screen as it arrives. */
  readonly onOutput?: (chunk: string) => void;
  /** Bytes of output kept for the model: half from the start, half from the end. */
  readonly maxOutputBytes: number;
  /** After SIGTERM, how long the process group has before SIGKILL. */
  readonly killGraceMs?: number;
  /**
   * Run inside the bubblewrap sandbox (sandbox.ts). Only set it after `probeSandbox()` said the
   * sandbox works here: a missing bubblewrap is then reported as the command's failure.
   */
  readonly sandbox?: boolean;
  /** In the sandbox, keep the host's process and network view (sandbox.ts hostViewLine). */
  readonly hostView?: boolean;
  /** The workspace, which stays visible in the sandbox even under /tmp. Defaults to `cwd`. */
  readonly workspace?: string;
  /** The home directory, private in the sandbox but for its allowlist. Defaults to the real one. */
  readonly home?: string;
  /** The child's environment; by default riskgate's own, scrubbed of secrets (child-environment.ts). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface CommandRunResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** stdout and stderr interleaved as they arrived, with the middle dropped past the cap. */
  readonly output: string;
  readonly outputBytes: number;
  readonly droppedBytes: number;
  readonly binary: boolean;
  readonly durationMs: number;
}

/**
 * One bash command line in its own process group, stdin closed so nothing waits on a prompt.
 * Timeout and abort kill the whole group (children included); processes it left behind in
 * its group are ended when it exits.
 */
export async function runCommand(command: string, options: RunCommandOptions): Promise<CommandRunResult> {
  const started = performance.now();
  const capture = new HeadTail(Math.max(1, Math.floor(options.maxOutputBytes / 2)));
  const live = options.onOutput === undefined ? undefined : new LiveOutput(options.onOutput);
  let first: Buffer | undefined;
  let binary = false;
  const bash = ['bash', '--noprofile', '--norc', '-c', command];
  const seccomp = options.sandbox === true ? openSeccompFilter() : undefined;
  const [file, ...args] = options.sandbox === true ? [BWRAP, ...bubblewrapArguments({ cwd: options.cwd, ...(options.workspace === undefined ? {} : { workspace: options.workspace }), ...(options.home === undefined ? {} : { home: options.home }), ...(options.hostView === true ? { hostView: true } : {}) }), ...bash] : bash;
  const subprocess = execa(file!, args, {
    cwd: options.cwd,
    stdio: seccomp === undefined ? ['ignore', 'pipe', 'pipe'] : sandboxStdio(seccomp),
    detached: true,
    reject: false,
    buffer: false,
    encoding: 'buffer',
    env: { ...(options.env ?? childEnvironment(process.env)), ...(options.sandbox === true ? SANDBOX_ENVIRONMENT : {}), PAGER: 'cat', GIT_PAGER: 'cat', TERM: 'dumb' },
    extendEnv: false,
  });
  // The child has its own copy of the descriptor now.
  closeSeccompFilter(seccomp);
  const onData = (chunk: Buffer) => {
    if (first === undefined) {
      first = chunk;
      binary = looksBinary(chunk);
    }
    capture.push(chunk);
    if (!binary) live?.push(chunk);
  };
  subprocess.stdout?.on('data', onData);
  subprocess.stderr?.on('data', onData);

  let timedOut = false;
  let cancelled = false;
  const killGroup = (signal: NodeJS.Signals) => {
    if (subprocess.pid === undefined) return;
    try {
      process.kill(-subprocess.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  let forceTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    killGroup('SIGTERM');
    forceTimer ??= setTimeout(() => killGroup('SIGKILL'), options.killGraceMs ?? 2_000);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });

  const result = await subprocess;
  clearTimeout(timer);
  options.signal.removeEventListener('abort', onAbort);
  // Whatever the command left running in its group does not outlive it.
  killGroup('SIGKILL');
  if (forceTimer !== undefined) clearTimeout(forceTimer);

  if (!binary) live?.flush();
  const { head, tail, dropped, droppedLines } = capture.result();
  const output = binary
    ? ''
    : dropped > 0
      ? `${head.toString('utf8')}\n${cutNotice(droppedLines, dropped)}\n${tail.toString('utf8')}`
      : Buffer.concat([head, tail]).toString('utf8');
  // bubblewrap reports a command killed by a signal as exit code 128 + the signal's number.
  const sandboxSignal = options.sandbox === true && result.signal === undefined ? signalOfStatus(result.exitCode) : undefined;
  return {
    exitCode: sandboxSignal === undefined ? (result.exitCode ?? null) : null,
    signal: sandboxSignal ?? result.signal ?? null,
    timedOut,
    cancelled,
    output,
    outputBytes: capture.total,
    droppedBytes: binary ? capture.total : dropped,
    binary,
    durationMs: performance.now() - started,
  };
}

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number as number, name]));

function signalOfStatus(exitCode: number | undefined): string | undefined {
  return exitCode !== undefined && exitCode > 128 ? SIGNAL_NAMES.get(exitCode - 128) : undefined;
}
