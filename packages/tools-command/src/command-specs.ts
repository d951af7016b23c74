/**
 * The command whitelist, as data: per command, which options or arguments would let it
 * write, run code or reach the network. A command line is whitelisted only when every command
 * in it is here and used without those. Comments say why for each restriction.
 */

export interface OptionRule {
  readonly kind: 'options';
  /** Short option letters that write, execute or reach out (checked inside clusters: -ro). */
  readonly deniedShort?: string;
  /** Long options that do (also refused when abbreviated: GNU accepts `--out` for `--output`). */
  readonly deniedLong?: readonly string[];
  /** At most this many positional arguments (`uniq in out` writes `out`). */
  readonly maxPositionals?: number;
  /** Every positional must match (`date +%F` reads; `date 0101…` sets the clock). */
  readonly positional?: RegExp;
  readonly why: string;
}

export type CommandRule =
  /** No option or argument can write, run code or reach the network. */
  | { readonly kind: 'free' }
  | OptionRule
  /** Judged by code in command-assessor.ts (find, sed, git, xargs and the wrappers). */
  | { readonly kind: 'custom' };

const FREE: CommandRule = { kind: 'free' };
const CUSTOM: CommandRule = { kind: 'custom' };

export const COMMAND_WHITELIST: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ...[
    'ls', 'cat', 'pwd', 'echo', 'printf', 'grep', 'egrep', 'fgrep', 'head', 'tail', 'wc', 'cut', 'stat', 'du', 'df',
    'ps', 'which', 'whoami', 'id', 'groups', 'uname', 'diff', 'cmp', 'basename', 'dirname', 'realpath', 'readlink',
    'true', 'false', 'test', '[', 'seq', 'tr', 'nl', 'column', 'rev', 'tac', 'comm', 'join', 'paste', 'fold',
    'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'base64', 'od', 'hexdump', 'strings', 'nproc', 'uptime',
    'free', 'arch', 'tty', 'expr', 'jq', 'cd', ':', 'type', 'sleep', 'locale',
  ].map((name) => [name, FREE] as const),
  ['sort', { kind: 'options', deniedShort: 'o', deniedLong: ['--output', '--compress-program'], why: 'sort -o writes a file; --compress-program runs a program' }],
  ['uniq', { kind: 'options', maxPositionals: 1, why: 'a second file name is where uniq writes' }],
  ['xxd', { kind: 'options', maxPositionals: 1, why: 'a second file name is where xxd writes' }],
  ['tree', { kind: 'options', deniedShort: 'o', deniedLong: ['--output'], why: 'tree -o writes a file' }],
  ['file', { kind: 'options', deniedShort: 'C', deniedLong: ['--compile'], why: 'file -C writes a compiled magic file' }],
  ['date', { kind: 'options', deniedShort: 's', deniedLong: ['--set'], positional: /^\+/, why: 'date -s or a date argument sets the clock' }],
  ['rg', { kind: 'options', deniedLong: ['--pre', '--pre-glob'], why: 'rg --pre runs a program on every file' }],
  ...['find', 'sed', 'git', 'xargs', 'env', 'time', 'nice', 'timeout', 'command'].map((name) => [name, CUSTOM] as const),
]);

/** Environment prefixes that change only formatting, never what a command runs or reads. */
export const HARMLESS_ENVIRONMENT = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|COLUMNS|LINES|TERM)$/;

/** `find` primaries that run programs, delete or write files. */
export const FIND_DENIED = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);

/** git subcommands that only read, with their own refused options. */
export const GIT_READ_SUBCOMMANDS = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'shortlog', 'describe', 'cat-file',
  'grep', 'rev-list', 'name-rev', 'merge-base', 'for-each-ref', 'show-ref', 'check-ignore', 'count-objects', 'whatchanged',
  'show-branch', 'var', 'annotate', 'cherry', 'diff-tree', 'diff-files', 'diff-index', 'version', 'help',
]);
/**
 * Options refused on every git subcommand: they write files (--output), run programs
 * (--ext-diff, --exec-path, -O/--open-files-in-pager, --textconv runs configured filters is
 * kept: it is the repository's own configuration), or inject configuration (-c, --config-env).
 */
export const GIT_DENIED_LONG = ['--output', '--ext-diff', '--exec-path', '--open-files-in-pager', '--config-env', '--upload-pack', '--receive-pack'];
/** git global options that take a value: `git -C dir log`. */
export const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '--git-dir', '--work-tree', '--namespace']);
export const GIT_GLOBAL_FLAGS = new Set(['--no-pager', '--no-replace-objects', '--bare', '--literal-pathspecs', '--no-optional-locks', '-P', '--paginate', '-p']);

/** Wrappers and the options they take before the wrapped command. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh']);
export const INTERPRETERS = new Set(['python', 'python3', 'node', 'perl', 'ruby', 'php', 'deno', 'bun', 'lua']);
