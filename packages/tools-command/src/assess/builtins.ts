import { pathEffects } from './paths.js';
import type { Walk } from './walk.js';
import { joinWords, runWords } from './simple-command.js';
import { assignmentEffect } from './variables.js';
import type { WordValue } from './words.js';

/**
 * Bash builtins, by name: they change the shell itself (directory, variables, options), so
 * the walk, not a program row, reads them. One handler per builtin, with why.
 */
export type Builtin = (walk: Walk, name: string, args: readonly WordValue[]) => void;

const nothing: Builtin = () => undefined;

const text = (word: WordValue | undefined): string | undefined => word?.value;

/** The variable names a builtin assigns, and what that changes. */
function assigns(walk: Walk, name: string, via: string): void {
  const bare = name.replace(/[=[].*$/s, '');
  if (bare === '') return;
  walk.scope.vars.set(bare, null);
  const effect = assignmentEffect(name.replace(/=.*$/s, ''), via);
  if (effect !== undefined) walk.emit(effect);
}

/** `cd DIR`: later relative paths resolve against DIR; `cd` alone goes home; `cd -` somewhere unknown. */
const changeDirectory: Builtin = (walk, _name, args) => {
  const operands = args.filter((word) => !/^-[LPe@]+$/.test(word.value ?? ''));
  const target = operands[0];
  if (target === undefined) walk.scope.cwd = walk.home;
  else if (target.value === undefined || target.value === '-') walk.scope.cwd = undefined;
  else walk.scope.cwd = walk.resolvePath(target.value);
};

/** `declare`, `export`, `local`, `readonly`, `typeset`: with -p and no names they print every variable. */
const declaration: Builtin = (walk, name, args) => {
  const options = args.filter((word) => /^[-+][a-zA-Z]+$/.test(word.value ?? ''));
  const names = args.filter((word) => !options.includes(word));
  if (names.length === 0 && (options.length === 0 || options.some((word) => /p|x/.test(word.value!)))) {
    if (!(options.length > 0 && options.every((word) => /^-[fF]+$/.test(word.value!)))) walk.readEnvironment('all', `${name} ${options.map((word) => word.raw).join(' ')}`.trim());
    return;
  }
  // `declare -n ref=NAME` makes $ref read NAME: a read of NAME whenever ref is used.
  if (options.some((word) => /^-[a-zA-Z]*n/.test(word.value!))) {
    for (const word of names) {
      const target = /^([^=]+)=(.*)$/s.exec(word.raw);
      if (target === null) continue;
      walk.scope.vars.set(target[1]!, null);
      walk.readEnvironment(/^[A-Za-z_]\w*$/.test(target[2]!) ? target[2]! : 'all', `${name} -n ${word.raw}`);
    }
  }
  // `declare -p NAME` prints NAME's value.
  if (options.some((word) => /^-[a-zA-Z]*p/.test(word.value!))) {
    for (const word of names) if (word.value !== undefined && /^[A-Za-z_]\w*$/.test(word.value)) walk.readEnvironment(word.value, `${name} -p ${word.raw}`);
  }
  // Assignments with values were walked as assignments; bare names (`export PATH`) change nothing.
  for (const word of names) if (word.value !== undefined && !word.value.includes('=')) walk.scope.vars.set(word.value, walk.scope.vars.get(word.value) ?? null);
};

/** `read NAME…`, `mapfile NAME`, `getopts spec NAME`: the variables get values from input. */
const readInto: Builtin = (walk, name, args) => {
  const withValue = new Set(['-a', '-d', '-i', '-n', '-N', '-p', '-t', '-u', '-C', '-c', '-O', '-s']);
  for (let index = 0; index < args.length; index++) {
    const value = text(args[index]);
    if (value === undefined) continue;
    if (value.startsWith('-')) {
      if (withValue.has(value) || (name !== 'read' && /^-[dnOsuC]$/.test(value))) {
        if (value === '-a') assigns(walk, text(args[index + 1]) ?? '', `${name} -a`);
        index++;
      }
      continue;
    }
    if (name === 'getopts' && index === 0) continue;
    assigns(walk, value, `${name} ${value}`);
  }
};

/** `printf -v NAME …` assigns NAME (bash evaluates a subscript in it). */
const printfBuiltin: Builtin = (walk, _name, args) => {
  const index = args.findIndex((word) => word.value === '-v');
  if (index !== -1) {
    const target = args[index + 1];
    if (target?.value !== undefined) assigns(walk, target.value, `printf -v ${target.value}`);
    else if (target !== undefined) walk.emit({ kind: 'unknown', severity: 'high', detail: `printf -v assigns a variable named only at run time (${target.raw})` });
  }
};

/** `let 'x=…'`: arithmetic; assignments to names that change what runs count. */
const letBuiltin: Builtin = (walk, _name, args) => {
  for (const word of args) for (const match of (word.value ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*[-+*/%&|^]?=/g)) assigns(walk, match[1]!, `let ${word.raw}`);
};

/** `set` alone prints every variable; `set -k` makes later `NAME=value` words assignments. */
const setBuiltin: Builtin = (walk, _name, args) => {
  if (args.length === 0) {
    walk.readEnvironment('all', 'set');
    return;
  }
  if (args.some((word) => /^[-+][a-zA-Z]*k/.test(word.value ?? '') || word.value === 'keyword')) {
    walk.emit({ kind: 'change-session', detail: 'set -k turns later NAME=value words into assignments' });
  }
};

/** `shopt -s expand_aliases` and friends change how later lines are read. */
const shoptBuiltin: Builtin = (walk, _name, args) => {
  if (args.some((word) => word.value === '-s' || word.value === '-u')) walk.emit({ kind: 'change-session', detail: `shopt ${args.map((word) => word.raw).join(' ')} changes how bash reads later commands` });
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

/** `trap 'cmd' EXIT`: cmd runs later. */
const trapBuiltin: Builtin = (walk, _name, args) => {
  const operands = args.filter((word) => !/^-[lp]$/.test(word.value ?? ''));
  if (operands.length >= 2) {
    walk.emit({ kind: 'change-session', detail: 'trap sets a command to run on a signal or at exit' });
    walk.script(operands[0]!.value, 'trap');
  }
};

/** `history -r [FILE]` loads a history file (by default ~/.bash_history) for printing; -w/-a write one. */
const historyBuiltin: Builtin = (walk, _name, args) => {
  const options = args.filter((word) => (word.value ?? '').startsWith('-')).map((word) => word.value!).join('');
  const file = args.find((word) => !(word.value ?? '').startsWith('-') && !/^\d+$/.test(word.value ?? ''));
  const target = file ?? { raw: '~/.bash_history', texts: [`${walk.home}/.bash_history`], value: `${walk.home}/.bash_history`, unknown: false, glob: false };
  if (/[rn]/.test(options)) pathEffects(walk, 'read', target, { via: 'history' });
  if (/[wa]/.test(options)) pathEffects(walk, 'write', target, { via: 'history' });
};

const sourceBuiltin: Builtin = (walk, name, args) => {
  const file = args[0];
  if (file === undefined) return;
  pathEffects(walk, 'read', file, { via: name });
  walk.emit({ kind: 'run-program', program: `the script ${file.raw}`, via: name });
};

/** `exec cmd` replaces the shell with cmd; `exec 3<file` only opens files (judged as redirections). */
const execBuiltin: Builtin = (walk, name, args) => {
  let index = 0;
  while (index < args.length && /^-[cl]+$|^-a$|^--$/.test(args[index]!.value ?? '')) index += args[index]!.value === '-a' ? 2 : 1;
  if (index < args.length) runWords(walk, args.slice(index), name);
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
  runWords(walk, args.slice(index), name);
};

const runsProgram =
  (what: string): Builtin =>
  (walk, name) =>
    walk.emit({ kind: 'run-program', program: what, via: name });

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  ['cd', changeDirectory],
  ['pushd', changeDirectory],
  // popd returns to a directory pushed earlier: not followed, so later relative paths are unknown.
  ['popd', (walk) => { walk.scope.cwd = undefined; }],
  ...['declare', 'typeset', 'export', 'local', 'readonly'].map((name) => [name, declaration] as const),
  ['unset', (walk, _name, args) => { for (const word of args) if (word.value !== undefined && !word.value.startsWith('-')) walk.scope.vars.set(word.value, ['']); }],
  ...['read', 'mapfile', 'readarray', 'getopts'].map((name) => [name, readInto] as const),
  ['printf', printfBuiltin],
  ['let', letBuiltin],
  ['eval', (walk, name, args) => walk.script(joinWords(args), name)],
  ['source', sourceBuiltin],
  ['.', sourceBuiltin],
  ['set', setBuiltin],
  ['shopt', shoptBuiltin],
  ['alias', aliasBuiltin],
  ['trap', trapBuiltin],
  ['exec', execBuiltin],
  ['command', commandBuiltin],
  ['builtin', (walk, name, args) => runWords(walk, args[0]?.value === '--' ? args.slice(1) : args, name)],
  // `coproc cmd` runs cmd beside the shell.
  ['coproc', (walk, name, args) => runWords(walk, args, name)],
  // `hash -p /tmp/x ls` binds the name ls to another program.
  ['hash', (walk, name, args) => { if (args.some((word) => word.value === '-p')) walk.emit({ kind: 'run-program', program: 'the program hash -p binds to a name', via: name }); }],
  ['enable', (walk, name, args) => { if (args.length > 0) walk.emit({ kind: 'change-session', detail: 'enable loads or switches shell builtins', via: name }); }],
  ['history', historyBuiltin],
  ['fc', runsProgram('an editor and the commands fc re-runs')],
  // `compgen -v`/`-e` list every variable name.
  ['compgen', (walk, name, args) => { if (args.some((word) => /^-[a-zA-Z]*[ve]/.test(word.value ?? '') || word.value === 'variable' || word.value === 'export')) walk.readEnvironment('all', name); }],
  // Builtins that only touch the shell's own jobs, flow and limits.
  ...['wait', 'jobs', 'disown', 'bg', 'fg', 'exit', 'return', 'break', 'continue', 'shift', 'true', 'false', ':', 'times', 'dirs', 'caller', 'help', 'logout', 'ulimit', 'umask', 'type', 'echo', 'test', '[', 'complete', 'compopt', 'unalias'].map((name) => [name, nothing] as const),
]);
