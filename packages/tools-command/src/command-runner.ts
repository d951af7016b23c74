import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { looksBinary } from '@riskgate/risk';
import { childEnvironment } from './child-environment.js';
import type { HostReader } from './host-reader.js';
import { countLines, cutNotice, HeadTail, LiveOutput } from './output-capture.js';
import type { ResourceBounds } from './resource-bounds.js';
import type { CgroupCounts } from './run-cgroup.js';
import { killMarked, type Launch, launchFor } from './run-launch.js';
import { prepareAfterRun, prepareZygote, startZygote, zygoteWaiting } from './zygote.js';
import { detectLimit, type LimitHit, OutputSigns } from './run-limits.js';
import { SANDBOX_ENVIRONMENT } from './sandbox.js';

export interface RunCommandOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Output for the screen as it arrives. */
  readonly onOutput?: (chunk: string) => void;
  /** Bytes of output kept for the model: half from the start, half from the end. */
  readonly maxOutputBytes: number;
  /** After SIGTERM, how long the process tree has before SIGKILL. */
  readonly killGraceMs?: number;
  /**
   * Run inside the bubblewrap sandbox (sandbox.ts). Only set it after `probeSandbox()` said the
   * sandbox works here: a missing bubblewrap is then reported as the command's failure.
   */
  readonly sandbox?: boolean;
  /**
   * In the sandbox, the line's lone host reader (host-reader.ts splitHostReader): it alone gets
   * the host's process and network view; the rest of the line runs fully sandboxed.
   */
  readonly hostReader?: HostReader;
  /** Bounds of a sandboxed run (resource-bounds.ts DEFAULT_BOUNDS by default), or false for none. */
  readonly bounds?: Partial<ResourceBounds> | false;
  /** False: bound by rlimits alone, as on machines without a usable cgroup (for tests and the bench). */
  readonly cgroups?: boolean;
  /** The workspace, which stays visible in the sandbox even under /tmp. Defaults to `cwd`. */
  readonly workspace?: string;
  /** The home directory, private in the sandbox but for its allowlist. Defaults to the real one. */
  readonly home?: string;
  /** The child's environment; by default riskgate's own, scrubbed of secrets (child-environment.ts). */
  readonly env?: Readonly<Record<string, string>>;
  /** What a sandboxed command reads on its standard input (else /dev/null). */
  readonly stdin?: string;
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
  /** The bound that stopped a sandboxed run (run-limits.ts), from the kernel's own signals. */
  readonly limit?: LimitHit;
  /** Processes the command left running (setsid ones included) were ended when it finished. */
  readonly leftoversEnded?: boolean;
  /** A process no means could end still held the output; riskgate stopped reading it. */
  readonly outputCut?: boolean;
  /** What the run's cgroup counted at most, where it had one. */
  readonly peak?: { readonly processes?: number; readonly memoryBytes?: number };
}

/**
 * One bash command line in its own process group, stdin closed so nothing waits on a prompt.
 * Timeout and abort end the whole process tree; whatever it left running is ended when it
 * exits: the sandbox's PID namespace (its PID 1's death ends every process in it), the run's
 * cgroup, or — unsandboxed without a cgroup — a marker variable searched for in /proc. The
 * output is read until the tree is gone, never longer: a pipe held open by a process that
 * escaped every means is closed by us after the grace period.
 */
export async function runCommand(command: string, options: RunCommandOptions): Promise<CommandRunResult> {
  const started = performance.now();
  const stdin = stdinFor(options);
  const launch = launchFor({
    command,
    cwd: options.cwd,
    sandbox: options.sandbox === true,
    timeoutMs: options.timeoutMs,
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    ...(options.home === undefined ? {} : { home: options.home }),
    ...(options.bounds === undefined ? {} : { bounds: options.bounds }),
    ...(options.hostReader === undefined ? {} : { hostReader: options.hostReader }),
    ...(options.cgroups === false ? { cgroups: false } : {}),
    ...(stdin.file === undefined ? {} : { stdinFile: stdin.file }),
  });
  const environment = environmentFor(launch, options);
  // Forked inside the run's cgroup, so nothing it starts is ever outside it. When the cgroup
  // cannot be joined the command does not run: unbounded is not a fallback we choose silently.
  let child: ChildProcess;
  try {
    child = startChild(launch, options, environment);
  } catch (error) {
    launch.release();
    launch.cgroup?.removeLater(options.sandbox === true);
    stdin.remove();
    return notStarted(error as Error, started);
  }
  // The child has its own copies of the filter descriptors now.
  launch.release();
  const run = new CommandRun(options, launch, child);
  const exit = await run.waitForExit();
  const outputCut = await run.endTree();
  const counts = launch.cgroup?.counts();
  launch.cgroup?.removeLater(options.sandbox === true);
  // Without a cgroup, the next sandboxed run's first process is started ahead all the same, off
  // this call's path (zygote.ts): forking riskgate itself is what costs.
  if (launch.rlimitZygote === true)
    prepareAfterRun(() => {
      if (!zygoteWaiting()) prepareZygote(undefined, []);
    });
  stdin.remove();
  return run.result(exit, { counts, outputCut, started });
}

interface StdinFile {
  readonly file: string | undefined;
  readonly remove: () => void;
}

/** Standard input goes in as a file bound read-only into the sandbox (readable by `nobody`). */
function stdinFor(options: RunCommandOptions): StdinFile {
  if (options.stdin === undefined || options.sandbox !== true) return { file: undefined, remove: () => {} };
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-stdin-'));
  chmodSync(directory, 0o755);
  const file = join(directory, 'stdin');
  writeFileSync(file, options.stdin, { mode: 0o644 });
  return { file, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

function environmentFor(launch: Launch, options: RunCommandOptions): Readonly<Record<string, string>> {
  return {
    ...(options.env ?? childEnvironment(process.env)),
    ...(options.sandbox === true ? SANDBOX_ENVIRONMENT : {}),
    ...launch.env,
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    TERM: 'dumb',
  };
}

/** The command's process: handed to the waiting zygote, or spawned (inside the run's cgroup where it has one). */
function startChild(
  launch: Launch,
  options: RunCommandOptions,
  environment: Readonly<Record<string, string>>,
): ChildProcess {
  const start = () =>
    spawn(launch.file, launch.args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe', ...launch.extraFds],
      detached: true,
      env: environment,
    });
  if (launch.zygote === undefined) return launch.cgroup === undefined ? start() : launch.cgroup.spawnInside(start);
  const child = launch.zygote.child;
  startZygote(launch.zygote, {
    file: launch.file,
    args: launch.args,
    cwd: options.cwd,
    env: environment,
    fds: launch.extraFds.length,
  });
  return child;
}

/** The result of a command that never started: exit code 125 and the reason as its output. */
function notStarted(error: Error, started: number): CommandRunResult {
  const message = `riskgate could not start the command in its cgroup (${error.message}); it did not run\n`;
  return {
    exitCode: 125,
    signal: null,
    timedOut: false,
    cancelled: false,
    output: message,
    outputBytes: 0,
    droppedBytes: 0,
    binary: false,
    durationMs: performance.now() - started,
  };
}

interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly error?: NodeJS.ErrnoException;
}

/** One started command: its output as it arrives, the timeout and cancel that stop it, the end of its tree. */
class CommandRun {
  private readonly capture: HeadTail;
  private readonly live: LiveOutput | undefined;
  private readonly signs: OutputSigns;
  private readonly grace: number;
  private readonly streamsClosed: Promise<unknown>;
  private first: Buffer | undefined;
  private binary = false;
  private timedOut = false;
  private cancelled = false;
  private leftoversEnded = false;
  private forceTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: RunCommandOptions,
    private readonly launch: Launch,
    private readonly child: ChildProcess,
  ) {
    this.capture = new HeadTail(Math.max(1, Math.floor(options.maxOutputBytes / 2)));
    this.live = options.onOutput === undefined ? undefined : new LiveOutput(options.onOutput);
    this.grace = options.killGraceMs ?? 2_000;
    // With a cgroup, its counters tell memory and processes (detectLimit): the output only a full /tmp.
    this.signs = new OutputSigns(launch.cgroup === undefined ? undefined : ['tmp-full']);
    child.stdout?.on('data', this.onData);
    child.stderr?.on('data', this.onData);
    this.streamsClosed = Promise.all(
      [child.stdout, child.stderr].map((stream) =>
        stream === null ? undefined : new Promise((resolve) => stream.once('close', resolve)),
      ),
    );
  }

  private readonly onData = (chunk: Buffer) => {
    if (this.first === undefined) {
      this.first = chunk;
      this.binary = looksBinary(chunk);
    }
    // Lines are counted once here, for both the model's copy and the screen (binary output shows neither).
    const lines = this.binary ? 0 : countLines(chunk);
    this.capture.push(chunk, lines);
    if (this.options.sandbox === true) this.signs.push(chunk);
    if (!this.binary) this.live?.push(chunk, lines);
  };

  private killTree(signal: NodeJS.Signals, atExit = false): void {
    if (this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, signal);
      } catch {
        // The group is already gone.
      }
    }
    if (signal !== 'SIGKILL') return;
    // Those that left the group (setsid): the cgroup holds them, or the marker names them. (In
    // the sandbox, once the command has exited, the PID namespace has ended them already: its
    // dying processes are no news, and reading the cgroup would cost every call.)
    const { cgroup, marker } = this.launch;
    if (cgroup !== undefined && !(atExit && this.options.sandbox === true)) {
      if (this.options.sandbox !== true && cgroup.members().length > 0) this.leftoversEnded = true;
      cgroup.killAll();
    }
    if (marker !== undefined && killMarked(marker) > 0) this.leftoversEnded = true;
  }

  private stop(): void {
    this.killTree('SIGTERM');
    this.forceTimer ??= setTimeout(() => this.killTree('SIGKILL'), this.grace);
  }

  /** Waits for the command to exit, stopping it at the timeout or on cancel. */
  async waitForExit(): Promise<ChildExit> {
    const { options, child } = this;
    const timer = setTimeout(() => {
      this.timedOut = true;
      this.stop();
    }, options.timeoutMs);
    const onAbort = () => {
      this.cancelled = true;
      this.stop();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    const exit = await new Promise<ChildExit>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
    });
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
    return exit;
  }

  /** Ends what the command left running and reads its output to the end; true when a held pipe was cut. */
  async endTree(): Promise<boolean> {
    const { child } = this;
    // Whatever the command left running does not outlive it. Unsandboxed, wait until it is gone
    // (in the sandbox the PID namespace's end is the kernel's own, and waiting would cost every call).
    this.killTree('SIGKILL', true);
    if (this.options.sandbox !== true) await this.launch.cgroup?.killAllAndWait();
    if (this.forceTimer !== undefined) clearTimeout(this.forceTimer);
    // Read to the end, but not forever: a pipe still held after the grace period is closed by us.
    let held: NodeJS.Timeout | undefined;
    const patience = new Promise((resolve) => {
      held = setTimeout(resolve, Math.min(this.grace, 500));
    });
    await Promise.race([this.streamsClosed, patience]);
    clearTimeout(held);
    const outputCut = child.stdout?.closed === false || child.stderr?.closed === false;
    if (outputCut) {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    return outputCut;
  }

  /** What the run comes to: exit status, bounded output, the limit that stopped it, the cgroup's peaks. */
  result(
    exit: ChildExit,
    end: { readonly counts: CgroupCounts | undefined; readonly outputCut: boolean; readonly started: number },
  ): CommandRunResult {
    const { capture, binary, options, launch } = this;
    const { counts, outputCut } = end;
    if (!binary) this.live?.flush();
    if (exit.error !== undefined) capture.push(Buffer.from(`${launch.file}: ${exit.error.message}\n`));
    const { head, tail, dropped, droppedLines } = capture.result();
    const output = binary
      ? ''
      : dropped > 0
        ? `${head.toString('utf8')}\n${cutNotice(droppedLines, dropped)}\n${tail.toString('utf8')}`
        : Buffer.concat([head, tail]).toString('utf8');
    // bubblewrap reports a command killed by a signal as exit code 128 + the signal's number.
    const sandboxSignal = options.sandbox === true && exit.signal === null ? signalOfStatus(exit.code) : undefined;
    const signal = sandboxSignal ?? exit.signal ?? null;
    const limit =
      launch.bounds === undefined
        ? undefined
        : detectLimit({
            bounds: launch.bounds,
            ...(counts === undefined ? {} : { counts }),
            signal,
            signs: this.signs,
          });
    return {
      exitCode: sandboxSignal === undefined ? (exit.error === undefined ? exit.code : 127) : null,
      signal,
      timedOut: this.timedOut,
      cancelled: this.cancelled,
      output,
      outputBytes: capture.total,
      droppedBytes: binary ? capture.total : dropped,
      binary,
      durationMs: performance.now() - end.started,
      ...(limit === undefined ? {} : { limit }),
      ...(this.leftoversEnded ? { leftoversEnded: this.leftoversEnded } : {}),
      ...(outputCut ? { outputCut } : {}),
      ...(counts === undefined
        ? {}
        : {
            peak: {
              ...(counts.peakProcesses === undefined ? {} : { processes: counts.peakProcesses }),
              ...(counts.peakMemoryBytes === undefined ? {} : { memoryBytes: counts.peakMemoryBytes }),
            },
          }),
    };
  }
}

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number as number, name]));

function signalOfStatus(exitCode: number | null): string | undefined {
  return exitCode !== null && exitCode > 128 ? SIGNAL_NAMES.get(exitCode - 128) : undefined;
}
