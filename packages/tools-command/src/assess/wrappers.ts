import type { Effect } from '@riskgate/risk';
import { pathEffects } from './paths.js';
import type { Walk } from './walk.js';
import { joinWords, runWords } from './simple-command.js';
import { assignmentEffect } from './variables.js';
import { UNKNOWN, type WordValue } from './words.js';

/**
 * Wrappers run another command: they are looked through, never trusted. Each row says which
 * options take a value, how many operands come before the command, and what the wrapper adds
 * itself (sudo changes privileges, watch never ends). The wrapped command is judged as if
 * written alone and yields its own rule subject (`sudo rm x` is also `rm x`).
 */
export interface WrapperRow {
  /** Options that take the next word as their value. */
  readonly values?: readonly string[];
  /** Options that take a file the wrapper writes (time -o). */
  readonly writes?: readonly string[];
  /** Operands before the command (timeout DURATION, chroot DIR, flock FILE). */
  readonly skip?: number;
  /** Option whose value is a script to judge (su -c, flock -c, watch's joined words). */
  readonly scriptOption?: readonly string[];
  /** What the wrapper does itself. */
  readonly effects?: readonly Effect[];
  /** With no command, what the wrapper does alone (env prints the environment). */
  readonly alone?: readonly Effect[];
  /** Every word after the options is one script (watch 'cmd'). */
  readonly joins?: boolean;
}

export type WrapperHandler = (walk: Walk, name: string, args: readonly WordValue[]) => void;

const asRoot = (name: string): Effect => ({ kind: 'change-privilege', detail: `${name} runs a command as another user (root by default)` });

export const WRAPPER_ROWS: Readonly<Record<string, WrapperRow>> = {
  // Scheduling and limits: they run the command unchanged.
  nice: { values: ['-n', '--adjustment'] },
  nohup: {},
  setsid: {},
  stdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  time: { values: ['-f', '--format'], writes: ['-o', '--output'] },
  timeout: { values: ['-s', '--signal', '-k', '--kill-after'], skip: 1 },
  // ionice -p/-P/-u PID… changes running processes' I/O priority (no command to look through).
  ionice: { values: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid'], alone: [{ kind: 'control-process', detail: "ionice without a command changes running processes' I/O priority" }] },
  taskset: { values: ['-p'], skip: 1 },
  chrt: { skip: 1 },
  caffeinate: {},
  unbuffer: {},
  // flock FILE cmd, or flock FILE -c 'cmd'.
  flock: { values: ['-w', '--timeout', '-E', '--conflict-exit-code'], skip: 1, scriptOption: ['-c', '--command'] },
  // watch runs its words as a shell line every two seconds, until stopped.
  watch: { values: ['-n', '--interval', '-d', '--differences'], joins: true, effects: [{ kind: 'unbounded', resource: 'time', detail: 'watch runs its command until it is stopped' }] },
  // Other users and roots.
  sudo: { values: ['-u', '--user', '-g', '--group', '-C', '--close-from', '-D', '--chdir', '-h', '--host', '-p', '--prompt', '-r', '--role', '-t', '--type', '-U', '--other-user', '-T', '--command-timeout'], effects: [asRoot('sudo')], alone: [{ kind: 'change-privilege', detail: 'sudo without a command opens a root shell or changes its own state' }] },
  doas: { values: ['-u', '-C'], effects: [asRoot('doas')], alone: [{ kind: 'change-privilege', detail: 'doas without a command opens a root shell' }] },
  pkexec: { values: ['--user'], effects: [asRoot('pkexec')], alone: [{ kind: 'change-privilege', detail: 'pkexec without a command opens a root shell' }] },
  su: { values: ['-s', '--shell', '-g', '--group', '-G', '--supp-group', '-w', '--whitelist-environment'], scriptOption: ['-c', '--command', '--session-command'], effects: [asRoot('su')], alone: [{ kind: 'change-privilege', detail: 'su opens a shell as another user' }] },
  runuser: { values: ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-s', '--shell'], scriptOption: ['-c', '--command'], effects: [asRoot('runuser')], alone: [{ kind: 'change-privilege', detail: 'runuser opens a shell as another user' }] },
  chroot: { values: ['--userspec', '--groups'], skip: 1, effects: [{ kind: 'change-privilege', detail: 'chroot runs a command with another root directory' }] },
  unshare: { values: ['--map-user', '--map-group', '--setuid', '--setgid', '--root', '--wd', '-S', '-G', '-R', '-w'], effects: [{ kind: 'change-privilege', detail: 'unshare runs a command in new namespaces' }] },
  nsenter: { values: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd'], effects: [{ kind: 'change-privilege', detail: "nsenter runs a command in another process's namespaces" }] },
  // busybox APPLET args: the applet is the program.
  busybox: {},
};

/** Skip the wrapper's own options; returns the index of the wrapped command, handling scripts given by option. */
function unwrap(walk: Walk, name: string, row: WrapperRow, args: readonly WordValue[]): void {
  for (const effect of row.effects ?? []) walk.emit({ ...effect, via: name });
  let index = 0;
  for (; index < args.length; index++) {
    const word = args[index]!;
    const value = word.value;
    if (value === undefined || !value.startsWith('-') || value === '-') break;
    if (value === '--') {
      index++;
      break;
    }
    const [option, attached] = value.startsWith('--') ? (value.split(/=(.*)/s) as [string, string | undefined]) : [value.slice(0, 2), value.length > 2 ? value.slice(2) : undefined];
    const operand = attached === undefined ? args[index + 1] : undefined;
    if (row.scriptOption?.includes(option)) {
      walk.script(attached ?? operand?.value, `${name} ${option}`);
      return;
    }
    if (row.writes?.includes(option)) {
      const target = attached === undefined ? operand : { raw: attached, texts: [attached], value: attached, unknown: false, glob: false };
      if (target !== undefined) pathEffects(walk, 'write', target, { via: `${name} ${option}` });
    }
    if (attached === undefined && (row.values?.includes(option) || row.writes?.includes(option))) index++;
  }
  index += row.skip ?? 0;
  const rest = args.slice(index);
  if (rest.length === 0) {
    for (const effect of row.alone ?? []) walk.emit({ ...effect, via: name });
    return;
  }
  if (row.joins === true) walk.script(joinWords(rest), name);
  else runWords(walk, rest, name);
}

/** env [-i] [-u NAME] [-C DIR] [-S 'words'] [NAME=value…] [command]: alone it prints the environment. */
function env(walk: Walk, name: string, args: readonly WordValue[]): void {
  let index = 0;
  let cleared = false;
  const saved = walk.scope.cwd;
  try {
    for (; index < args.length; index++) {
      const value = args[index]!.value;
      if (value === undefined) {
        walk.emit({ kind: 'unknown', severity: 'high', detail: `env gets ${args[index]!.raw}, known only at run time` });
        return;
      }
      if (value === '-i' || value === '--ignore-environment' || value === '-') cleared = true;
      else if (value === '-u' || value === '--unset') index++;
      else if (value === '-C' || value === '--chdir') walk.scope.cwd = walk.resolvePath(args[++index]?.value ?? UNKNOWN);
      else if (value === '-S' || value === '--split-string' || value.startsWith('-S') || value.startsWith('--split-string=')) {
        // -S splits one word into a command line: judge it as one, with the words that follow.
        const inline = value.startsWith('--split-string=') ? value.slice(15) : value.length > 2 && !value.startsWith('--') ? value.slice(2) : args[++index]?.value;
        const following = joinWords(args.slice(index + 1));
        walk.emit({ kind: 'run-program', program: inline ?? 'a command known only at run time', via: 'env -S' });
        walk.script(inline === undefined || following === undefined ? undefined : `${inline} ${following}`.trim(), 'env -S');
        return;
      } else if (value === '--') {
        index++;
        break;
      } else if (value.startsWith('-') && !/^-[0iv]+$|^--(null|debug|unset=.*|chdir=.*|ignore-signal.*|default-signal.*|block-signal.*)$/.test(value)) {
        walk.emit({ kind: 'unknown', detail: `env ${value} is an option riskgate does not read` });
      } else if (!value.startsWith('-')) {
        const assignment = /^([^=]+)=/s.exec(value);
        if (assignment === null) break;
        const effect = assignmentEffect(assignment[1]!, value);
        if (effect !== undefined) walk.emit(effect);
      }
    }
    if (index >= args.length) {
      if (!cleared) walk.readEnvironment('all', name);
      return;
    }
    runWords(walk, args.slice(index), name);
  } finally {
    walk.scope.cwd = saved;
  }
}

/** xargs runs a command with words read from its input appended (or put where -I says). */
function xargs(walk: Walk, name: string, args: readonly WordValue[]): void {
  const values = new Set(['-d', '--delimiter', '-E', '-e', '--eof', '-L', '-l', '--max-lines', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var']);
  let replace: string | undefined;
  let fromFile = false;
  let index = 0;
  for (; index < args.length; index++) {
    const value = args[index]!.value;
    if (value === undefined || !value.startsWith('-')) break;
    if (value === '--') {
      index++;
      break;
    }
    if (value === '-I') replace = args[++index]?.value ?? '{}';
    else if (value.startsWith('-I') || value.startsWith('--replace')) replace = value.startsWith('-I') ? value.slice(2) : (value.split('=')[1] ?? '{}');
    else if (value === '-i') replace = '{}';
    else if (value === '-a' || value === '--arg-file' || value.startsWith('--arg-file=')) {
      const file = value.includes('=') ? undefined : args[++index];
      if (file !== undefined) pathEffects(walk, 'read', file, { via: 'xargs -a' });
      fromFile = true;
    } else if (values.has(value)) index++;
  }
  const inner = args.slice(index);
  const producer = fromFile ? undefined : walk.producer;
  // The words xargs adds: names from a producer (find . | xargs …), or anything at all.
  const input: WordValue = producer === undefined
    ? { raw: 'words read from the input', texts: [UNKNOWN], value: undefined, unknown: true, glob: false }
    : { raw: 'names read from the input', texts: [producer.path], value: undefined, unknown: false, glob: false, tree: producer };
  const command = inner.length === 0 ? [{ raw: 'echo', texts: ['echo'], value: 'echo', unknown: false, glob: false }] : inner;
  const words = replace === undefined ? [...command, input] : command.map((word, position) => (position > 0 && (word.value ?? word.raw).includes(replace!) ? input : word));
  runWords(walk, words, name);
}

export const WRAPPERS: ReadonlyMap<string, WrapperHandler> = new Map<string, WrapperHandler>([
  ...Object.entries(WRAPPER_ROWS).map(([name, row]) => [name, (walk: Walk, wrapper: string, args: readonly WordValue[]) => unwrap(walk, wrapper, row, args)] as const),
  ['env', env],
  ['xargs', xargs],
]);
