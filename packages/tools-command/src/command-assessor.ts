import { type LegacyVerdict, maxRiskLevel, type RiskLevel } from '@riskgate/risk';
import type { Node } from 'web-tree-sitter';
import { parseBash } from './bash-parser.js';
import {
  COMMAND_WHITELIST,
  FIND_DENIED,
  GIT_DENIED_LONG,
  GIT_GLOBAL_FLAGS,
  GIT_GLOBAL_WITH_VALUE,
  GIT_READ_SUBCOMMANDS,
  HARMLESS_ENVIRONMENT,
  INTERPRETERS,
  type OptionRule,
  SHELLS,
} from './command-specs.js';

/**
 * One word of a command line. `value` is what bash will pass when it is known before running
 * (quotes removed, escapes applied); undefined when it expands at run time ($VAR, $(…)).
 * `expands` marks globs and brace expansions, which turn into other words at run time.
 */
interface Word {
  readonly raw: string;
  readonly value: string | undefined;
  readonly expands: boolean;
}

interface Finding {
  readonly level: RiskLevel;
  readonly reason: string;
}

/** What the walk collects about a whole command line. */
class Judgement {
  readonly findings: Finding[] = [];
  readonly subjects: string[] = [];
  /** Commands seen, by name, for cross-command patterns (curl … | sh). */
  readonly commandNames: string[] = [];
  /** Scripts given to `sh -c`, judged after the walk. */
  readonly nestedScripts: string[] = [];
  parseFailed = false;

  flag(level: RiskLevel, reason: string): void {
    if (!this.findings.some((finding) => finding.reason === reason)) this.findings.push({ level, reason });
  }
}

const STRUCTURE = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'negated_command', 'redirected_statement',
  'heredoc_redirect', 'herestring_redirect', 'heredoc_body', 'heredoc_content', 'heredoc_start', 'heredoc_end',
  'command_substitution', 'process_substitution', 'string', 'raw_string', 'string_content', 'concatenation', 'word',
  'number', 'simple_expansion', 'expansion', 'variable_name', 'special_variable_name', 'arithmetic_expansion',
  'ansi_c_string', 'translated_string', 'brace_expression', 'comment', 'test_command', 'binary_expression',
  'unary_expression', 'parenthesized_expression', 'test_operator', 'regex', 'extglob_pattern', 'file_descriptor',
  'subscript', 'number_expression', 'postfix_expression', 'ternary_expression',
]);
const REDIRECT_OPERATORS = new Set(['>', '>>', '<', '&>', '&>>', '>&', '<&', '>|', '<>', '>&-', '<&-']);
const TOKENS = new Set(['|', '|&', '&&', '||', ';', ';;', '\n', '(', ')', '{', '}', '$(', '`', '"', "'", '<(', '>(', '[[', ']]', '!', '$', '${', '$((', '))', '<<', '<<-', '<<<']);

export interface CommandAssessment extends LegacyVerdict {
  /** Every simple command found, as words (for the panel and tests). */
  readonly commands: readonly string[];
}

const MAX_NESTING = 3;

/**
 * The text of a node, sliced from the source being walked: `textOf(node)` rebuilds it through a
 * text callback and paused one call in a hundred (indices are UTF-16 units, as the slice).
 */
let walkedSource = '';
function textOf(node: Node): string {
  return walkedSource.slice(node.startIndex, node.endIndex);
}
function optionalTextOf(node: Node | null): string | undefined {
  return node === null ? undefined : textOf(node);
}

/**
 * Children by index: `node.children` marshals an array through the WASM heap on every call,
 * which made one call in a hundred pause for milliseconds (BENCHMARKS.md).
 */
function* childrenOf(node: Node): Generator<Node> {
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (child !== null) yield child;
  }
}

export async function assessCommand(command: string, depth = 0): Promise<CommandAssessment> {
  const source = command;
  if (source.trim() === '') {
    return { level: 'low', whitelisted: false, reasons: ['the command is empty'], subjects: [], commands: [] };
  }
  const tree = await parseBash(source);
  const judgement = new Judgement();
  try {
    walkedSource = source;
    judgement.parseFailed = tree.rootNode.hasError;
    if (judgement.parseFailed) judgement.flag('medium', 'the command does not parse as bash');
    visit(tree.rootNode, judgement);
    crossCommandPatterns(judgement);
  } finally {
    tree.delete();
  }
  for (const script of judgement.nestedScripts) {
    if (depth >= MAX_NESTING) {
      judgement.flag('high', 'shell scripts nested too deep to check');
      break;
    }
    const inner = await assessCommand(script, depth + 1);
    judgement.subjects.push(...inner.subjects);
    if (!inner.whitelisted) for (const reason of inner.reasons) judgement.flag(inner.level, `inside it: ${reason}`);
  }
  const whitelisted = judgement.findings.length === 0 && judgement.commandNames.length > 0;
  if (judgement.commandNames.length === 0 && judgement.findings.length === 0) {
    judgement.flag('low', 'the line holds no command');
  }
  return {
    level: whitelisted ? 'low' : maxRiskLevel(...judgement.findings.map((finding) => finding.level)),
    whitelisted,
    reasons: whitelisted ? [`read-only: ${[...new Set(judgement.commandNames)].join(', ')}`] : judgement.findings.map((finding) => finding.reason),
    subjects: judgement.subjects,
    commands: judgement.subjects,
  };
}

function visit(node: Node, judgement: Judgement, checkMissing = judgement.parseFailed): void {
  const type = node.type;
  // Missing nodes only exist in a tree whose root reports an error: skip the check otherwise.
  if (checkMissing && node.isMissing) {
    judgement.flag('medium', 'the command is incomplete');
    return;
  }
  // Token types are their own text; asking the tree whether a node is named costs a WASM call.
  if (TOKENS.has(type)) return;
  if (type === '&') {
    judgement.flag('medium', 'runs a command in the background');
    return;
  }
  if (!STRUCTURE.has(type) && !node.isNamed) {
    judgement.flag('medium', `uses shell syntax "${type}" that is not on the whitelist`);
    return;
  }
  switch (node.type) {
    case 'ERROR':
      judgement.flag('medium', `the command does not parse as bash near "${textOf(node).slice(0, 40)}"`);
      return;
    case 'command':
      judgeCommand(node, judgement);
      return;
    case 'file_redirect':
      judgeRedirect(node, judgement);
      return;
    case 'variable_assignment':
    case 'variable_assignments':
      judgement.flag('medium', `sets the shell variable ${optionalTextOf(node.childForFieldName('name')) ?? textOf(node)}, which can change what later commands do`);
      break;
    case 'declaration_command':
    case 'unset_command':
      judgement.flag('medium', `${optionalTextOf(node.child(0)) ?? 'declare'} changes shell variables`);
      break;
    case 'function_definition':
      judgement.flag('medium', 'defines a shell function, which can stand in for any command name');
      break;
    case 'for_statement':
    case 'c_style_for_statement':
    case 'while_statement':
    case 'if_statement':
    case 'case_statement':
      judgement.flag('medium', `${optionalTextOf(node.child(0)) ?? node.type} blocks are not on the whitelist`);
      break;
    default:
      if (!STRUCTURE.has(node.type)) judgement.flag('medium', `uses shell syntax "${node.type}" that is not on the whitelist`);
  }
  for (const child of childrenOf(node)) visit(child, judgement, checkMissing);
}

/** The value bash will give a word, when it is known before running. */
function wordOf(node: Node): Word {
  const raw = textOf(node);
  switch (node.type) {
    case 'word': {
      const expands = /(^|[^\\])[*?[]/.test(raw) || /(^|[^\\])\{[^}]*,[^}]*\}/.test(raw) || raw.startsWith('~');
      return { raw, value: raw.replace(/\\(.)/gs, '$1').replace(/\\\n/g, ''), expands };
    }
    case 'number':
      return { raw, value: raw, expands: false };
    case 'raw_string':
      return { raw, value: raw.slice(1, -1), expands: false };
    case 'string': {
      for (const child of childrenOf(node)) {
        if (child.type !== 'string_content' && child.type !== '"') return { raw, value: undefined, expands: false };
      }
      const inner = raw.slice(1, -1);
      return { raw, value: inner.replace(/\\([$`"\\\n])/g, '$1'), expands: false };
    }
    case 'concatenation': {
      const parts = [...childrenOf(node)].map(wordOf);
      const known = parts.every((part) => part.value !== undefined);
      return { raw, value: known ? parts.map((part) => part.value).join('') : undefined, expands: parts.some((part) => part.expands) };
    }
    default:
      // $VAR, ${…}, $(…), `…`, $((…)), $'…' (decoded by bash, never guessed here), {a,b}.
      return { raw, value: undefined, expands: node.type === 'brace_expression' };
  }
}

function judgeRedirect(node: Node, judgement: Judgement): void {
  let operator = '';
  for (const child of childrenOf(node)) {
    if (REDIRECT_OPERATORS.has(child.type)) {
      operator = child.type;
      break;
    }
  }
  const destinationNode = node.childForFieldName('destination');
  const destination = destinationNode === null ? undefined : wordOf(destinationNode);
  for (const child of childrenOf(node)) {
    if (child.type !== 'word' && child !== destinationNode && !REDIRECT_OPERATORS.has(child.type) && child.type !== 'file_descriptor') visit(child, judgement);
  }
  if (destinationNode !== null && destinationNode.type !== 'word') visit(destinationNode, judgement);
  // Reading a file into a command changes nothing.
  if (operator === '<' || operator === '<&' || operator === '<<<') return;
  // Duplicating a descriptor (2>&1, >&2) and discarding output write nothing.
  if ((operator === '>&' || operator === '<&') && /^\d+$|^-$/.test(destination?.value ?? '')) return;
  if (destination?.value === '/dev/null' && !destination.expands) return;
  const target = destination?.value ?? destination?.raw ?? 'a file';
  const device = /^\/dev\/(sd|nvme|hd|vd|disk|mmcblk)/.test(target);
  judgement.flag(device ? 'high' : 'medium', device ? `output is written to the disk device ${target}` : `output is written to ${target}`);
  judgement.subjects.push(`${operator} ${target}`);
}

function judgeCommand(node: Node, judgement: Judgement): void {
  const words: Word[] = [];
  const assignments: string[] = [];
  for (const child of childrenOf(node)) {
    if (child.type === 'variable_assignment') {
      const name = optionalTextOf(child.childForFieldName('name')) ?? '';
      assignments.push(name);
      const value = child.childForFieldName('value');
      if (value !== null) visit(value, judgement);
    } else if (child.type === 'command_name') {
      const nameNode = child.namedChild(0);
      if (nameNode !== null) {
        words.push(wordOf(nameNode));
        visitInside(nameNode, judgement);
      }
    } else if (child.type === 'file_redirect') {
      judgeRedirect(child, judgement);
    } else if (child.isNamed) {
      words.push(wordOf(child));
      visitInside(child, judgement);
    }
  }
  judgement.subjects.push(words.map((word) => word.value ?? word.raw).join(' '));
  for (const name of assignments) {
    if (!HARMLESS_ENVIRONMENT.test(name)) judgement.flag('medium', `sets ${name} for the command, which can change what it does`);
  }
  judgeWords(words, judgement);
}

/** Substitutions inside a word are commands of their own. */
function visitInside(node: Node, judgement: Judgement): void {
  if (node.type === 'word' || node.type === 'number' || node.type === 'raw_string') return;
  visit(node, judgement);
}

const HIGH_COMMANDS: Record<string, string> = {
  rm: 'rm deletes files',
  shred: 'shred destroys file contents',
  dd: 'dd writes raw data to files or devices',
  truncate: 'truncate cuts files short',
  kill: 'kill stops processes',
  killall: 'killall stops processes',
  pkill: 'pkill stops processes',
  shutdown: 'shutdown stops the machine',
  reboot: 'reboot restarts the machine',
  halt: 'halt stops the machine',
  poweroff: 'poweroff stops the machine',
  init: 'init changes the machine’s run level',
  crontab: 'crontab changes scheduled jobs',
  eval: 'eval runs code built at run time',
  source: 'source runs a script in this shell',
  '.': '. runs a script in this shell',
  mkswap: 'mkswap formats a device',
  fdisk: 'fdisk changes disk partitions',
  parted: 'parted changes disk partitions',
  sudo: 'sudo runs as root',
  doas: 'doas runs as root',
  su: 'su runs as another user',
};
const MEDIUM_COMMANDS: Record<string, string> = {
  mv: 'mv moves or overwrites files',
  cp: 'cp copies over files',
  touch: 'touch creates or changes files',
  mkdir: 'mkdir creates directories',
  rmdir: 'rmdir removes directories',
  ln: 'ln creates links',
  tee: 'tee writes its input to files',
  curl: 'curl sends a network request',
  wget: 'wget downloads from the network',
  ssh: 'ssh runs commands on another machine',
  scp: 'scp copies files over the network',
  rsync: 'rsync copies and may delete files',
  exec: 'exec replaces the shell with another program',
  nohup: 'nohup runs a command that outlives this one and writes nohup.out',
  printenv: 'printenv prints environment variables, which may hold secrets',
  set: 'set changes shell options or prints variables, which may hold secrets',
  export: 'export changes the environment',
  make: 'make runs build recipes',
  docker: 'docker controls containers',
  systemctl: 'systemctl controls system services',
};
const PACKAGE_MANAGERS: Record<string, readonly string[]> = {
  npm: ['install', 'i', 'add', 'ci', 'uninstall', 'remove', 'rm', 'update', 'exec', 'x', 'publish'],
  pnpm: ['install', 'i', 'add', 'remove', 'rm', 'update', 'up', 'dlx', 'exec', 'publish'],
  yarn: ['install', 'add', 'remove', 'upgrade', 'dlx', 'publish'],
  pip: ['install', 'uninstall', 'download'],
  pip3: ['install', 'uninstall', 'download'],
  apt: ['install', 'remove', 'purge', 'upgrade', 'full-upgrade', 'autoremove'],
  'apt-get': ['install', 'remove', 'purge', 'upgrade', 'dist-upgrade', 'autoremove'],
  brew: ['install', 'uninstall', 'upgrade', 'reinstall'],
  cargo: ['install', 'uninstall', 'publish'],
  gem: ['install', 'uninstall', 'update'],
  go: ['install', 'get'],
  dnf: ['install', 'remove', 'upgrade'],
  yum: ['install', 'remove', 'update'],
  pacman: ['-S', '-R', '-Syu', '-U'],
};

function judgeWords(words: readonly Word[], judgement: Judgement): void {
  const [nameWord, ...args] = words;
  if (nameWord === undefined) return;
  if (nameWord.value === undefined || nameWord.expands) {
    judgement.flag('medium', `the command name ${nameWord.raw} is computed at run time`);
    return;
  }
  const name = commandName(nameWord.value, judgement);
  if (name === undefined) return;
  judgement.commandNames.push(name);
  const rule = COMMAND_WHITELIST.get(name);
  if (rule !== undefined) {
    judgeWhitelisted(name, rule, args, judgement);
    return;
  }
  judgeUnlisted(name, args, judgement);
}

/** `ls`, `/bin/ls` and `/usr/bin/ls` are ls; `./ls` or `~/bin/ls` is some other program. */
function commandName(value: string, judgement: Judgement): string | undefined {
  if (!value.includes('/')) return value;
  const match = /^\/(?:usr\/)?(?:local\/)?s?bin\/([^/]+)$/.exec(value);
  if (match !== null) return match[1];
  judgement.flag('medium', `runs the program at ${value}, which is not on the whitelist`);
  return undefined;
}

function judgeWhitelisted(name: string, rule: NonNullable<ReturnType<typeof COMMAND_WHITELIST.get>>, args: readonly Word[], judgement: Judgement): void {
  switch (rule.kind) {
    case 'free':
      return;
    case 'options':
      if (requireKnownArguments(name, args, judgement)) checkOptions(name, rule, args.map((arg) => arg.value!), judgement);
      return;
    case 'custom':
      judgeCustom(name, args, judgement);
      return;
  }
}

/**
 * A command with dangerous options is only judged on arguments known before it runs: a
 * variable or a glob could expand to `-o file` (a file named `-delete` turns `find *` into a
 * deletion).
 */
function requireKnownArguments(name: string, args: readonly Word[], judgement: Judgement): boolean {
  const unknown = args.find((arg) => arg.value === undefined || arg.expands);
  if (unknown === undefined) return true;
  judgement.flag('medium', `${name} is only whitelisted with arguments known in advance, and ${unknown.raw} expands at run time`);
  return false;
}

function split(args: readonly string[]): { options: string[]; positionals: string[] } {
  const options: string[] = [];
  const positionals: string[] = [];
  let ended = false;
  for (const arg of args) {
    if (!ended && arg === '--') ended = true;
    else if (!ended && arg.startsWith('-') && arg !== '-') options.push(arg);
    else positionals.push(arg);
  }
  return { options, positionals };
}

/** A long option given abbreviated (`--out`) is refused when it could mean a refused one. */
function deniedLongOption(option: string, denied: readonly string[]): string | undefined {
  const name = option.split('=')[0]!;
  return denied.find((refused) => refused === name || (name.length >= 3 && refused.startsWith(name)));
}

function checkOptions(name: string, rule: OptionRule, args: readonly string[], judgement: Judgement): void {
  const { options, positionals } = split(args);
  for (const option of options) {
    if (option.startsWith('--')) {
      if (deniedLongOption(option, rule.deniedLong ?? []) !== undefined) {
        judgement.flag('medium', `${name} ${option.split('=')[0]}: ${rule.why}`);
        return;
      }
    } else if (rule.deniedShort !== undefined && [...option.slice(1)].some((letter) => rule.deniedShort!.includes(letter))) {
      judgement.flag('medium', `${name} ${option}: ${rule.why}`);
      return;
    }
  }
  if (rule.maxPositionals !== undefined && positionals.length > rule.maxPositionals) {
    judgement.flag('medium', `${name} with ${positionals.length} file names: ${rule.why}`);
    return;
  }
  if (rule.positional !== undefined && positionals.some((positional) => !rule.positional!.test(positional))) {
    judgement.flag('medium', `${name} ${positionals.join(' ')}: ${rule.why}`);
  }
}

function judgeCustom(name: string, args: readonly Word[], judgement: Judgement): void {
  switch (name) {
    case 'find': {
      if (!requireKnownArguments(name, args, judgement)) return;
      const denied = args.find((arg) => FIND_DENIED.has(arg.value!));
      if (denied !== undefined) {
        const deletes = denied.value === '-delete';
        judgement.flag(deletes ? 'high' : 'medium', deletes ? 'find -delete deletes files' : `find ${denied.value} ${denied.value!.startsWith('-f') ? 'writes a file' : 'runs a program on every file found'}`);
      }
      return;
    }
    case 'sed':
      judgeSed(args, judgement);
      return;
    case 'git':
      judgeGit(args, judgement);
      return;
    case 'xargs':
      judgeXargs(args, judgement);
      return;
    case 'command': {
      const first = args[0]?.value;
      if (first === '-v' || first === '-V') return;
      judgeWrapped(args.filter((arg) => arg.value !== '-p'), judgement, name);
      return;
    }
    case 'time':
      judgeWrapped(args[0]?.value === '-p' ? args.slice(1) : args, judgement, name);
      return;
    case 'nice': {
      let index = 0;
      while (index < args.length && args[index]!.value?.startsWith('-')) {
        index += args[index]!.value === '-n' ? 2 : 1;
      }
      judgeWrapped(args.slice(index), judgement, name);
      return;
    }
    case 'timeout': {
      let index = 0;
      while (index < args.length && args[index]!.value?.startsWith('-')) {
        index += args[index]!.value === '-s' || args[index]!.value === '-k' ? 2 : 1;
      }
      judgeWrapped(args.slice(index + 1), judgement, name);
      return;
    }
    case 'env':
      judgeEnv(args, judgement);
      return;
    default:
      judgement.flag('medium', `${name} is not on the whitelist`);
  }
}

/** Wrappers are looked through, not trusted: `time ls` is judged as `ls`. */
function judgeWrapped(rest: readonly Word[], judgement: Judgement, wrapper: string): void {
  if (rest.length === 0) {
    if (wrapper === 'env') judgement.flag('medium', 'env prints environment variables, which may hold secrets');
    return;
  }
  judgeWords(rest, judgement);
}

function judgeEnv(args: readonly Word[], judgement: Judgement): void {
  let index = 0;
  for (; index < args.length; index++) {
    const value = args[index]!.value;
    if (value === undefined) {
      judgement.flag('medium', `env is only whitelisted with arguments known in advance, and ${args[index]!.raw} expands at run time`);
      return;
    }
    if (value === '-i' || value === '--ignore-environment' || value === '-0' || value === '--null') continue;
    if (value === '-u' || value === '--unset') {
      index++;
      continue;
    }
    if (value.startsWith('--unset=')) continue;
    if (value.startsWith('-')) {
      judgement.flag('medium', `env ${value} is not on the whitelist`);
      return;
    }
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(value);
    if (assignment === null) break;
    if (!HARMLESS_ENVIRONMENT.test(assignment[1]!)) {
      judgement.flag('medium', `sets ${assignment[1]} for the command, which can change what it does`);
      return;
    }
  }
  judgeWrapped(args.slice(index), judgement, 'env');
}

/** `sed -n` with addresses and print commands only: no w/W (write), e (execute), -i (in place). */
function judgeSed(args: readonly Word[], judgement: Judgement): void {
  if (!requireKnownArguments('sed', args, judgement)) return;
  const values = args.map((arg) => arg.value!);
  const { options, positionals } = split(values);
  const quiet = options.some((option) => option === '-n' || option === '--quiet' || option === '--silent' || (/^-[a-zA-Z]+$/.test(option) && option.includes('n') && !option.includes('i')));
  const inPlace = options.some((option) => option.startsWith('--in-place') || (/^-[a-zA-Z]+/.test(option) && !option.startsWith('--') && option.slice(1).includes('i')));
  const scriptOptions = options.some((option) => option === '-e' || option === '-f' || option.startsWith('--expression') || option.startsWith('--file') || option === '-s');
  if (inPlace) {
    judgement.flag('medium', 'sed -i edits files in place');
    return;
  }
  if (!quiet || scriptOptions || positionals.length === 0) {
    judgement.flag('medium', 'sed is whitelisted only as sed -n with a print-only script');
    return;
  }
  const address = String.raw`(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)`;
  const command = String.raw`\s*(?:${address}(?:\s*,\s*${address})?)?\s*!?\s*[p=l]\s*`;
  if (!new RegExp(`^(?:${command};)*${command};?$`).test(positionals[0]!)) {
    judgement.flag('medium', `the sed script ${JSON.stringify(positionals[0])} is not a print-only script`);
  }
}

function judgeGit(args: readonly Word[], judgement: Judgement): void {
  if (!requireKnownArguments('git', args, judgement)) return;
  const values = args.map((arg) => arg.value!);
  let index = 0;
  while (index < values.length && values[index]!.startsWith('-')) {
    const option = values[index]!;
    if (option === '-c' || option.startsWith('--config-env') || option.startsWith('--exec-path')) {
      judgement.flag('medium', `git ${option.split('=')[0]} injects configuration, which can run programs`);
      return;
    }
    if (GIT_GLOBAL_WITH_VALUE.has(option)) index += 2;
    else if (GIT_GLOBAL_FLAGS.has(option) || /^--(git-dir|work-tree|namespace)=/.test(option)) index += 1;
    else {
      judgement.flag('medium', `git option ${option} is not on the whitelist`);
      return;
    }
  }
  const subcommand = values[index];
  const rest = values.slice(index + 1);
  if (subcommand === undefined) return;
  for (const option of rest) {
    const denied = option.startsWith('--') ? deniedLongOption(option, GIT_DENIED_LONG) : undefined;
    if (denied !== undefined || option === '-O' || (subcommand === 'grep' && /^-[a-zA-Z]*O/.test(option))) {
      judgement.flag('medium', `git ${subcommand} ${option.split('=')[0]} writes a file or runs a program`);
      return;
    }
  }
  if (GIT_READ_SUBCOMMANDS.has(subcommand)) return;
  const { options, positionals } = split(rest);
  const listing = (allowed: RegExp) => positionals.length === 0 && options.every((option) => allowed.test(option));
  switch (subcommand) {
    case 'branch':
      if (listing(/^(-a|-r|-l|-v|-vv|--all|--remotes|--list|--verbose|--show-current|--no-color|--color(=.*)?|--sort=.*|--contains(=.*)?|--merged(=.*)?|--no-merged(=.*)?|--format=.*)$/)) return;
      judgement.flag('medium', 'git branch with these arguments creates, renames or deletes branches');
      return;
    case 'tag':
      if (listing(/^(-l|--list|-n\d*|--sort=.*|--contains(=.*)?|--merged(=.*)?|--format=.*)$/)) return;
      judgement.flag('medium', 'git tag with these arguments creates or deletes tags');
      return;
    case 'remote':
      if (listing(/^(-v|--verbose)$/) || (positionals[0] === 'get-url' && options.every((option) => /^(--push|--all)$/.test(option)))) return;
      judgement.flag('medium', 'git remote with these arguments changes remotes or contacts them');
      return;
    case 'stash':
      if (positionals[0] === 'list' || positionals[0] === 'show') return;
      judgement.flag('medium', 'git stash changes the working tree');
      return;
    case 'config':
      if (options.some((option) => /^(--get|--get-all|--get-regexp|-l|--list)$/.test(option)) && !options.some((option) => /^(--add|--unset|--unset-all|--replace-all|--edit|-e|--rename-section|--remove-section)$/.test(option))) return;
      judgement.flag('medium', 'git config with these arguments changes configuration');
      return;
    case 'worktree':
      if (positionals[0] === 'list') return;
      judgement.flag('medium', 'git worktree changes worktrees');
      return;
    case 'reflog':
      if (positionals.length === 0 || positionals[0] === 'show') return;
      judgement.flag('medium', 'git reflog with these arguments changes the reflog');
      return;
    case 'push':
      if (rest.some((option) => /^(-f|--force|--force-with-lease(=.*)?|--force-if-includes|--mirror|--delete|-d)$/.test(option) || /^\+/.test(option))) {
        judgement.flag('high', 'git push --force rewrites history on the remote');
      } else judgement.flag('medium', 'git push publishes commits to a remote');
      return;
    case 'reset':
      judgement.flag(rest.includes('--hard') ? 'high' : 'medium', rest.includes('--hard') ? 'git reset --hard discards uncommitted changes' : 'git reset moves the branch');
      return;
    case 'clean':
      judgement.flag(rest.some((option) => /^-[a-zA-Z]*f/.test(option) || option === '--force') ? 'high' : 'medium', 'git clean deletes untracked files');
      return;
    case 'checkout':
    case 'restore':
    case 'switch':
      judgement.flag('medium', `git ${subcommand} changes files in the working tree`);
      return;
    default:
      judgement.flag('medium', `git ${subcommand} changes the repository or contacts a remote`);
  }
}

/**
 * xargs appends words read from its input to the command, so the command must be one whose
 * every option is safe: `xargs find` could receive `-delete`.
 */
function judgeXargs(args: readonly Word[], judgement: Judgement): void {
  if (!requireKnownArguments('xargs', args, judgement)) return;
  let index = 0;
  const withValue = new Set(['-n', '-I', '-i', '-d', '-P', '-L', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file']);
  while (index < args.length && args[index]!.value!.startsWith('-')) {
    const option = args[index]!.value!;
    if (option === '-o' || option === '--open-tty' || option === '-p' || option === '--interactive') {
      judgement.flag('medium', `xargs ${option} is not on the whitelist`);
      return;
    }
    index += withValue.has(option) ? 2 : 1;
  }
  const inner = args.slice(index);
  const innerName = inner[0]?.value ?? 'echo';
  const rule = COMMAND_WHITELIST.get(innerName);
  if (rule?.kind !== 'free') {
    judgement.flag('medium', `xargs runs ${innerName} with arguments read from its input, which cannot be checked`);
    return;
  }
  judgeWords(inner, judgement);
}

function judgeUnlisted(name: string, args: readonly Word[], judgement: Judgement): void {
  const values = args.map((arg) => arg.value ?? arg.raw);
  if (name in HIGH_COMMANDS) {
    judgement.flag('high', HIGH_COMMANDS[name]!);
    if ((name === 'sudo' || name === 'doas') && args.length > 0) judgeWords(args.filter((arg) => !arg.raw.startsWith('-')), judgement);
    return;
  }
  if (name.startsWith('mkfs')) {
    judgement.flag('high', `${name} formats a filesystem, erasing it`);
    return;
  }
  if (name === 'chmod' || name === 'chown' || name === 'chgrp') {
    const recursive = values.some((value) => /^-[a-zA-Z]*R/.test(value) || value === '--recursive');
    judgement.flag(recursive ? 'high' : 'medium', `${name}${recursive ? ' -R' : ''} changes ${name === 'chmod' ? 'permissions' : 'ownership'}${recursive ? ' of a whole tree' : ''}`);
    return;
  }
  const installs = PACKAGE_MANAGERS[name];
  if (installs !== undefined && values.some((value) => installs.includes(value))) {
    judgement.flag('high', `${name} ${values.find((value) => installs.includes(value))} installs or removes packages, which runs their scripts`);
    return;
  }
  if (SHELLS.has(name) || INTERPRETERS.has(name)) {
    const commandIndex = args.findIndex((arg) => arg.value === '-c' || arg.value === '-e' || arg.value === '--eval');
    if (SHELLS.has(name) && commandIndex !== -1) {
      judgement.flag('medium', `${name} -c runs its argument as a script`);
      const script = args[commandIndex + 1]?.value;
      if (script !== undefined) judgement.nestedScripts.push(script);
      return;
    }
    judgement.flag('medium', `${name} runs a script or program`);
    return;
  }
  if (name in MEDIUM_COMMANDS) {
    judgement.flag('medium', name === 'tee' && values.length > 0 ? `tee writes its input to ${values.filter((value) => !value.startsWith('-')).join(', ')}` : MEDIUM_COMMANDS[name]!);
    return;
  }
  judgement.flag('medium', `${name} is not on the whitelist of read-only commands`);
}

function crossCommandPatterns(judgement: Judgement): void {
  const names = judgement.commandNames;
  const downloads = names.some((name) => name === 'curl' || name === 'wget');
  const runner = names.find((name) => SHELLS.has(name) || INTERPRETERS.has(name));
  if (downloads && runner !== undefined) judgement.flag('high', `pipes downloaded code into ${runner}`);
}
