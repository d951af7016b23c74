import type { Effect } from '@riskgate/risk';
import type { WordValue } from './words.js';

/**
 * The shape of a program row (codex-rs command_safety style: knowledge is data, the walk only
 * looks rows up). How to add a program:
 *
 * ```ts
 * // why: one line on what the program does with its words
 * head: row('read', { core: true, flags: '-qvz --quiet --verbose', options: { '-n': 'data', '-c': 'data' } }),
 * ```
 *
 * - `operands`: what the words that are not options are — files it `read`s, `list`s (names and
 *   metadata only), `write`s or `delete`s, or `data` (not files: echo's words, kill's pids).
 * - `leading`: the first N operands are data even so (grep PATTERN, jq FILTER, chmod MODE);
 *   an option of use `pattern`/`pattern-file` supplies them instead (grep -e, grep -f).
 * - `last`: the last operand is used differently (cp and mv write their destination).
 * - `whenNone`: the operand a program uses when it gets none (ls and du list `.`).
 * - `recursive` / `skipsHidden`: it reads whole trees (du, rg), skipping dotfiles (rg).
 * - `flags`: the options that change nothing riskgate judges, as one string: `'-ahlrt --all
 *   --human-readable'` (a `-xyz` token lists the short flags -x, -y, -z; a `--name` token one
 *   long flag). Options FAIL CLOSED (issue 18): an option neither in `flags` nor in `options`
 *   is `unlisted`, an `unknown` effect, so the call is asked. `--help` and `--version` are
 *   flags of every row.
 * - `options`: options that take a value or change what the program does, by use (OptionUse);
 *   `'flag'` there is the same as listing it in `flags` (single-dash long flags such as
 *   `-maxdepth` go here). List every one that reads, writes or runs (long options are also
 *   matched abbreviated, as GNU accepts `--out` for `--output`).
 * - `effects`: what the program does whatever its words (kill controls processes).
 * - `core`: whitelisted even WITHOUT riskgate's sandbox (macOS, containers without user
 *   namespaces). Only rows whose every option is listed and whose reads the walk models
 *   completely are core (docs/commands.md has the table). A row without it that would run
 *   unasked yields, outside the sandbox, an `unknown` effect saying it needs the sandbox.
 * - `sandboxOnly`: the older spelling of "not core" (issue 12); kept so rows can say it.
 * - `subcommands` / `otherSubcommands`: rows by first operand (`systemctl status`); the
 *   parent's `options`/`flags`/`globalValues` are the options allowed before the subcommand,
 *   any other option there is unlisted.
 * - `custom`: a judge in code for what a table cannot say (sed scripts, find -exec, git).
 * - `match` / `notMatch`: the row's proof (issue 23, as codex's execpolicy rules carry theirs):
 *   command lines judged as the row says and lines that must not be, where the row has an edge
 *   (an option that turns a read into a write, a form left out). `judged` says what "as the row
 *   says" is for rows judged in code or by subcommand; test/program-row-examples.test.ts checks
 *   every row through the real assessor and judge, and fails on a row without a `match`.
 */
export type OperandUse = 'read' | 'list' | 'write' | 'delete' | 'data';

export type OptionUse =
  /** No value, no effect (the default for options not listed). */
  | 'flag'
  /**
   * A value only when attached (`--width=8`, `-w8`), as getopt reads an optional argument: the
   * next word is never its value (`od -w FILE` reads FILE, `du --time DIR` lists DIR).
   */
  | 'optional'
  /** Takes a value that is not a file. */
  | 'data'
  /** Takes a file it reads / lists / writes. */
  | 'read'
  | 'list'
  | 'write'
  /** Takes a program or command it runs. */
  | 'run'
  /** Takes the pattern, so every operand is a file (grep -e). */
  | 'pattern'
  /** Takes a file of patterns (grep -f): read, and every operand is a file. */
  | 'pattern-file'
  /** Flag: the pattern is not needed (rg --files), so every operand is a file. */
  | 'no-pattern'
  /** Flag: operands are read as whole trees (grep -r). */
  | 'recursive'
  /** Flag: operands are read as whole trees, following the symbolic links met below (grep -R). */
  | 'recursive-links'
  /** Flag: a recursive read follows the symbolic links met below its operands (rg -L, du -L, tree -l). */
  | 'follows-links'
  /** Flag: recursive reads include dotfiles (rg --hidden). */
  | 'hidden'
  /** Flag: the read never ends (tail -f). */
  | 'follow'
  /** Flag: prints the environment (ps e). */
  | 'environment'
  /** Flag: operands are rewritten in place (sed -i, perl -i). */
  | 'in-place'
  /** Flag: runs a program (a pager, a browser). */
  | 'runs'
  /** Flag: writes files beside its operands (tree -R writes 00Tree.html in every directory). */
  | 'writes'
  /** Flag: asks the network (pip list --outdated, gem list --remote). */
  | 'connects'
  /** Flag: changes the program's own settings or state (go env -w, npm version patch): a program run. */
  | 'changes'
  /** Flag or value whose effect riskgate does not model: never whitelisted. */
  | 'unknown'
  /** Not in the row (options fail closed): an `unknown` effect. parseArgs gives it, rows never list it. */
  | 'unlisted';

/** Uses that take the next word (or the rest after `=`) as their value. */
export const TAKES_VALUE: ReadonlySet<OptionUse> = new Set([
  'data',
  'read',
  'list',
  'write',
  'run',
  'pattern',
  'pattern-file',
]);
/** Uses that make a program do more than read: an input word could turn into one (xargs). */
export const RISKY_USES: ReadonlySet<OptionUse> = new Set([
  'write',
  'run',
  'in-place',
  'runs',
  'writes',
  'unknown',
  'environment',
  'follow',
  'unlisted',
  'connects',
  'changes',
]);

/** What a call site offers a custom judge. */
export interface CallSite {
  /** The program's name, normalised (`/bin/rm`, `\rm`, `"rm"` are all `rm`). */
  readonly name: string;
  /** The words after the name. */
  readonly args: readonly WordValue[];
  readonly sandbox: boolean;
  emit(effect: Effect): void;
  /** A file operand, resolved against the working directory; a name known only at run time is asked about. */
  path(kind: 'read' | 'list' | 'write' | 'delete', word: WordValue, extra?: PathExtra): void;
  /** A bash script to judge as its own line (sh -c, eval, sed's `e`); undefined when only known at run time. */
  script(text: string | undefined, via: string): void;
  /** Another command this one runs (find -exec, xargs, wrappers), judged as a simple command. */
  command(words: readonly WordValue[], via: string): void;
  /** Change the directory relative paths resolve against (`git -C dir`). */
  chdir(word: WordValue): void;
  /** The home directory (`~`), for programs that read a credential store there. */
  readonly home: string;
  /** The directory the program runs in, when known before running. */
  readonly cwd: string | undefined;
  /** The same site with other words (a judge that strips some before the table reads the rest). */
  withArgs(args: readonly WordValue[]): CallSite;
}

export interface PathExtra {
  readonly recursive?: boolean;
  readonly skipsHidden?: boolean;
  readonly followsLinks?: boolean;
  readonly via?: string;
  readonly severity?: 'medium' | 'high';
  readonly note?: string;
}

/** An effect that does not depend on the words: `{ kind: 'control-process', detail }`. */
export type FixedEffect = Effect;

/**
 * What a row's `match` examples are judged as: `'read'` runs unasked (inside the sandbox, and
 * without it too when the row is `core`; a row that is not core is asked there); an effect kind
 * is one the assessor reports for the line, which is then not whitelisted. `notMatch` examples
 * are the opposite: asked in the sandbox, or without that kind. Rows without `judged` get it from
 * their shape: their `effects`' kinds, `write-path`/`delete-path` for rows that write or delete
 * their operands, `'read'` for the rest.
 */
export type RowVerdict = 'read' | Effect['kind'];

export interface RowExamples {
  readonly judged?: RowVerdict;
  /** Command lines this row judges as `judged` says (every row has at least one). */
  readonly match?: readonly string[];
  /** Command lines at the row's edge that it must not judge so. */
  readonly notMatch?: readonly string[];
}

export interface ProgramRow extends RowExamples {
  readonly operands: OperandUse;
  readonly leading?: number;
  readonly last?: OperandUse;
  readonly whenNone?: string;
  /** The operand when none is given and the read is recursive (grep -r searches `.`). */
  readonly whenNoneRecursive?: string;
  readonly recursive?: boolean;
  readonly skipsHidden?: boolean;
  /**
   * The program reads options only before its first operand, as POSIX getopt does (xxd): a word
   * like `-ps` after an operand is an operand (`xxd a.txt -ps` writes a file named -ps).
   */
  readonly stopsAtOperand?: boolean;
  readonly options?: Readonly<Record<string, OptionUse>>;
  /** Harmless flags, space-separated: `-abc` is -a, -b, -c; `--all` one long flag. */
  readonly flags?: string;
  readonly effects?: readonly FixedEffect[];
  /** Whitelisted without the sandbox too (see above); rows without it need the sandbox. */
  readonly core?: boolean;
  readonly sandboxOnly?: boolean;
  /** Raises the judged level of the operand effects (truncate, shred, mkfs: high whatever the path). */
  readonly severity?: 'medium' | 'high';
  readonly subcommands?: Readonly<Record<string, ProgramRow>>;
  readonly otherSubcommands?: ProgramRow;
  /** Options of the program itself that come before the subcommand and take a value. */
  readonly globalValues?: readonly string[];
  readonly custom?: (site: CallSite) => void;
}

/** A row in one line: `row('read', { options: { '-o': 'write' } })`. */
export function row(operands: OperandUse, rest: Omit<ProgramRow, 'operands'> = {}): ProgramRow {
  return { operands, ...rest };
}

/** A row built elsewhere (a shared judge, a helper's row) with its examples beside it. */
export function withExamples(base: ProgramRow, examples: RowExamples): ProgramRow {
  return { ...base, ...examples };
}

/** A program whose every call has the given effects (its words are data). */
export function always(...effects: FixedEffect[]): ProgramRow {
  return { operands: 'data', effects };
}

export const runs = (program: string, note?: string, severity?: 'medium' | 'high'): FixedEffect => ({
  kind: 'run-program',
  program,
  ...(note === undefined ? {} : { note }),
  ...(severity === undefined ? {} : { severity }),
});
export const controls = (detail: string, severity?: 'medium' | 'high'): FixedEffect => ({
  kind: 'control-process',
  detail,
  ...(severity === undefined ? {} : { severity }),
});
export const privilege = (detail: string): FixedEffect => ({ kind: 'change-privilege', detail });
export const connects = (host: string, note?: string): FixedEffect => ({
  kind: 'connect',
  host,
  ...(note === undefined ? {} : { note }),
});
export const session = (detail: string): FixedEffect => ({ kind: 'change-session', detail });
export const endless = (detail: string): FixedEffect => ({ kind: 'unbounded', resource: 'time', detail });
export const unknownEffect = (detail: string, severity?: 'medium' | 'high'): FixedEffect => ({
  kind: 'unknown',
  detail,
  ...(severity === undefined ? {} : { severity }),
});
