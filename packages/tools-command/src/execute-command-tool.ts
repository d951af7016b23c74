import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import {
  notAssessed,
  type AssessContext,
  defineTool,
  type Effect,
  type ExecuteContext,
  expandHome,
  findSecretsIn,
  type PlannedReport,
  replaceFindings,
  secretFilesBelow,
  toolFailure,
  walkedRecently,
} from '@riskgate/risk';
import { z } from 'zod/v4';
import { assessCommand } from './command-assessor.js';
import { childEnvironment } from './child-environment.js';
import { type CommandRunResult, type RunCommandOptions, runCommand } from './command-runner.js';
import { type HostReader, splitHostReader } from './host-reader.js';
import type { ResourceBounds } from './resource-bounds.js';
import { limitWords } from './run-limits.js';

export const COMMAND_TOOL_NAME = 'execute_command';

export const executeCommandParameters = z.object({
  command: z.string().min(1, 'the command is empty').max(100_000).describe('One bash command line.'),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe('Directory to run in, relative to the workspace. Defaults to the workspace.'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(3_600_000)
    .optional()
    .describe('Stop the command after this many milliseconds (default 120000).'),
});

export interface CommandToolOptions {
  readonly defaultTimeoutMs?: number;
  /** Bytes of output the model receives (head and tail kept). */
  readonly maxOutputBytes?: number;
  /**
   * Which commands run in the sandbox when the host found it working (`context.sandbox`):
   * `whitelisted` (default) — those that run unasked because they are whitelisted; `always` —
   * every command, approved ones too (an approved write then fails: for people who want
   * riskgate to look, never touch).
   */
  readonly sandbox?: 'whitelisted' | 'always';
  /** Secret-named environment variables the person lets commands see (`commands.passEnvironment`). */
  readonly passEnvironment?: readonly string[];
  /** Values no command may see under any name: riskgate's own API key. */
  readonly secretValues?: readonly string[];
  /** Bounds of sandboxed runs (resource-bounds.ts DEFAULT_BOUNDS for what is not given). */
  readonly bounds?: Partial<ResourceBounds>;
  /** Bounds of the judge's scan of the workspace for secret files (50,000 entries, 10 s). */
  readonly workspaceScan?: { readonly maxEntries?: number; readonly budgetMs?: number };
}

/** What the assessor worked out that the panel and the run need. */
export interface CommandPlan {
  /** Where the command runs (the `cwd` argument resolved against the workspace, `~` expanded). */
  readonly directory: string;
  readonly timeoutMs: number;
  /**
   * The sandbox's host view: the lone host reader split off the line (host-reader.ts), when the
   * host has a sandbox. Undefined: no part of the line gets the host's PID or network view.
   */
  readonly hostReader: HostReader | undefined;
}

/** What a host reader may hand the rest of its line: far more than any process list. */
const READER_OUTPUT_BYTES = 8 * 1024 * 1024;

/** The tool's options with their defaults filled in. */
interface Settings {
  readonly options: CommandToolOptions;
  readonly defaultTimeoutMs: number;
  readonly maxOutputBytes: number;
  readonly environment: () => Readonly<Record<string, string>>;
}

export function createExecuteCommandTool(options: CommandToolOptions = {}) {
  const settings: Settings = {
    options,
    defaultTimeoutMs: options.defaultTimeoutMs ?? 120_000,
    maxOutputBytes: options.maxOutputBytes ?? 30_000,
    environment: () =>
      childEnvironment(process.env, { pass: options.passEnvironment ?? [], secretValues: options.secretValues ?? [] }),
  };
  return defineTool({
    name: COMMAND_TOOL_NAME,
    description:
      'Run one bash command line in the workspace and return its output and exit code. Read-only commands (ls, cat, grep, git log, …) run at once; anything that writes, deletes, installs or reaches the network is shown to the user, who must confirm it.',
    noun: 'command',
    // Any program: it may remove files and reach the network (curl, git push).
    hints: { title: 'Run a shell command', readOnly: false, destructive: true, idempotent: false, openWorld: true },
    title: ({ command }) => command,
    editable: 'command',
    parameters: executeCommandParameters,
    ruleStyle: 'text',
    assess: (args, context) => assessCall(args, context, settings),
    describe: ({ command }, _context, plan) => ({ kind: 'command', command, cwd: plan.directory, details: [] }),
    // What runs is what was assessed: no plan, nothing runs.
    execute: async (args, context, plan) =>
      plan === undefined
        ? notAssessed(COMMAND_TOOL_NAME, 'command-not-assessed')
        : executeCall(args.command, context, plan, settings),
  });
}

type CommandArgs = z.output<typeof executeCommandParameters>;

// The `cwd` argument is where relative paths resolve: a cwd inside ~/.aws makes `cat credentials` a secret read.
async function assessCall(
  { command, cwd, timeout_ms }: CommandArgs,
  context: AssessContext,
  settings: Settings,
): Promise<PlannedReport<CommandPlan>> {
  const { defaultTimeoutMs } = settings;
  const directory = resolve(context.cwd, expandHome(cwd ?? '.', context.home));
  // `ps aux | grep node`: only a lone reader gets the host's process and network view, by
  // host-reader.ts's table alone, whatever the judge concludes about the line; the rest of the
  // line stays fully sandboxed. Worked out here once, used by execute if it runs sandboxed.
  const plan: CommandPlan = {
    directory,
    timeoutMs: timeout_ms ?? defaultTimeoutMs,
    hostReader: context.sandbox === true ? await splitHostReader(command) : undefined,
  };
  const report = await assessCommand(command, {
    cwd: directory,
    ...(context.home === undefined ? {} : { home: context.home }),
    ...(context.sandbox === undefined ? {} : { sandbox: context.sandbox }),
  });
  const added = workspaceScanEffects(report.effects, context, settings);
  // The model's own timeout is a bound too: `sleep 3600` with timeout_ms of an hour would hold a
  // sandbox for an hour unasked. Longer than the default, the person is asked.
  if (timeout_ms !== undefined && timeout_ms > defaultTimeoutMs) {
    const detail = `runs up to ${duration(timeout_ms)} (timeout_ms), longer than the ${duration(defaultTimeoutMs)} an unasked command may take`;
    added.push({ kind: 'unbounded', resource: 'time', detail });
  }
  return { ...report, effects: added.length === 0 ? report.effects : [...report.effects, ...added], plan };
}

/**
 * The sandbox hides the workspace's secret files that its scan found; a scan cut short by its
 * bounds (a first walk of a huge tree) may have missed some, so the call is asked rather than
 * run with them visible. Only a call that could run unasked needs it: any effect but a read makes
 * the call asked anyway (`git log; rm -rf ~`), and an approved call's sandbox walks the workspace
 * itself.
 */
function workspaceScanEffects(effects: readonly Effect[], context: AssessContext, settings: Settings): Effect[] {
  const couldRunUnasked = effects.every(
    (effect) =>
      effect.kind === 'read-path' ||
      effect.kind === 'list-path' ||
      effect.kind === 'read-env' ||
      effect.kind === 'read-db',
  );
  if (context.sandbox !== true || !couldRunUnasked) return [];
  // 10 s: the first walk reads every file whole (a repository with its build output takes
  // seconds cold); cached, a later call costs one lstat per directory and per file read.
  const bounds = {
    budgetMs: 10_000,
    ...settings.options.workspaceScan,
    ...(context.home === undefined ? {} : { home: context.home }),
  };
  // A walk that completed in the last minute within these bounds answers (each sandboxed run
  // walks again: the boundary does not rest on this answer); else the walk, which warms the caches.
  if (walkedRecently(context.cwd, bounds) || secretFilesBelow(context.cwd, bounds).complete) return [];
  return [
    {
      kind: 'unknown',
      detail:
        'the workspace holds more files than riskgate could check for secrets in time, so the sandbox cannot hide them all yet',
    },
  ];
}

async function executeCall(command: string, context: ExecuteContext, plan: CommandPlan, settings: Settings) {
  const { directory, timeoutMs } = plan;
  const { options } = settings;
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    return toolFailure('command-bad-cwd', `no directory at ${directory}`);
  }
  const sandboxed = context.sandbox === true && (context.readOnly || options.sandbox === 'always');
  const hostReader = sandboxed ? plan.hostReader : undefined;
  const environment = settings.environment();
  const common: RunCommandOptions = {
    cwd: directory,
    timeoutMs,
    signal: context.signal,
    maxOutputBytes: settings.maxOutputBytes,
    // A whitelisted command runs in the sandbox whenever the host found one: the sandbox is what
    // makes the rows marked sandboxOnly safe to whitelist.
    sandbox: sandboxed,
    ...(options.bounds === undefined ? {} : { bounds: options.bounds }),
    workspace: context.cwd,
    // The home the assessor judged `~` against is the one the command's `~` and $HOME name.
    ...(context.home === undefined ? {} : { home: context.home }),
    env: context.home === undefined ? environment : { ...environment, HOME: context.home },
    ...(context.onOutput === undefined ? {} : { onOutput: context.onOutput }),
  };
  const result =
    hostReader?.rest !== undefined
      ? await runReaderThenRest(command, { ...hostReader, rest: hostReader.rest }, common)
      : await runCommand(command, { ...common, ...(hostReader === undefined ? {} : { hostReader }) });
  return {
    type: 'tool-success',
    forModel: formatForModel(result, directory, context.cwd, timeoutMs),
    data: result,
    ...partial(result),
  } as const;
}

/**
 * The host's process list holds other programs' arguments (`mysql -pPASS`, `--requirepass X`),
 * and the rest of the line may turn them into a form no output guard reads (`ps -eo args | rev`
 * handed all seven over). So the reader runs first, alone, its secrets are withheld, and only
 * then does the sandboxed rest read what is left on its stdin.
 */
async function runReaderThenRest(
  command: string,
  { program, args, rest }: HostReader & { readonly rest: string },
  common: RunCommandOptions,
): Promise<CommandRunResult> {
  const { onOutput: _live, ...quiet } = common;
  const read = await runCommand(command, {
    ...quiet,
    maxOutputBytes: READER_OUTPUT_BYTES,
    hostReader: { program, args },
  });
  if (read.timedOut || read.cancelled || read.limit !== undefined) return read;
  const stdin = replaceFindings(
    read.output,
    findSecretsIn(read.output),
    (what) => `[withheld: ${what} — hidden before the rest of the line read it]`,
  );
  const result = await runCommand(rest, {
    ...common,
    stdin,
    timeoutMs: Math.max(1_000, common.timeoutMs - read.durationMs),
  });
  return { ...result, durationMs: read.durationMs + result.durationMs };
}

/** A run stopped before its end — at its timeout, on a cancel, at a bound, or killed by a signal. */
function stoppedPartWay(result: CommandRunResult): boolean {
  return result.timedOut || result.cancelled || result.limit !== undefined || result.signal !== null;
}

function partial(result: CommandRunResult): { partial?: true } {
  return stoppedPartWay(result) ? { partial: true } : {};
}

/** "5 s", "2 minutes", "60 minutes". */
function duration(ms: number): string {
  if (ms < 10_000 && ms % 1000 !== 0) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.round(ms / 60_000);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * The result for the model (and the screen, which shows the same text): the output, then how
 * it ended in words that do not flatter — a run stopped at a bound or the timeout is never
 * "exit code 0".
 */
export function formatForModel(
  result: CommandRunResult,
  directory: string,
  workspace: string,
  timeoutMs?: number,
): string {
  const where = relative(workspace, directory);
  const ending = result.timedOut
    ? `timed out after ${timeoutMs === undefined ? 'its timeout' : duration(timeoutMs)}`
    : result.cancelled
      ? 'cancelled'
      : result.signal !== null
        ? `killed by ${result.signal}`
        : `exit code ${result.exitCode}`;
  const status =
    result.limit !== undefined
      ? `${limitWords(result.limit)}; ${ending}`
      : result.timedOut || result.cancelled
        ? `stopped: ${ending}`
        : ending;
  const leftovers =
    (result.leftoversEnded === true ? '; processes it left running were ended' : '') +
    (result.outputCut === true ? '; a process it started still held its output, which riskgate stopped reading' : '');
  const body = result.binary
    ? `(binary output, ${result.outputBytes.toLocaleString('en-US')} bytes, not shown)`
    : result.output || '(no output)';
  const place = where === '' || isAbsolute(where) ? '' : ` in ${where}`;
  // A command stopped part-way did some of its work: the model must not take it for "not run" and repeat it whole.
  const partly = stoppedPartWay(result)
    ? '\npartial: the command was stopped part-way; what it did before it stopped stays done — check before running it again'
    : '';
  return `${body.replace(/\n$/, '')}\n[${status}${leftovers}${place}, ${Math.round(result.durationMs)} ms]${partly}`;
}
