import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { childrenOf, type Producer, textOf } from './words.js';

export type { Producer } from './words.js';

/**
 * Commands whose output is file names that all lie below one directory, so the names they
 * hand on (`find . | xargs wc -l`, `wc -l $(git ls-files)`) can be judged as a read of that
 * tree — secrets in it included — instead of as names known only at run time. Anything that
 * could print an arbitrary name (`find -printf`, `echo`) is no producer.
 */
const FIND_PRINTS_ANYTHING = new Set([
  '-printf',
  '-fprintf',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-ls',
  '-fls',
  '-fprint',
  '-fprint0',
]);
/** Filters that pass on a subset of their input's lines unchanged. */
const LINE_FILTERS = new Set(['head', 'tail', 'sort', 'uniq', 'grep', 'egrep', 'fgrep', 'cat']);

/** Static words of a simple command, or undefined when any word expands at run time (globs allowed when asked). */
function staticWords(node: Node, source: string, globs = false): string[] | undefined {
  if (node.type !== 'command') return undefined;
  const words: string[] = [];
  for (const child of childrenOf(node)) {
    if (!child.isNamed) continue;
    const target = child.type === 'command_name' ? child.namedChild(0) : child;
    if (target === null) return undefined;
    const text = textOf(target, source);
    if (target.type === 'word' && !(globs ? /[$`{\\~]/ : /[$`*?[{\\~]/).test(text)) words.push(text);
    else if (target.type === 'raw_string') words.push(text.slice(1, -1));
    else if (
      target.type === 'string' &&
      target.namedChildCount <= 1 &&
      target.namedChild(0)?.type !== 'simple_expansion' &&
      !/[$`\\]/.test(text)
    )
      words.push(text.slice(1, -1));
    else return undefined;
  }
  return words;
}

export function producerOf(node: Node, source: string, cwd: string | undefined): Producer | undefined {
  if (cwd === undefined) return undefined;
  if (node.type === 'command_substitution') {
    const inner = [...childrenOf(node)].filter((child) => child.isNamed);
    return inner.length === 1 ? producerOf(inner[0]!, source, cwd) : undefined;
  }
  if (node.type === 'pipeline') return pipelineProducer(node, source, cwd);
  const words = staticWords(node, source, textOf(node, source).trimStart().startsWith('ls'));
  if (words === undefined) return undefined;
  const [name, ...args] = words;
  switch (name) {
    case 'find':
      return findProducer(args, cwd);
    case 'git':
      if (args[0] !== 'ls-files' || args.some((arg) => arg.startsWith('--format'))) return undefined;
      // A repository may track a symbolic link (to ~/.ssh/id_rsa): its readers follow it.
      return { path: cwd, recursive: true, ...(indexHoldsNoLinks(cwd) ? { noLinks: true } : {}) };
    case 'ls':
      return lsProducer(args, cwd);
    case 'rg':
    case 'grep':
      return searchProducer(args, cwd);
    default:
      return undefined;
  }
}

/** A lister piped through line filters only (`find . | grep x | sort`): the lister's tree. */
function pipelineProducer(node: Node, source: string, cwd: string): Producer | undefined {
  const parts = [...childrenOf(node)].filter((child) => child.isNamed);
  for (const part of parts.slice(1)) {
    const words = staticWords(part, source);
    if (
      words === undefined ||
      !LINE_FILTERS.has(words[0]!) ||
      words.some((word) => /^-[a-zA-Z]*o|^--only/.test(word)) ||
      (words[0] !== 'grep' && words.length > 1 && words.slice(1).some((word) => !word.startsWith('-')))
    ) {
      return undefined;
    }
  }
  return parts[0] === undefined ? undefined : producerOf(parts[0], source, cwd);
}

function findProducer(args: readonly string[], cwd: string): Producer | undefined {
  if (args.some((arg) => FIND_PRINTS_ANYTHING.has(arg))) return undefined;
  const expression = args.findIndex((arg) => arg.startsWith('-') || arg === '(' || arg === '!');
  const starts = expression === -1 ? args : args.slice(0, expression);
  if (starts.length > 1 || starts.some((start) => start.startsWith('-'))) return undefined;
  // `find -L . | xargs cat`: the names may lie wherever the links below lead.
  if (args.includes('-L') || args.includes('-follow')) return undefined;
  // `-type f` (or d) alone, with no operator that could widen it: find prints no symbolic links.
  const noLinks =
    args.some((arg, index) => arg === '-type' && /^[fd]$/.test(args[index + 1] ?? '')) &&
    !args.some((arg) => /^(-o|-or|,|!|-not|\(|\))$/.test(arg));
  return { path: resolve(cwd, starts[0] ?? '.'), recursive: true, ...(noLinks ? { noLinks } : {}) };
}

/**
 * ls prints bare names (or the relative paths it was given), which the next command resolves
 * in its own directory: a producer only when every operand stays below it.
 */
function lsProducer(args: readonly string[], cwd: string): Producer | undefined {
  if (
    args.some(
      (arg) =>
        /^-[a-zA-Z]*R/.test(arg) || (!arg.startsWith('-') && (arg.startsWith('/') || arg.split('/').includes('..'))),
    )
  )
    return undefined;
  // `ls src/*.ts` prints the paths matched (`src/a.ts`): they lie in src. A directory operand
  // prints bare names, which the reader resolves where it runs.
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const directories = new Set(
    operands.map((arg) => (/^[^*?[]+\/[^/]*[*?[][^/]*$/.test(arg) ? arg.slice(0, arg.lastIndexOf('/')) : undefined)),
  );
  const only = directories.size === 1 ? [...directories][0] : undefined;
  return { path: only === undefined ? cwd : resolve(cwd, only), recursive: true };
}

/** `grep -l`, `rg --files`: the names of the files below the one directory searched. */
function searchProducer(args: readonly string[], cwd: string): Producer | undefined {
  const listing = args.some((arg) => arg === '--files' || arg === '--files-with-matches' || /^-[a-zA-Z]*l/.test(arg));
  if (!listing) return undefined;
  // -R (grep), -L/--follow (rg): the names may lie wherever the links below lead.
  if (args.some((arg) => /^-[a-zA-Z]*[RL]|^--(follow|dereference)/.test(arg))) return undefined;
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const directories = args.includes('--files') ? operands : operands.slice(1);
  if (directories.length > 1) return undefined;
  return { path: resolve(cwd, directories[0] ?? '.'), recursive: true };
}

/** Whether the index of the repository at `cwd` tracks no symbolic link (mode 120000); false when unknown. */
function indexHoldsNoLinks(cwd: string): boolean {
  try {
    const listing = execFileSync('git', ['-c', 'core.fsmonitor=false', '--no-pager', 'ls-files', '-s', '-z'], {
      cwd,
      timeout: 2_000,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
    }).toString('latin1');
    return !listing.split('\0').some((entry) => entry.startsWith('120000 '));
  } catch {
    return false;
  }
}
