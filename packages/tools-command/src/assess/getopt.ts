import type { WordValue } from './words.js';

/**
 * getopt_long as glibc does it, for programs whose option table is small and exact (wrappers,
 * sed, awk): the walk must split words exactly as the program will, or a value it skips is the
 * command that runs (`timeout -vk 5 10 rm x`), or a file it thinks is a script is a file read.
 *
 * - short options cluster (`-nif`): each letter is looked up; the first that takes a value takes
 *   the rest of the word (`-ofile`, `-e'cmd'`), or the next word when the rest is empty; an
 *   optional value (`-i[SUF]`) is only ever the rest of the word.
 * - long options match exactly or by an unambiguous prefix (`--outp=x` is `--output=x`); a
 *   prefix of several options is ambiguous (getopt refuses it: the program does not run, but the
 *   walk reports it as unlisted, failing closed).
 * - `--` ends options; `-` is an operand.
 * - `stopAtOperand` (a `+` getopt string, as every wrapper has, or POSIXLY_CORRECT): the first
 *   operand ends options. Otherwise options after operands still count (GNU permutation).
 */
export type Arity = 'none' | 'required' | 'optional';

export interface GetoptSpec {
  /** `'-k --kill-after': 'required'`: aliases separated by spaces, the first one the name reported. */
  readonly options: Readonly<Record<string, Arity>>;
  readonly stopAtOperand?: boolean;
}

export interface GetoptOption {
  /** The option's first alias in the spec (`-k` for `--kill-after`), or the word itself when unlisted. */
  readonly name: string;
  readonly value?: WordValue;
  /** Not in the spec, ambiguous, or a required value is missing. */
  readonly unlisted?: boolean;
}

export interface GetoptResult {
  readonly options: readonly GetoptOption[];
  readonly operands: readonly WordValue[];
  /** Index in the words of the first operand when options stop there (stopAtOperand), else words.length. */
  readonly firstOperand: number;
  /** A word known only at run time stood where an option could be. */
  readonly runtimeWord?: WordValue;
}

interface Compiled {
  readonly short: Map<string, { name: string; arity: Arity }>;
  readonly long: Map<string, { name: string; arity: Arity }>;
}

const compiled = new WeakMap<GetoptSpec, Compiled>();

function compile(spec: GetoptSpec): Compiled {
  const cached = compiled.get(spec);
  if (cached !== undefined) return cached;
  const result: Compiled = { short: new Map(), long: new Map() };
  for (const [aliases, arity] of Object.entries(spec.options)) {
    const names = aliases.split(/\s+/);
    for (const alias of names) {
      if (alias.startsWith('--')) result.long.set(alias.slice(2), { name: names[0]!, arity });
      else result.short.set(alias.slice(1), { name: names[0]!, arity });
    }
  }
  for (const about of ['help', 'version'])
    if (!result.long.has(about)) result.long.set(about, { name: `--${about}`, arity: 'none' });
  compiled.set(spec, result);
  return result;
}

const literal = (text: string): WordValue => ({ raw: text, texts: [text], value: text, unknown: false, glob: false });

export function getopt(spec: GetoptSpec, words: readonly WordValue[]): GetoptResult {
  const table = compile(spec);
  const options: GetoptOption[] = [];
  const operands: WordValue[] = [];
  let runtimeWord: WordValue | undefined;
  let index = 0;
  for (; index < words.length; index++) {
    const word = words[index]!;
    const text = word.value;
    if (text === undefined) {
      // A word known only at run time: it may expand to an option (or to several words).
      runtimeWord ??= word;
      if (spec.stopAtOperand) break;
      operands.push(word);
      continue;
    }
    if (text === '--') {
      index++;
      break;
    }
    if (!text.startsWith('-') || text === '-') {
      if (spec.stopAtOperand) break;
      operands.push(word);
      continue;
    }
    if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      const name = equals === -1 ? text.slice(2) : text.slice(2, equals);
      const attached = equals === -1 ? undefined : text.slice(equals + 1);
      let entry = table.long.get(name);
      if (entry === undefined && name !== '') {
        const matches = new Map<string, { name: string; arity: Arity }>();
        for (const [long, candidate] of table.long) if (long.startsWith(name)) matches.set(candidate.name, candidate);
        // Aliases of one option are one match (`--nonblock`/`--nb`).
        if (matches.size === 1) entry = [...matches.values()][0];
      }
      if (entry === undefined) {
        options.push({ name: text, unlisted: true });
        continue;
      }
      if (entry.arity === 'required') {
        const value = attached !== undefined ? literal(attached) : words[++index];
        options.push(value === undefined ? { name: entry.name, unlisted: true } : { name: entry.name, value });
      } else if (entry.arity === 'optional')
        options.push({ name: entry.name, ...(attached === undefined ? {} : { value: literal(attached) }) });
      else options.push(attached === undefined ? { name: entry.name } : { name: text, unlisted: true });
      continue;
    }
    for (let letter = 1; letter < text.length; letter++) {
      const entry = table.short.get(text[letter]!);
      if (entry === undefined) {
        options.push({ name: `-${text[letter]}`, unlisted: true });
        continue;
      }
      const rest = text.slice(letter + 1);
      if (entry.arity === 'none') {
        options.push({ name: entry.name });
        continue;
      }
      if (entry.arity === 'optional')
        options.push({ name: entry.name, ...(rest === '' ? {} : { value: literal(rest) }) });
      else {
        const value = rest !== '' ? literal(rest) : words[++index];
        options.push(value === undefined ? { name: entry.name, unlisted: true } : { name: entry.name, value });
      }
      break;
    }
  }
  const firstOperand = index;
  operands.push(...words.slice(index));
  return { options, operands, firstOperand, ...(runtimeWord === undefined ? {} : { runtimeWord }) };
}
