import type { Effect } from '@riskgate/risk';
import { pathEffects } from './paths.js';
import type { WalkHost as Walk } from './walk-host.js';
import { assignmentEffect } from './variables.js';
import { joinWords, UNKNOWN, type WordValue } from './words.js';
import { type Arity, type GetoptSpec, getopt } from './getopt.js';

/**
 * Wrappers run another command: they are looked through, never trusted. Each row is the
 * wrapper's getopt table (getopt.ts: clusters, attached values, abbreviations, `--`, and the
 * first operand ending options, as the `+` in every wrapper's getopt string says), how many
 * operands come before the command, and what the wrapper adds itself (sudo changes privileges,
 * watch never ends). An option not in the table is asked about (options fail closed: the walk
 * could not know whether it takes the next word, and so which word is the command). The wrapped
 * command is judged as if written alone and yields its own rule subject (`sudo rm x` is also `rm x`).
 */
export interface WrapperRow {
  /** The wrapper's options (getopt.ts), aliases separated by spaces. */
  readonly options?: Readonly<Record<string, Arity>>;
  /** Options (first alias) whose value is a file the wrapper writes (time -o). */
  readonly writes?: readonly string[];
  /** Options (first alias) that make the operands other processes to change, not a command (taskset -p). */
  readonly controls?: Readonly<Record<string, string>>;
  /** Operands before the command (timeout DURATION, chroot DIR, flock FILE). */
  readonly skip?: number;
  /** Option whose value is a script to judge (su -c). */
  readonly scriptOption?: readonly string[];
  /** After the skipped operands, `-c SCRIPT` instead of a command (flock FILE -c 'cmd'). */
  readonly scriptAfterSkip?: readonly string[];
  /** What the wrapper does itself. */
  readonly effects?: readonly Effect[];
  /** With no command, what the wrapper does alone (env prints the environment). */
  readonly alone?: readonly Effect[];
  /** Every word after the options is one script (watch 'cmd'), unless an option says otherwise (watch -x). */
  readonly joins?: boolean;
  readonly execOption?: string;
  /** Unlisted options only add a reason (the wrapper is asked about anyway: sudo, su…). */
  readonly lenient?: boolean;
}

export type WrapperHandler = (walk: Walk, name: string, args: readonly WordValue[]) => void;

const asRoot = (name: string): Effect => ({
  kind: 'change-privilege',
  detail: `${name} runs a command as another user (root by default)`,
});
const flags = (text: string): Record<string, Arity> =>
  Object.fromEntries(text.split(',').map((aliases) => [aliases.trim(), 'none' as Arity]));
const values = (text: string): Record<string, Arity> =>
  Object.fromEntries(text.split(',').map((aliases) => [aliases.trim(), 'required' as Arity]));

/** su and runuser (util-linux 2.38): a login shell or a command as another user, run by that shell. */
const SHELL_AS_USER_FLAGS = flags('-l --login, -m -p --preserve-environment, -f --fast, -P --pty');
const SHELL_AS_USER = { lenient: true, scriptOption: ['-c', '--session-command'] } as const;

export const WRAPPER_ROWS: Readonly<Record<string, WrapperRow>> = {
  // Scheduling and limits: they run the command unchanged (coreutils 9, util-linux 2.38 tables).
  nice: { options: values('-n --adjustment') },
  nohup: { options: {} },
  setsid: { options: flags('-c --ctty, -f --fork, -w --wait') },
  stdbuf: { options: values('-i --input, -o --output, -e --error') },
  // GNU time; bash's own `time` keyword takes only -p.
  time: {
    options: {
      ...values('-f --format, -o --output'),
      ...flags('-a --append, -p --portability, -v --verbose, -q --quiet'),
    },
    writes: ['-o'],
  },
  timeout: {
    options: { ...values('-s --signal, -k --kill-after'), ...flags('--foreground, --preserve-status, -v --verbose') },
    skip: 1,
  },
  // ionice -p/-P/-u ID… reads or changes running processes' I/O priority (no command to look through).
  ionice: {
    options: { ...values('-c --class, -n --classdata'), ...flags('-p --pid, -P --pgid, -u --uid, -t --ignore') },
    controls: {
      '-p': 'ionice -p changes the I/O priority of running processes',
      '-P': 'ionice -P changes the I/O priority of process groups',
      '-u': "ionice -u changes the I/O priority of a user's processes",
    },
    alone: [{ kind: 'control-process', detail: "ionice without a command changes running processes' I/O priority" }],
  },
  // taskset MASK cmd; taskset -p [MASK] PID changes a running process's CPU affinity.
  taskset: {
    options: flags('-a --all-tasks, -c --cpu-list, -p --pid'),
    controls: { '-p': "taskset -p changes a running process's CPU affinity" },
    skip: 1,
  },
  // chrt PRIO cmd; chrt -p [PRIO] PID changes a running process's scheduling.
  chrt: {
    options: {
      ...flags(
        '-a --all-tasks, -b --batch, -d --deadline, -e --ext, -f --fifo, -i --idle, -o --other, -r --rr, -R --reset-on-fork, -v --verbose, -m --max, -p --pid',
      ),
      ...values('-T --sched-runtime, -P --sched-period, -D --sched-deadline'),
    },
    controls: {
      '-p': "chrt -p changes a running process's scheduling policy",
      '-m': 'chrt -m only prints the priorities',
    },
    skip: 1,
  },
  caffeinate: { options: flags('-d, -i, -m, -s, -u'), lenient: true },
  unbuffer: { options: flags('-p') },
  // flock FILE cmd, or flock FILE -c 'cmd' (util-linux: -c only right after the file).
  flock: {
    options: {
      ...flags('-s --shared, -x -e --exclusive, -u --unlock, -n --nonblock --nb, -o --close, -F --no-fork, --verbose'),
      ...values('-w --timeout --wait, -E --conflict-exit-code'),
    },
    skip: 1,
    scriptAfterSkip: ['-c', '--command'],
  },
  // watch runs its words as a shell line every two seconds, until stopped (-x: as a command).
  watch: {
    options: {
      ...flags(
        '-b --beep, -c --color, -C --no-color, -e --errexit, -g --chgexit, -p --precise, -t --no-title, -w --no-wrap, -x --exec, -r --no-rerun',
      ),
      ...values('-n --interval, -q --equexit'),
      '-d --differences': 'optional',
    },
    joins: true,
    execOption: '-x',
    effects: [{ kind: 'unbounded', resource: 'time', detail: 'watch runs its command until it is stopped' }],
  },
  // Other users and roots: always asked (they change privileges); looked through for rule subjects.
  sudo: {
    options: {
      ...values(
        '-u --user, -g --group, -C --close-from, -D --chdir, -h --host, -p --prompt, -r --role, -t --type, -U --other-user, -T --command-timeout',
      ),
      ...flags(
        '-A --askpass, -b --background, -E --preserve-env, -H --set-home, -i --login, -k --reset-timestamp, -K --remove-timestamp, -l --list, -n --non-interactive, -P --preserve-groups, -S --stdin, -s --shell, -v --validate, -B --bell, -N --no-update, -R --chroot',
      ),
    },
    lenient: true,
    effects: [asRoot('sudo')],
    alone: [{ kind: 'change-privilege', detail: 'sudo without a command opens a root shell or changes its own state' }],
  },
  doas: {
    options: { ...values('-u, -C'), ...flags('-n, -s, -L') },
    lenient: true,
    effects: [asRoot('doas')],
    alone: [{ kind: 'change-privilege', detail: 'doas without a command opens a root shell' }],
  },
  pkexec: {
    options: { ...values('--user'), ...flags('--disable-internal-agent, --keep-cwd') },
    lenient: true,
    effects: [asRoot('pkexec')],
    alone: [{ kind: 'change-privilege', detail: 'pkexec without a command opens a root shell' }],
  },
  su: {
    options: {
      ...values('-s --shell, -g --group, -G --supp-group, -w --whitelist-environment, -c --command, --session-command'),
      ...SHELL_AS_USER_FLAGS,
    },
    ...SHELL_AS_USER,
    effects: [asRoot('su')],
    alone: [{ kind: 'change-privilege', detail: 'su opens a shell as another user' }],
  },
  runuser: {
    options: {
      ...values(
        '-u --user, -g --group, -G --supp-group, -s --shell, -c --command, --session-command, -w --whitelist-environment',
      ),
      ...SHELL_AS_USER_FLAGS,
    },
    ...SHELL_AS_USER,
    effects: [asRoot('runuser')],
    alone: [{ kind: 'change-privilege', detail: 'runuser opens a shell as another user' }],
  },
  chroot: {
    options: values('--userspec, --groups, --skip-chdir'),
    lenient: true,
    skip: 1,
    effects: [{ kind: 'change-privilege', detail: 'chroot runs a command with another root directory' }],
  },
  unshare: {
    options: values('--map-user, --map-group, --setuid, --setgid, --root, --wd, -S, -G, -R, -w'),
    lenient: true,
    effects: [{ kind: 'change-privilege', detail: 'unshare runs a command in new namespaces' }],
  },
  nsenter: {
    options: values('-t --target, -S --setuid, -G --setgid, -r --root, -w --wd'),
    lenient: true,
    effects: [{ kind: 'change-privilege', detail: "nsenter runs a command in another process's namespaces" }],
  },
  // busybox APPLET args: the applet is the program.
  busybox: { options: {} },
};

const specs = new WeakMap<WrapperRow, GetoptSpec>();
function specOf(row: WrapperRow): GetoptSpec {
  let spec = specs.get(row);
  if (spec === undefined) {
    spec = { options: row.options ?? {}, stopAtOperand: true };
    specs.set(row, spec);
  }
  return spec;
}

/** Read the wrapper's own options exactly (getopt.ts), then judge what it runs. */
function unwrap(walk: Walk, name: string, row: WrapperRow, words: readonly WordValue[]): void {
  for (const effect of row.effects ?? []) walk.emit({ ...effect, via: name });
  // coreutils nice takes an obsolete `-N` / `--N` adjustment as its first word.
  const args = name === 'nice' && /^-[-+]?\d+$/.test(words[0]?.value ?? '') ? words.slice(1) : words;
  const parsed = getopt(specOf(row), args);
  let controlled: string | undefined;
  for (const option of parsed.options) {
    if (option.unlisted) {
      walk.emit({
        kind: 'unknown',
        ...(row.lenient ? {} : { severity: 'high' as const }),
        detail: `${name} ${option.name} is not among the options riskgate reads for ${name}, so it cannot tell which word is the command`,
        via: `${name} ${option.name}`,
      });
      continue;
    }
    if (row.scriptOption?.includes(option.name)) {
      walk.script(option.value?.value, `${name} ${option.name}`);
      return;
    }
    if (row.writes?.includes(option.name) && option.value !== undefined)
      pathEffects(walk, 'write', option.value, { via: `${name} ${option.name}` });
    if (row.controls?.[option.name] !== undefined) controlled = row.controls[option.name];
  }
  if (controlled !== undefined) {
    // The operands are processes (or nothing runs): no command to look through.
    if (!/only prints/.test(controlled)) walk.emit({ kind: 'control-process', detail: controlled, via: name });
    return;
  }
  const rest = parsed.operands.slice(row.skip ?? 0);
  if (
    row.scriptAfterSkip !== undefined &&
    rest[0]?.value !== undefined &&
    row.scriptAfterSkip.includes(rest[0].value)
  ) {
    walk.emit({ kind: 'run-program', program: 'sh', via: `${name} ${rest[0].value}` });
    walk.script(rest.length === 2 ? rest[1]!.value : undefined, `${name} ${rest[0].value}`);
    return;
  }
  if (rest.length === 0) {
    for (const effect of row.alone ?? []) walk.emit({ ...effect, via: name });
    return;
  }
  if (row.joins === true && !parsed.options.some((option) => option.name === row.execOption))
    walk.script(joinWords(rest), name);
  else walk.runWords(rest, name);
}

const ENV_SPEC: GetoptSpec = {
  options: {
    ...flags('-i --ignore-environment, -0 --null, -v --debug, --list-signal-handling'),
    ...values('-u --unset, -C --chdir, -S --split-string'),
    '--block-signal': 'optional',
    '--default-signal': 'optional',
    '--ignore-signal': 'optional',
  },
  stopAtOperand: true,
};

/** env [-i] [-u NAME] [-C DIR] [-S 'words'] [NAME=value…] [command]: alone it prints the environment. */
function env(walk: Walk, name: string, args: readonly WordValue[]): void {
  const saved = walk.scope.cwd;
  try {
    const parsed = getopt(ENV_SPEC, args);
    let cleared = false;
    for (const option of parsed.options) {
      if (option.unlisted)
        walk.emit({
          kind: 'unknown',
          severity: 'high',
          detail: `env ${option.name} is an option riskgate does not read`,
          via: `env ${option.name}`,
        });
      else if (option.name === '-i') cleared = true;
      else if (option.name === '-C') walk.scope.cwd = walk.resolvePath(option.value?.value ?? UNKNOWN);
      else if (option.name === '-S') {
        // -S splits one word into a command line: judge it as one, with the words that follow.
        const inline = option.value?.value;
        const following = joinWords(parsed.operands);
        walk.emit({ kind: 'run-program', program: inline ?? 'a command known only at run time', via: 'env -S' });
        walk.script(
          inline === undefined || following === undefined ? undefined : `${inline} ${following}`.trim(),
          'env -S',
        );
        return;
      }
    }
    let index = 0;
    const operands = parsed.operands;
    for (; index < operands.length; index++) {
      const value = operands[index]!.value;
      if (value === undefined) {
        walk.emit({
          kind: 'unknown',
          severity: 'high',
          detail: `env gets ${operands[index]!.raw}, known only at run time`,
        });
        return;
      }
      // A lone `-` is -i (only before the first NAME=value, as env reads it).
      if (value === '-' && index === 0) {
        cleared = true;
        continue;
      }
      const assignment = /^([^=]+)=/s.exec(value);
      if (assignment === null) break;
      const effect = assignmentEffect(assignment[1]!, value);
      if (effect !== undefined) walk.emit(effect);
    }
    if (index >= operands.length) {
      if (!cleared) walk.readEnvironment('all', name);
      return;
    }
    walk.runWords(operands.slice(index), name);
  } finally {
    walk.scope.cwd = saved;
  }
}

const XARGS_SPEC: GetoptSpec = {
  options: {
    ...flags(
      '-0 --null, -o --open-tty, -p --interactive, -r --no-run-if-empty, --show-limits, -t --verbose, -x --exit',
    ),
    ...values(
      '-a --arg-file, -d --delimiter, -E, -I, -L --max-lines, -n --max-args, -P --max-procs, -s --max-chars, --process-slot-var',
    ),
    '-e --eof': 'optional',
    '-i --replace': 'optional',
    '-l': 'optional',
  },
  stopAtOperand: true,
};

/** xargs runs a command with words read from its input appended (or put where -I says). */
function xargs(walk: Walk, name: string, args: readonly WordValue[]): void {
  const parsed = getopt(XARGS_SPEC, args);
  let replace: string | undefined;
  let fromFile = false;
  for (const option of parsed.options) {
    if (option.unlisted)
      walk.emit({
        kind: 'unknown',
        severity: 'high',
        detail: `xargs ${option.name} is an option riskgate does not read`,
        via: `xargs ${option.name}`,
      });
    else if (option.name === '-I') replace = option.value?.value ?? UNKNOWN;
    else if (option.name === '-i') replace = option.value?.value ?? '{}';
    else if (option.name === '-a') {
      // The words come from this file, not the input: it is read (and its words become arguments).
      if (option.value !== undefined) pathEffects(walk, 'read', option.value, { via: `xargs ${option.name}` });
      fromFile = true;
    }
  }
  const inner = parsed.operands;
  const producer = fromFile ? undefined : walk.producer;
  // The words xargs adds: names from a producer (find . | xargs …), or anything at all.
  const input: WordValue =
    producer === undefined
      ? { raw: 'words read from the input', texts: [UNKNOWN], value: undefined, unknown: true, glob: false }
      : {
          raw: 'names read from the input',
          texts: [producer.path],
          value: undefined,
          unknown: false,
          glob: false,
          tree: producer,
        };
  const command =
    inner.length === 0 ? [{ raw: 'echo', texts: ['echo'], value: 'echo', unknown: false, glob: false }] : inner;
  const words =
    replace === undefined
      ? [...command, input]
      : command.map((word, position) => (position > 0 && (word.value ?? word.raw).includes(replace!) ? input : word));
  walk.runWords(words, name);
}

export const WRAPPERS: ReadonlyMap<string, WrapperHandler> = new Map<string, WrapperHandler>([
  ...Object.entries(WRAPPER_ROWS).map(
    ([name, row]) =>
      [name, (walk: Walk, wrapper: string, args: readonly WordValue[]) => unwrap(walk, wrapper, row, args)] as const,
  ),
  ['env', env],
  ['xargs', xargs],
]);
