import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkArithmetic } from './arithmetic-walk.js';
import { pathEffects } from './paths.js';
import type { WalkHost as Walk } from './walk-host.js';
import { joinWords, known, type WordValue } from './words.js';
import { PLAIN_VARIABLE_NAME, rebindsBehaviour } from './variables.js';

/**
 * Bash builtins, by name: they change the shell itself (directory, variables, options), so
 * the walk, not a program row, reads them. One handler per builtin, with why.
 */
export type Builtin = (walk: Walk, name: string, args: readonly WordValue[]) => void;

const nothing: Builtin = () => undefined;

/** A builtin the walk does not model: it evaluates text or rebinds names at run time. */
const notModelled =
  (why: string): Builtin =>
  (walk, name) =>
    walk.emit({ kind: 'unknown', severity: 'high', detail: `${name} ${why}`, via: name });

/**
 * A word in a variable-name position (`read NAME`, `unset NAME`, `declare NAME=…`): bash
 * evaluates an index in it as arithmetic (`declare "$x"=1` with x='a[$(id)]' runs id), so the
 * name must be known and plain, or carry a literal index.
 */
function plainName(walk: Walk, name: string, word: WordValue | undefined): string | undefined {
  // `export X=…` words were walked as assignments (their value is unknown here, the name is not).
  const value = (word?.value ?? /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.exec(word?.raw ?? '')?.[0])?.replace(
    /\+?=.*$/s,
    '',
  );
  if (value !== undefined && PLAIN_VARIABLE_NAME.test(value)) return value;
  walk.emit({
    kind: 'unknown',
    severity: 'high',
    detail: `${name} takes a variable name riskgate cannot read: ${word?.raw ?? ''}`,
    via: name,
  });
  return undefined;
}

const text = (word: WordValue | undefined): string | undefined => word?.value;

/** The variable names a builtin assigns, and what that changes. */
function assigns(walk: Walk, name: string, via: string): void {
  const bare = name.replace(/[=[].*$/s, '');
  if (bare === '') return;
  walk.scope.vars.set(bare, null);
  rebindsBehaviour(walk, bare, via);
}

/** `cd DIR`: later relative paths resolve against DIR; `cd` alone goes home; `cd -` somewhere unknown. */
const changeDirectory: Builtin = (walk, name, args) => {
  const options = args.filter((word) => /^-[LPe@]+$/.test(word.value ?? ''));
  const operands = args.filter((word) => !options.includes(word));
  const target = operands[0];
  const physical = options.some((word) => /P[^L]*$/.test(word.value!));
  // `pushd` alone swaps the stack's top two; `cd -`, `pushd +N`/`-N` go to a directory of the stack
  // or OLDPWD, which the walk does not follow: later relative paths are unknown.
  if (target === undefined) walk.scope.cwd = name === 'cd' ? walk.home : undefined;
  else if (target.value === undefined || /^[-+]/.test(target.value) || operands.length > 1) walk.scope.cwd = undefined;
  else {
    // bash's cd is logical (`link/..` is where the link is) unless -P; a cd that fails (no such
    // directory, a file, `cd / x`) stays where it was, and so does the rest of the line — the walk
    // cannot tell a directory the line makes from one that is missing: later relative paths are unknown.
    const cwd = walk.scope.cwd;
    const written = target.value.startsWith('/')
      ? target.value
      : cwd === undefined
        ? undefined
        : `${cwd}/${target.value}`;
    let exists = false;
    try {
      exists = written !== undefined && statSync(written).isDirectory();
    } catch {
      exists = false;
    }
    if (!exists || written === undefined) walk.scope.cwd = undefined;
    else walk.scope.cwd = physical ? realPath(written) : resolve(written);
  }
};

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** `declare`, `export`, `local`, `readonly`, `typeset`: with -p and no names they print every variable. */
const declaration: Builtin = (walk, name, args) => {
  const options = args.filter((word) => /^[-+][a-zA-Z]+$/.test(word.value ?? ''));
  const names = args.filter((word) => !options.includes(word));
  if (names.length === 0 && (options.length === 0 || options.some((word) => /p|x/.test(word.value!)))) {
    if (!(options.length > 0 && options.every((word) => /^-[fF]+$/.test(word.value!))))
      walk.readEnvironment('all', `${name} ${options.map((word) => word.raw).join(' ')}`.trim());
    return;
  }
  // `declare -n ref=NAME` makes every use of ref a use of NAME (`declare -n p=PATH; p=/tmp`);
  // `declare -i x` evaluates every later assignment to x as arithmetic. Neither is followed.
  const flags = options.map((word) => word.value!).join('');
  if (/[ni]/.test(flags.replace(/[-+]/g, ''))) {
    walk.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${name} ${flags} binds names riskgate does not follow`,
      via: name,
    });
  }
  // `declare -n ref=NAME` reads NAME whenever ref is used (named in the reasons).
  if (/n/.test(flags)) {
    for (const word of names) {
      const target = /^([^=]+)=(.*)$/s.exec(word.raw);
      if (target !== null)
        walk.readEnvironment(/^[A-Za-z_]\w*$/.test(target[2]!) ? target[2]! : 'all', `${name} -n ${word.raw}`);
    }
  }
  for (const word of names) plainName(walk, name, word);
  // `declare -a a='($(cmd))'`: declare, typeset, local and readonly read a value in parentheses as
  // a compound array assignment and expand it again (running its substitutions) when the name is
  // or becomes an array, even from a quoted or run-time word. Not followed.
  if (name !== 'export') {
    const arrays = /[aA]/.test(flags.replace(/^\+.*/, ''));
    for (const word of names) {
      const value = word.value === undefined ? undefined : /^[^=]*=(.*)$/s.exec(word.value)?.[1];
      // An unquoted `a=(x y)` is an array the parser read (and the walk judged) itself.
      const literalArray = /^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(word.raw);
      const parenthesised =
        (value ?? '').trimStart().startsWith('(') ||
        (word.value === undefined && /^[^=]*=(\$?["']|\\)+\(/s.test(word.raw));
      if (!literalArray && (parenthesised || (word.value === undefined && arrays && word.raw.includes('=')))) {
        walk.emit({
          kind: 'unknown',
          severity: 'high',
          detail: `${name} ${word.raw} may be read as an array assignment, which bash expands again`,
          via: name,
        });
      }
    }
  }
  // `export "PATH=/tmp"`, `x=PATH; export $x=/tmp`: a quoted or expanded NAME=value word assigns
  // NAME as a plain assignment does (the parser sees no assignment in it).
  for (const word of names) {
    const assigned =
      word.value === undefined ? undefined : /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word.value)?.[1];
    if (assigned !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word.raw))
      rebindsBehaviour(walk, assigned, `${name} ${word.raw}`);
  }
  // `declare -p NAME` prints NAME's value.
  if (options.some((word) => /^-[a-zA-Z]*p/.test(word.value!))) {
    for (const word of names)
      if (word.value !== undefined && /^[A-Za-z_]\w*$/.test(word.value))
        walk.readEnvironment(word.value, `${name} -p ${word.raw}`);
  }
  // Assignments with values were walked as assignments; bare names (`export PATH`) change nothing.
  for (const word of names)
    if (word.value !== undefined && !word.value.includes('='))
      walk.scope.vars.set(word.value, walk.scope.vars.get(word.value) ?? null);
};

/**
 * `read NAME…`, `mapfile NAME`, `getopts spec NAME`: the variables get values from input.
 * `mapfile -C cmd` runs cmd every few lines (a callback the walk does not follow).
 */
const readInto: Builtin = (walk, name, args) => {
  const withValue = new Set(['-a', '-d', '-i', '-n', '-N', '-p', '-t', '-u', '-C', '-c', '-O', '-s']);
  for (let index = 0; index < args.length; index++) {
    const value = text(args[index]);
    if (value === undefined) {
      plainName(walk, name, args[index]);
      continue;
    }
    if (value.startsWith('-')) {
      if (name !== 'read' && name !== 'getopts' && /^-[a-zA-Z]*C/.test(value))
        notModelled('-C runs a callback command')(walk, name, args);
      if (withValue.has(value) || (name !== 'read' && /^-[dnOsuC]$/.test(value))) {
        if (value === '-a' && plainName(walk, name, args[index + 1]) !== undefined)
          assigns(walk, text(args[index + 1]) ?? '', `${name} -a`);
        index++;
      }
      continue;
    }
    if (name === 'getopts' && index === 0) continue;
    if (plainName(walk, name, args[index]) !== undefined) assigns(walk, value, `${name} ${value}`);
  }
};

/**
 * `printf -v NAME …` assigns NAME: followed for a plain name that changes nothing that runs;
 * an index in the name is evaluated as arithmetic, and a name known only at run time may be PATH.
 */
const printfBuiltin: Builtin = (walk, name, args) => {
  const first = args[0];
  if (first === undefined) return;
  if (first.value === undefined)
    return notModelled(`may take -v from ${first.raw}, known only at run time`)(walk, name, args);
  if (!first.value.startsWith('-v')) return;
  const target = first.value === '-v' ? args[1] : known(first.value.slice(2));
  if (target?.value === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(target.value)) {
    return notModelled(`-v assigns ${target?.raw ?? 'a variable'}, evaluating an index in its name`)(walk, name, args);
  }
  if (!rebindsBehaviour(walk, target.value, `printf -v ${target.value}`)) walk.scope.vars.set(target.value, null);
};

/** `let 'x=…'`: arithmetic (arithmetic.ts): modelled on literal numbers and known numbers only. */
const letBuiltin: Builtin = (walk, name, args) => {
  for (const word of args) {
    if (word.value === undefined) notModelled(`evaluates ${word.raw}, known only at run time`)(walk, name, args);
    else checkArithmetic(walk, word.value, `let ${word.raw}`);
  }
};

/**
 * `set` options that change only error handling and tracing, which leave what runs as the walk
 * sees it; any other (`set -k` makes NAME=value words assignments, `-o posix`, `-T`, `-B`…) is unknown.
 */
const SET_OPTIONS = /^[-+][euxvfCnh]*o?$/;
const SET_LONG = new Set([
  'errexit',
  'nounset',
  'xtrace',
  'verbose',
  'noglob',
  'noclobber',
  'pipefail',
  'noexec',
  'hashall',
]);

/** `set` alone prints every variable; `set -- words` sets the positional parameters. */
const setBuiltin: Builtin = (walk, name, args) => {
  if (args.length === 0) {
    walk.readEnvironment('all', 'set');
    return;
  }
  for (let index = 0; index < args.length; index++) {
    const value = args[index]!.value;
    if (value === '--' || value === '-') return;
    if (value === undefined || !SET_OPTIONS.test(value) || value.length < 2)
      return notModelled(`${args[index]!.raw} changes how bash runs later commands`)(walk, name, args);
    if (value.endsWith('o') && !SET_LONG.has(args[++index]?.value ?? ''))
      return notModelled(`-o ${args[index]?.raw ?? ''} changes how bash runs later commands`)(walk, name, args);
  }
};

/** `shopt -s expand_aliases` and friends change how later lines are read; `shopt` alone prints. */
const shoptBuiltin: Builtin = (walk, name, args) => {
  if (args.some((word) => word.value === undefined || /^-[a-z]*[su]/.test(word.value)))
    notModelled('changes how bash reads later commands')(walk, name, args);
};

/** `unset NAME…`: a name that changes what runs (PATH, IFS) is not followed; `unset f` may drop a function. */
const unsetBuiltin: Builtin = (walk, name, args) => {
  const functionsOnly = args.some((word) => word.value === '-f');
  const variablesOnly = args.some((word) => word.value === '-v');
  for (const word of args) {
    if (word.value !== undefined && /^-[fvn]+$/.test(word.value)) continue;
    const bare = plainName(walk, name, word);
    if (bare === undefined) continue;
    if (!variablesOnly) walk.scope.functions.delete(bare);
    if (functionsOnly) continue;
    rebindsBehaviour(walk, bare, name);
    walk.scope.vars.set(bare.replace(/\[.*$/s, ''), bare.includes('[') ? null : ['']);
  }
};

/** `test -v NAME` / `[ -v NAME ]` evaluates an index in NAME. */
const testBuiltin: Builtin = (walk, name, args) => {
  args.forEach((word, index) => {
    if (word.value === '-v' && index + 1 < args.length) plainName(walk, `${name} -v`, args[index + 1]);
  });
};

/** `alias name='…'`: the value is a command line that later runs under that name. */
const aliasBuiltin: Builtin = (walk, _name, args) => {
  for (const word of args) {
    const value = word.value;
    if (value === undefined) {
      walk.emit({ kind: 'change-session', detail: `alias ${word.raw} defines a command known only at run time` });
      continue;
    }
    const equals = value.indexOf('=');
    if (equals === -1) continue;
    walk.emit({ kind: 'change-session', detail: `alias ${value.slice(0, equals)} makes that name run something else` });
    walk.script(value.slice(equals + 1), `alias ${value.slice(0, equals)}`);
  }
};

/** `trap 'cmd' EXIT`: cmd runs later, at a moment (and with values) the walk does not follow; `trap -l`/`-p` print. */
const trapBuiltin: Builtin = (walk, name, args) => {
  const operands = args.filter((word) => word.value === undefined || !/^-[lp]+$|^--$/.test(word.value));
  if (operands.length === 0) return;
  notModelled('sets a command to run on a signal or at exit')(walk, name, args);
  if (operands.length >= 2) walk.script(operands[0]!.value, 'trap');
};

/** `history -r [FILE]` loads a history file (by default ~/.bash_history) for printing; -w/-a write one. */
const historyBuiltin: Builtin = (walk, _name, args) => {
  const options = args
    .filter((word) => (word.value ?? '').startsWith('-'))
    .map((word) => word.value!)
    .join('');
  const file = args.find((word) => !(word.value ?? '').startsWith('-') && !/^\d+$/.test(word.value ?? ''));
  const target = file ?? {
    raw: '~/.bash_history',
    texts: [`${walk.home}/.bash_history`],
    value: `${walk.home}/.bash_history`,
    unknown: false,
    glob: false,
  };
  if (/[rn]/.test(options)) pathEffects(walk, 'read', target, { via: 'history' });
  if (/[wa]/.test(options)) pathEffects(walk, 'write', target, { via: 'history' });
};

/** `source FILE`: runs a script riskgate does not read. */
const sourceBuiltin: Builtin = (walk, name, args) => {
  const file = args[0];
  if (file !== undefined) pathEffects(walk, 'read', file, { via: name });
  notModelled(`runs the script ${file?.raw ?? ''}, which riskgate does not read`)(walk, name, args);
};

/**
 * `exec cmd` replaces the shell with cmd (judged as cmd); `exec 3<file`, `exec >log` without a
 * command re-wire the shell's own descriptors for everything after: not followed.
 */
const execBuiltin: Builtin = (walk, name, args) => {
  let index = 0;
  while (index < args.length && /^-[cl]+$|^-a$|^--$/.test(args[index]!.value ?? ''))
    index += args[index]!.value === '-a' ? 2 : 1;
  if (index < args.length) walk.runWords(args.slice(index), name);
  else notModelled("re-wires the shell's file descriptors for the rest of the line")(walk, name, args);
};

/** `command -v x` prints where x is; `command x` and `builtin x` run x. */
const commandBuiltin: Builtin = (walk, name, args) => {
  let index = 0;
  for (; index < args.length && /^-[pvV]+$|^--$/.test(args[index]!.value ?? ''); index++) {
    if (args[index]!.value === '--') {
      index++;
      break;
    }
    if (/[vV]/.test(args[index]!.value!)) return;
  }
  walk.runWords(args.slice(index), name);
};

const runsProgram =
  (what: string): Builtin =>
  (walk, name) =>
    walk.emit({ kind: 'run-program', program: what, via: name });

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  ['cd', changeDirectory],
  ['pushd', changeDirectory],
  // popd returns to a directory pushed earlier: not followed, so later relative paths are unknown.
  [
    'popd',
    (walk) => {
      walk.scope.cwd = undefined;
    },
  ],
  ...['declare', 'typeset', 'export', 'local', 'readonly'].map((name) => [name, declaration] as const),
  ['unset', unsetBuiltin],
  ...['read', 'mapfile', 'readarray', 'getopts'].map((name) => [name, readInto] as const),
  ['printf', printfBuiltin],
  ['let', letBuiltin],
  ['test', testBuiltin],
  ['[', testBuiltin],
  [
    'eval',
    (walk, name, args) => {
      const script = joinWords(args);
      walk.script(script, name);
      // The evaluated text runs in this shell: a `cd` in it moves the rest of the line, which the
      // nested walk does not carry back.
      if (script === undefined || /(^|[^\w-])(cd|pushd|popd)($|[^\w-])/.test(script)) walk.scope.cwd = undefined;
    },
  ],
  ['source', sourceBuiltin],
  ['.', sourceBuiltin],
  ['set', setBuiltin],
  [
    'wait',
    (walk, name, args) => {
      if (args.some((word) => word.value === undefined || /^-[a-z]*p/.test(word.value)))
        notModelled('-p binds a variable')(walk, name, args);
    },
  ],
  ['shopt', shoptBuiltin],
  ['alias', aliasBuiltin],
  ['trap', trapBuiltin],
  ['exec', execBuiltin],
  ['command', commandBuiltin],
  ['builtin', (walk, name, args) => walk.runWords(args[0]?.value === '--' ? args.slice(1) : args, name)],
  // `coproc cmd` runs cmd beside the shell, wired to file descriptors the line may juggle.
  [
    'coproc',
    (walk, name, args) => {
      notModelled('runs a command beside the shell, on file descriptors riskgate does not follow')(walk, name, args);
      walk.runWords(args, name);
    },
  ],
  // `hash -p /tmp/x ls` binds the name ls to another program.
  [
    'hash',
    (walk, name, args) => {
      if (args.some((word) => word.value === '-p'))
        walk.emit({ kind: 'run-program', program: 'the program hash -p binds to a name', via: name });
    },
  ],
  [
    'enable',
    (walk, name, args) => {
      if (args.length > 0) notModelled('loads or switches shell builtins')(walk, name, args);
    },
  ],
  ['history', historyBuiltin],
  ['fc', runsProgram('an editor and the commands fc re-runs')],
  // `compgen -W '$(cmd)'` expands (runs) its word list; -F and -C run functions and commands.
  [
    'compgen',
    (walk, name, args) => {
      notModelled('expands and runs words at run time')(walk, name, args);
      // `compgen -v`/`-e` list every variable name.
      if (
        args.some(
          (word) => /^-[a-zA-Z]*[ve]/.test(word.value ?? '') || word.value === 'variable' || word.value === 'export',
        )
      )
        walk.readEnvironment('all', name);
    },
  ],
  ['complete', notModelled('binds commands and functions to completion')],
  ['compopt', notModelled('changes completion')],
  // Builtins that only touch the shell's own jobs, flow and limits.
  ...[
    'jobs',
    'disown',
    'bg',
    'fg',
    'exit',
    'return',
    'break',
    'continue',
    'shift',
    'true',
    'false',
    ':',
    'times',
    'dirs',
    'caller',
    'help',
    'logout',
    'ulimit',
    'umask',
    'type',
    'echo',
    'unalias',
  ].map((name) => [name, nothing] as const),
]);
