import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { BUILTINS } from './builtins.js';
import { applyRow } from './apply.js';
import { asksAboutItselfInSandbox } from './help-version.js';
import { pathEffects } from './paths.js';
import { lookupProgram } from './programs.js';
import type { WalkHost as Walk } from './walk-host.js';
import { assignmentEffect } from './variables.js';
import { childrenOf, known, textOf, UNKNOWN, type WordValue } from './words.js';
import { WRAPPERS } from './wrappers.js';

/** Directories whose programs are the ones the name means: `/bin/rm` is rm, `./rm` is not. */
const SYSTEM_BIN = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/;

/** One simple command node (with the words that followed its redirections). */
export function judgeSimpleCommand(walk: Walk, node: Node, extra: readonly WordValue[]): void {
  const words: WordValue[] = [];
  const declaration = node.type === 'declaration_command' || node.type === 'unset_command';
  for (const child of childrenOf(node)) {
    if (child.type === 'variable_assignment') {
      if (declaration) {
        // `export X=…`, `local X=$(…)`: a lasting assignment; the word keeps its place.
        walk.visit(child);
        words.push({ ...known(textOf(child, walk.source)), value: undefined, raw: textOf(child, walk.source) });
      } else {
        // `X=… cmd`: for the command's environment only.
        const name = textOf(child.childForFieldName('name') ?? child, walk.source);
        const value = child.childForFieldName('value');
        if (value !== null) walk.word(value);
        const effect = assignmentEffect(name, textOf(child, walk.source));
        if (effect !== undefined) walk.emit(effect);
      }
    } else if (child.type === 'command_name') {
      const name = child.namedChild(0);
      if (name !== null) words.push(walk.word(name));
    } else if (
      child.type === 'file_redirect' ||
      child.type === 'heredoc_redirect' ||
      child.type === 'herestring_redirect'
    ) {
      words.push(...walk.redirect(child));
    } else if (!child.isNamed) {
      if (declaration && /^[a-z]+$/.test(child.type)) words.push(known(child.type));
    } else if (child.type === 'variable_name' || (child.type === 'word' && declaration)) {
      words.push(known(textOf(child, walk.source)));
    } else if (child.type !== 'comment') {
      words.push(walk.word(child));
    }
  }
  words.push(...extra);
  if (words.length > 0) runWords(walk, words, undefined);
}

/** The rule subject for a command: its words as bash passes them, the name as a basename. */
function subjectOf(name: string, args: readonly WordValue[]): string {
  // Quotes and escapes removed; expansions (`~`, `$HOME`) stay as written, as people write rules.
  return [name, ...args.map((word) => (/[$`~]/.test(word.raw) ? word.raw : (word.value ?? word.raw)))].join(' ');
}

/**
 * Judge the words of one command (or of a command a wrapper runs): the program's name decides
 * which row, builtin or wrapper reads the rest. Every command yields a rule subject.
 */
/** Builtins that change the shell itself (its directory, variables, options, functions): only bash runs them. */
const SHELL_STATE_BUILTINS: ReadonlySet<string> = new Set([
  'cd',
  'pushd',
  'popd',
  'declare',
  'typeset',
  'export',
  'local',
  'readonly',
  'unset',
  'set',
  'shopt',
  'alias',
  'unalias',
  'read',
  'mapfile',
  'readarray',
  'getopts',
  'let',
  'hash',
  'enable',
  'trap',
  'source',
  '.',
  'eval',
  'exec',
  'wait',
  'history',
  'fc',
  'compgen',
  'complete',
  'compopt',
  'coproc',
  'disown',
  'jobs',
  'bg',
  'fg',
  'shift',
  'return',
  'exit',
  'break',
  'continue',
]);

export function runWords(walk: Walk, words: readonly WordValue[], via: string | undefined): void {
  const [nameWord, ...args] = words;
  if (nameWord === undefined) return;
  const text = nameWord.value;
  if (text === undefined) {
    walk.subjects.push(subjectOf(nameWord.raw, args));
    walk.emit({
      kind: 'run-program',
      program: `a program whose name is known only at run time (${nameWord.raw})`,
      severity: 'high',
      ...(via === undefined ? {} : { via }),
    });
    return;
  }
  // `c='rm -rf x'; $c`: an unquoted expansion in the command's place splits into words, the first the program.
  if (/\s/.test(text.trim()) && nameWord.raw.includes('$') && !/^["']/.test(nameWord.raw)) {
    const [first, ...more] = text.trim().split(/\s+/);
    runWords(walk, [known(first!), ...more.map((part) => known(part)), ...args], via);
    return;
  }
  const name = text.includes('/') ? basename(text) : text;
  walk.subjects.push(subjectOf(name, args));
  if (text.includes('/') && !SYSTEM_BIN.test(text)) {
    // A custom script or program (`./tidy.sh`): unknown, as the spec says; the model's risk_level decides.
    walk.emit({
      kind: 'unknown',
      detail: `runs the program at ${text}, which riskgate does not know`,
      ...(via === undefined ? {} : { via }),
    });
    operandsAsReads(walk, text, args);
    return;
  }
  // A function the line surely defined: its body was judged where it was defined. Only for a
  // command the shell itself runs: a program that runs another (`timeout 5 rm`, `env rm`,
  // `xargs rm`, `find -exec rm`) and `command rm`/`exec rm` run the program, never the function.
  if (!text.includes('/') && via === undefined && walk.callFunction(name)) return;
  // `env cd /`, `timeout 1 export X=…`, `xargs cd`: a program that runs another cannot run a
  // builtin of this shell; whatever runs (a /usr/bin/cd, or nothing) changes nothing here. The
  // walk must not follow it as if the shell had (`env cd /; cat backup.txt` reads ./backup.txt).
  if (via !== undefined && via !== 'command' && via !== 'builtin' && SHELL_STATE_BUILTINS.has(name)) {
    walk.emit({ kind: 'unknown', detail: `${via} runs ${name} as a program, not as a builtin of this shell`, via });
    return;
  }
  const builtin = BUILTINS.get(name);
  if (builtin !== undefined) {
    builtin(walk, name, args);
    return;
  }
  const wrapper = WRAPPERS.get(name);
  if (wrapper !== undefined) {
    wrapper(walk, name, args);
    return;
  }
  if (asksAboutItselfInSandbox(walk.options.sandbox, name, args)) return; // `cmake -h`: help-version.ts
  const row = lookupProgram(name);
  if (row !== undefined) {
    applyRow(walk, name, row, args);
    return;
  }
  walk.emit({
    kind: 'unknown',
    detail: `riskgate does not know what ${name} does`,
    ...(via === undefined ? {} : { via }),
  });
  operandsAsReads(walk, name, args);
}

/**
 * A program riskgate does not know may read whatever paths it is given (`bat ~/.kube/config`,
 * `yq .token ~/.kube/config`, `ag key ~`): every operand that names a path, or an existing file,
 * is judged as a read of it (a directory as its whole tree), so a secret among them is known
 * whatever the program — and guarded mode does not take the model's low for it.
 */
function operandsAsReads(walk: Walk, name: string, args: readonly WordValue[]): void {
  for (const word of args) {
    const value = word.value;
    if (value === undefined) continue;
    const operand = value.startsWith('-') ? (value.includes('=') ? value.slice(value.indexOf('=') + 1) : '') : value;
    if (operand === '' || operand.includes(UNKNOWN)) continue;
    const path = walk.resolvePath(operand);
    if (path === undefined) continue;
    let directory = false;
    let exists = false;
    try {
      const stats = statSync(path);
      exists = true;
      directory = stats.isDirectory();
    } catch {
      exists = false;
    }
    if (!exists && !/[/~]/.test(operand) && !word.glob) continue;
    pathEffects(walk, 'read', operand === value ? word : known(operand), {
      via: `${name}, which riskgate does not know`,
      ...(directory ? { recursive: true } : {}),
    });
  }
}

export function isUnknownText(text: string): boolean {
  return text.includes(UNKNOWN);
}
