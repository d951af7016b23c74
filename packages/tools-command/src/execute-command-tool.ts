import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { defineTool, toolFailure } from '@riskgate/risk';
import { z } from 'zod';
import { assessCommand } from './command-assessor.js';
import { childEnvironment } from './child-environment.js';
import { type CommandRunResult, runCommand } from './command-runner.js';
import { hostViewLine } from './sandbox.js';

export const COMMAND_TOOL_NAME = 'execute_command';

export const executeCommandParameters = z.object({
  command: z.string().min(1, 'the command is empty').max(100_000).describe('One bash command line.'),
  cwd: z.string().min(1).optional().describe('Directory to run in, relative to the workspace. Defaults to the workspace.'),
  timeout_ms: z.number().int().positive().max(3_600_000).optional().describe('Stop the command after this many milliseconds (default 120000).'),
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
}

export function createExecuteCommandTool(options: CommandToolOptions = {}) {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 120_000;
  const maxOutputBytes = options.maxOutputBytes ?? 30_000;
  const environment = () => childEnvironment(process.env, { pass: options.passEnvironment ?? [], secretValues: options.secretValues ?? [] });
  return defineTool({
    name: COMMAND_TOOL_NAME,
    description:
      'Run one bash command line in the workspace and return its output and exit code. Read-only commands (ls, cat, grep, git log, …) run at once; anything that writes, deletes, installs or reaches the network is shown to the user, who must confirm it.',
    parameters: executeCommandParameters,
    ruleStyle: 'text',
    // The `cwd` argument is where relative paths resolve: a cwd inside ~/.aws makes `cat credentials` a secret read.
    assess: async ({ command, cwd }, context) =>
      assessCommand(command, {
        cwd: resolve(context.cwd, expandHome(cwd ?? '.', context.home)),
        ...(context.home === undefined ? {} : { home: context.home }),
        ...(context.sandbox === undefined ? {} : { sandbox: context.sandbox }),
      }),
    describe: ({ command, cwd }, context) => ({
      kind: 'command',
      command,
      cwd: resolve(context.cwd, expandHome(cwd ?? '.', context.home)),
      details: [],
    }),
    execute: async ({ command, cwd, timeout_ms }, context) => {
      const directory = resolve(context.cwd, expandHome(cwd ?? '.', context.home));
      if (!existsSync(directory) || !statSync(directory).isDirectory()) {
        return toolFailure('command-bad-cwd', `no directory at ${directory}`);
      }
      const sandboxed = context.sandbox === true && (context.readOnly || options.sandbox === 'always');
      // `ps aux`, `ip a`, `ss -tln`: readers of host state keep the host's process and network view.
      const hostView = sandboxed && hostViewLine((await assessCommand(command, { cwd: directory, ...(context.home === undefined ? {} : { home: context.home }), sandbox: true })).subjects);
      const result = await runCommand(command, {
        cwd: directory,
        timeoutMs: timeout_ms ?? defaultTimeoutMs,
        signal: context.signal,
        maxOutputBytes,
        // A whitelisted command runs in the sandbox whenever the host found one: the sandbox is
        // what makes the rows marked sandboxOnly safe to whitelist.
        sandbox: sandboxed,
        ...(hostView ? { hostView: true } : {}),
        workspace: context.cwd,
        // The home the assessor judged `~` against is the one the command's `~` and $HOME name.
        ...(context.home === undefined ? {} : { home: context.home }),
        env: context.home === undefined ? environment() : { ...environment(), HOME: context.home },
        ...(context.onOutput === undefined ? {} : { onOutput: context.onOutput }),
      });
      return { type: 'tool-success', forModel: formatForModel(result, directory, context.cwd), data: result } as const;
    },
  });
}

/** `~` in the cwd argument means the home directory, as in the shell. */
function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

function formatForModel(result: CommandRunResult, directory: string, workspace: string): string {
  const where = relative(workspace, directory);
  const status = result.timedOut
    ? 'stopped: timed out'
    : result.cancelled
      ? 'stopped: cancelled'
      : result.signal !== null
        ? `killed by ${result.signal}`
        : `exit code ${result.exitCode}`;
  const body = result.binary ? `(binary output, ${result.outputBytes.toLocaleString('en-US')} bytes, not shown)` : result.output || '(no output)';
  const place = where === '' || isAbsolute(where) ? '' : ` in ${where}`;
  return `${body.replace(/\n$/, '')}\n[${status}${place}, ${Math.round(result.durationMs)} ms]`;
}
