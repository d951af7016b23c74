import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { parseBash } from './bash-parser.js';

/**
 * The host view, split off (issue 18). `ps`, `ss`, `ip a` see nothing in a sandbox of their own,
 * so they need the host's PID and network namespaces. That view used to be given to the whole
 * line, and the same line could hold an interpreter (`pgrep -a node | awk 'BEGIN{… | "sh"}'`
 * dropped a database). Now only a lone reader gets it: the first element of a top-level
 * pipeline, a program of the table below called with literal words and only the options its
 * row lists; bubblewrap executes it directly, no shell. The rest of the line runs fully
 * sandboxed and reads the reader's output on stdin. Anything else gets no host view at all.
 * This does not trust the assessor: the gate may have judged the line harmless for any reason;
 * the host view is given by this table alone.
 */
export interface HostReader {
  /** The reader's absolute path (from the system directories only, never the workspace). */
  readonly program: string;
  readonly args: readonly string[];
  /** The rest of the pipeline (`grep node | awk …`), or undefined when the reader is the whole line. */
  readonly rest?: string;
}

interface ReaderRow {
  /** Letters that may be combined after one dash (`-tlnp`); `ps` also takes them without a dash. */
  readonly flags?: string;
  /** Letters that, last in a group (`-eo`), take the next word as their value. */
  readonly valuedLetters?: string;
  /** Letters allowed without a dash (BSD `ps aux`). */
  readonly bareFlags?: string;
  /** Options that take the next word as their value (`-p 1234`, `-o pid,cmd`). */
  readonly valued?: readonly string[];
  /** Long options (`--numeric`), and `--name=value` forms by their name. */
  readonly long?: readonly string[];
  /** What a word that is not an option may be. */
  readonly operands?: RegExp | 'none';
  /** An option with its value glued on (`lsof -i:5432`). */
  readonly glued?: RegExp;
  /** At most this many operands (`ifconfig eth0` lists; `ifconfig eth0 down` changes). */
  readonly maxOperands?: number;
  /** A check of the whole word list where the grammar is not options and operands (`ip`). */
  readonly check?: (words: readonly string[]) => boolean;
}

/** A harmless operand: a name, a number, a filter term (`sport = :5432`, `state listening`). */
const PLAIN = /^[\w.,:@%+=/<>!()-]+$/;

const IP_OPTIONS = new Set([
  '-4',
  '-6',
  '-s',
  '-d',
  '-br',
  '-brief',
  '-c',
  '-color',
  '-j',
  '-json',
  '-p',
  '-pretty',
  '-o',
  '-oneline',
  '-h',
  '-human',
  '-stats',
  '-details',
  '-statistics',
]);
/** Objects whose default verb is a listing. Not `netns` (`netns exec` runs a program), not `monitor`. */
const IP_OBJECTS = new Set([
  'a',
  'addr',
  'address',
  'l',
  'link',
  'r',
  'ro',
  'route',
  'n',
  'neigh',
  'neighbor',
  'neighbour',
  'ru',
  'rule',
  'm',
  'maddr',
  'maddress',
  'ntable',
  'tunnel',
  'tuntap',
  'mroute',
  'nexthop',
]);
const IP_SHOW = new Set(['show', 'sh', 'list', 'lst', 'ls', 'l']);

/**
 * `ip [-4|-6|-br|-j …] OBJECT [show|list] [dev X …]`: only listings. Never `-b`/`-batch` (reads
 * commands from a file), `-force`, `-n`/`-netns` (enters a namespace), or a verb that changes.
 */
function ipShows(words: readonly string[]): boolean {
  let at = 0;
  while (at < words.length && words[at]!.startsWith('-')) if (!IP_OPTIONS.has(words[at++]!)) return false;
  const object = words[at];
  if (object === undefined) return false;
  if (!IP_OBJECTS.has(object)) return false;
  const verb = words[at + 1];
  if (verb === undefined) return true;
  return IP_SHOW.has(verb) && words.slice(at + 2).every((word) => PLAIN.test(word) && !word.startsWith('-'));
}

/**
 * Readers of host state and the options that keep them readers. Unlisted option → no host view.
 * Each program here only reads; what is left out and why is said on its row.
 */
const HOST_READERS: Readonly<Record<string, ReaderRow>> = {
  // No `e` without a dash: BSD `ps e` prints every process's environment (secrets of other programs).
  // Operands only as option values: a bare word is a BSD option group, checked letter by letter.
  ps: {
    flags: 'AaCcdefFHjlLMmNOopqrSTUuvwxyZ',
    valuedLetters: 'oOpqtuUCgG',
    bareFlags: 'acfhjlLmrSTuvwxX',
    valued: ['--sort', '--format', '--pid', '--ppid', '--user', '--cols', '--width', '--columns'],
    long: [
      '--forest',
      '--no-headers',
      '--headers',
      '--sort',
      '--pid',
      '--ppid',
      '--user',
      '--format',
      '--cols',
      '--width',
      '--columns',
    ],
    operands: 'none',
  },
  // A pattern is a regular expression for pgrep to match: any literal text, spaces included.
  pgrep: {
    flags: 'aflnoxcivuUgGPstd',
    valuedLetters: 'uUgGPstd',
    operands: /^[^\0\n]+$/,
    long: [
      '--list-name',
      '--list-full',
      '--full',
      '--newest',
      '--oldest',
      '--exact',
      '--count',
      '--ignore-case',
      '--inverse',
    ],
  },
  pidof: { flags: 'sxcqwzod', valuedLetters: 'od', operands: PLAIN },
  pstree: {
    flags: 'acglnpstuAGUhHTS',
    long: ['--arguments', '--show-pids', '--numeric-sort', '--long', '--ascii'],
    operands: PLAIN,
  },
  // Interactive top reads keys (`k` kills) from a terminal; stdin is closed, so only `-b` output comes.
  top: { flags: 'bcHiSsE1ndpuUowe', valuedLetters: 'ndpuUowEe', operands: 'none' },
  // Not `-K`/`--kill` (closes sockets), `-D`/`--diag` (writes a file), `-N`/`--net` (enters a namespace), `-F`.
  ss: {
    flags: 'tuwxlnpaeimoOrsHZz46S0E',
    long: [
      '--tcp',
      '--udp',
      '--unix',
      '--listening',
      '--numeric',
      '--processes',
      '--all',
      '--summary',
      '--extended',
      '--info',
      '--memory',
      '--options',
      '--no-header',
      '--oneline',
      '--resolve',
      '--ipv4',
      '--ipv6',
      '--raw',
    ],
    operands: PLAIN,
  },
  netstat: {
    flags: 'tuwxlnpaeiorsgvWM46c',
    long: [
      '--tcp',
      '--udp',
      '--listening',
      '--numeric',
      '--program',
      '--all',
      '--route',
      '--interfaces',
      '--statistics',
      '--extend',
      '--wide',
    ],
    operands: 'none',
  },
  ip: { check: ipShows },
  // `-i` with its spec glued on (`-i:5432`, `-iTCP`) is one word; no `-r` (repeats forever) is needed either.
  lsof: {
    flags: 'nPtlaRwUsipucdg',
    valuedLetters: 'pucdg',
    valued: ['+D', '+d'],
    glued: /^-(i[\w:.@-]+|s(TCP|UDP):[\w^,]+)$/,
    operands: /^[\w.,:@/=][\w.,:@/=-]*$/,
  },
  w: { flags: 'hsfiuo', operands: PLAIN },
  who: { flags: 'abdHlmpqrsTtu', long: ['--all', '--boot', '--heading', '--count'], operands: /^(am|i|I)$/ },
  uptime: { flags: 'psh', long: ['--pretty', '--since'], operands: 'none' },
  // With an operand, `hostname NAME` sets the name; `-F FILE` too.
  hostname: {
    flags: 'fisdAIa',
    long: ['--fqdn', '--short', '--domain', '--all-fqdns', '--all-ip-addresses', '--ip-address'],
    operands: 'none',
  },
  // `ifconfig IFACE` lists one interface; `ifconfig IFACE up|down|ADDR` changes it (refused by the operand count).
  ifconfig: { flags: 'as', operands: /^[a-z][\w.-]*$/, maxOperands: 1 },
  route: { flags: 'nev', operands: 'none' },
  arp: { flags: 'naev', operands: 'none' },
  // Who the person is: the sandbox runs as `nobody` when riskgate is root (sandbox-user.ts), and
  // `id` there would say 65534 — a wrong answer about the person's machine. These read no files.
  id: { flags: 'ugGnrz', long: ['--user', '--group', '--groups', '--name', '--real', '--zero'], operands: PLAIN },
  whoami: { operands: 'none' },
  groups: { operands: PLAIN },
};

function wordsFit(row: ReaderRow, words: readonly string[]): boolean {
  if (row.check !== undefined) return row.check(words);
  let operands = 0;
  for (let at = 0; at < words.length; at++) {
    const word = words[at]!;
    const [name] = word.split('=', 1) as [string];
    if (row.valued?.includes(word)) {
      const value = words[++at];
      if (value === undefined || !PLAIN.test(value)) return false;
      continue;
    }
    if (word.startsWith('--')) {
      if (!(row.long ?? []).includes(name)) return false;
      continue;
    }
    if (row.glued?.test(word) === true) continue;
    if (word.startsWith('-') && word.length > 1) {
      if (![...word.slice(1)].every((letter) => (row.flags ?? '').includes(letter))) return false;
      if (row.valuedLetters?.includes(word.at(-1)!) === true) {
        const value = words[++at];
        if (value === undefined || !PLAIN.test(value)) return false;
      }
      continue;
    }
    if (
      row.bareFlags !== undefined &&
      at === 0 &&
      /^[a-z]+$/i.test(word) &&
      [...word].every((letter) => row.bareFlags!.includes(letter))
    )
      continue;
    if (row.operands === undefined || row.operands === 'none' || !row.operands.test(word)) return false;
    operands++;
  }
  return operands <= (row.maxOperands ?? Number.POSITIVE_INFINITY);
}

/** Only the system's own directories: a `ps` in the workspace or a writable PATH entry never gets the host view. */
const SYSTEM_DIRECTORIES = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

function systemProgram(name: string): string | undefined {
  for (const directory of SYSTEM_DIRECTORIES) {
    const path = join(directory, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A word's value when it has no expansion, glob, escape or tilde to interpret; else undefined. */
function literal(node: Node): string | undefined {
  const text = node.text;
  if (node.type === 'word' || node.type === 'number')
    return /^[\w@%+=:,./-]+$/.test(text) && !text.startsWith('~') ? text : undefined;
  if (node.type === 'raw_string') return text.slice(1, -1);
  if (node.type === 'string') {
    const inner = text.slice(1, -1);
    return node.namedChildren.every((child) => child?.type === 'string_content') && !/[\\$`]/.test(inner)
      ? inner
      : undefined;
  }
  return undefined;
}

/** The reader and its words when `node` is a plain simple command of the table, else undefined. */
function readerOf(node: Node): { program: string; args: string[] } | undefined {
  if (node.type !== 'command') return undefined;
  const words: string[] = [];
  for (const child of node.namedChildren) {
    if (child === null) return undefined;
    const part = child.type === 'command_name' ? child.namedChildren[0] : child;
    // Assignments, redirections, substitutions, globs: not a lone literal reader.
    if (part === null || part === undefined) return undefined;
    const value = literal(part);
    if (value === undefined) return undefined;
    words.push(value);
  }
  const [name, ...args] = words;
  const row = name === undefined ? undefined : HOST_READERS[name];
  if (row === undefined || !Object.hasOwn(HOST_READERS, name!) || !wordsFit(row, args)) return undefined;
  const program = systemProgram(name!);
  return program === undefined ? undefined : { program, args };
}

/**
 * Splits a line into a host reader and the rest, or undefined when the line gets no host view.
 * `ps aux` → the reader alone; `ps aux | grep node | awk …` → `ps aux`, rest `grep node | awk …`.
 */
export async function splitHostReader(command: string): Promise<HostReader | undefined> {
  const tree = await parseBash(command);
  try {
    const root = tree.rootNode;
    if (root.hasError) return undefined;
    const statements = root.namedChildren;
    const [statement] = statements;
    if (statements.length !== 1 || statement === null || statement === undefined) return undefined;
    if (statement.type === 'command') {
      const reader = readerOf(statement);
      return reader === undefined ? undefined : { ...reader };
    }
    if (statement.type !== 'pipeline') return undefined;
    const [first, second] = statement.namedChildren;
    // `|&` would send the reader's stderr too; only the plain pipe is split.
    const pipes = statement.children.filter((child) => child !== null && !child.isNamed);
    if (
      first === null ||
      first === undefined ||
      second === null ||
      second === undefined ||
      pipes.some((pipe) => pipe!.type !== '|')
    )
      return undefined;
    const reader = readerOf(first);
    if (reader === undefined) return undefined;
    // The reader runs to its end before the rest reads its output (execute-command-tool.ts):
    // `top -b` without a count never ends.
    if (reader.program.endsWith('/top') && !reader.args.some((word) => /^-[^-]*n/.test(word))) return undefined;
    // Indices are into the JavaScript string, as the walker slices them (assess/words.ts).
    return { ...reader, rest: command.slice(second.startIndex, statement.endIndex) };
  } finally {
    tree.delete();
  }
}

/** Whether `name` is a reader of host state (for the docs and tests). */
export function isHostReaderProgram(name: string): boolean {
  return Object.hasOwn(HOST_READERS, name);
}
