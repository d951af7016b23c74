import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { secretFilesBelow, tableFacts } from '@riskgate/risk';
import { secretInIndex, secretInObjects } from './git-objects.js';
import { dirname, join, resolve } from 'node:path';
import { NEEDS_SANDBOX } from './apply.js';
import { GIT_READ_OPTIONS } from './git-options.js';
import { findGitDirectory, programsInRepositoryConfig } from './git-repository.js';
import { unlistedEffect } from './options.js';
import { known, type WordValue } from './words.js';
import type { CallSite } from './table.js';

/**
 * git, one subcommand per row. Read subcommands read their path operands (`git show
 * HEAD:.env` reads .env as it was committed; `git diff --no-index a b` reads any two files);
 * listing forms of branch/tag/remote/stash/worktree/reflog/config only read; the rest write
 * the repository, the working tree or connect to a remote. Options that write or run
 * programs are refused on every subcommand.
 */

/** Subcommands that only read the repository and the files they are given. */
const READ = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'blame',
  'shortlog',
  'describe',
  'cat-file',
  'grep',
  'rev-list',
  'name-rev',
  'merge-base',
  'for-each-ref',
  'show-ref',
  'check-ignore',
  'check-attr',
  'count-objects',
  'whatchanged',
  'show-branch',
  'var',
  'annotate',
  'cherry',
  'diff-tree',
  'diff-files',
  'diff-index',
  'version',
  'range-diff',
  'fsck',
  'help',
]);
/** Global options that take a value and change nothing riskgate judges. */
const GLOBAL_VALUES = new Set(['--namespace', '--super-prefix', '--list-cmds', '--attr-source']);
/** Global flags that change nothing riskgate judges (git 2.45). Any other global option is asked about. */
const GLOBAL_FLAGS = new Set([
  '-p',
  '--paginate',
  '-P',
  '--no-pager',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-optional-locks',
  '--no-advice',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--html-path',
  '--man-path',
  '--info-path',
  '--version',
  '--help',
  '-v',
  '-h',
]);
/** Subcommands that talk to a remote. */
const CONNECT = new Set([
  'push',
  'fetch',
  'pull',
  'clone',
  'ls-remote',
  'archive',
  'request-pull',
  'send-email',
  'svn',
  'p4',
]);
/** Listing forms: allowed options, and what the subcommand does otherwise. */
const LISTING: Record<string, RegExp> = {
  branch:
    /^(-a|-r|-l|-v|-vv|--all|--remotes|--list|--verbose|--show-current|--no-color|--color(=.*)?|--sort=.*|--contains(=.*)?|--merged(=.*)?|--no-merged(=.*)?|--format=.*|--column(=.*)?|--points-at(=.*)?)$/,
  tag: /^(-l|--list|-n\d*|--sort=.*|--contains(=.*)?|--merged(=.*)?|--no-merged(=.*)?|--format=.*|--points-at(=.*)?|--column(=.*)?)$/,
  remote: /^(-v|--verbose)$/,
};

const value = (word: WordValue | undefined): string => word?.value ?? '';

export function gitProgram(site: CallSite): void {
  const global = readGlobalOptions(site);
  if (global === undefined) return;
  const { gitDir, bare } = global;
  const subcommand = site.args[global.index];
  if (subcommand === undefined) return;
  const name = subcommand.value;
  const rest = site.args.slice(global.index + 1);
  if (name === undefined) {
    site.emit({
      kind: 'run-program',
      program: `git ${subcommand.raw}, a subcommand known only at run time`,
      severity: 'high',
    });
    return;
  }
  const via = `git ${name}`;
  const repository =
    gitDir ?? (site.cwd === undefined ? undefined : bare ? resolve(site.cwd) : findGitDirectory(site.cwd));
  checkRepositoryConfiguration(site, name, via, gitDir, repository);
  everySubcommand(site, name, rest);
  if (READ.has(name)) unlistedOptions(site, name, rest);
  const call: GitCall = {
    site,
    name,
    via,
    rest,
    options: rest.map(value).filter((text) => text.startsWith('-')),
    operands: rest.filter((word) => !value(word).startsWith('-')),
    repository,
    repositoryWord: known(gitDir ?? '.git'),
  };
  if (READ.has(name)) readSubcommand(call);
  else if (name === 'config') configSubcommand(site, rest);
  else if (!listingSubcommand(call) && !remoteSubcommand(call)) writingSubcommand(call);
}

/** One git call, once its global options are read: what each subcommand group judges. */
interface GitCall {
  readonly site: CallSite;
  readonly name: string;
  readonly via: string;
  /** The words after the subcommand. */
  readonly rest: readonly WordValue[];
  readonly options: readonly string[];
  readonly operands: readonly WordValue[];
  readonly repository: string | undefined;
  /** The repository directory as a word (`.git` unless --git-dir named another). */
  readonly repositoryWord: WordValue;
}

/**
 * git's own options before the subcommand. Every way of naming another repository (issue 18):
 * --git-dir, --work-tree, --bare, -C. Undefined when a word is known only at run time (judged).
 */
function readGlobalOptions(
  site: CallSite,
): { readonly index: number; readonly gitDir: string | undefined; readonly bare: boolean } | undefined {
  const args = site.args;
  let gitDir: string | undefined;
  let bare = false;
  let index = 0;
  for (; index < args.length; index++) {
    const option = args[index]!.value;
    if (option === undefined) {
      site.emit({ kind: 'unknown', severity: 'high', detail: `git gets ${args[index]!.raw}, known only at run time` });
      return undefined;
    }
    if (!option.startsWith('-')) break;
    const [long, attached] =
      option.startsWith('--') && option.includes('=')
        ? [option.slice(0, option.indexOf('=')), option.slice(option.indexOf('=') + 1)]
        : [option, undefined];
    const nextValue = (): WordValue => (attached !== undefined ? known(attached) : (args[++index] ?? known('')));
    if (option === '-C') site.chdir(args[++index] ?? known('.'));
    else if (option === '-c' || long === '--config-env') {
      // core.pager, core.fsmonitor, alias.x=!cmd, diff.external: configuration that runs programs.
      site.emit({
        kind: 'run-program',
        program: 'programs git configuration can name (git -c)',
        via: `git ${option} ${value(args[index + 1])}`.slice(0, 60),
      });
      if (attached === undefined) index++;
    } else if (long === '--exec-path' && attached !== undefined)
      site.emit({ kind: 'run-program', program: 'git programs from another directory', via: 'git --exec-path' });
    else if (long === '--git-dir') {
      const word = nextValue();
      if (word.value === undefined)
        site.emit({
          kind: 'unknown',
          severity: 'high',
          detail: `git --git-dir names a repository known only at run time (${word.raw})`,
        });
      else gitDir = resolve(site.cwd ?? '.', word.value);
    } else if (long === '--work-tree') {
      // The work tree is read like any directory git lists; the repository's configuration is still checked.
      site.path('list', nextValue(), { recursive: true, via: 'git --work-tree' });
    } else if (option === '--bare') bare = true;
    else if (GLOBAL_VALUES.has(long)) {
      if (attached === undefined) index++;
    } else if (!GLOBAL_FLAGS.has(option)) site.emit(unlistedEffect('git', option));
  }
  return { index, gitDir, bare };
}

/** Settings of the repository's configuration that run programs on (almost) every git call. */
function checkRepositoryConfiguration(
  site: CallSite,
  name: string,
  via: string,
  gitDir: string | undefined,
  repository: string | undefined,
): void {
  if (gitDir === undefined && site.cwd === undefined) {
    site.emit({
      kind: 'unknown',
      severity: 'high',
      detail: `${via} runs in a directory known only at run time, whose repository configuration riskgate cannot check`,
      via,
    });
  } else if (repository !== undefined && name !== 'version' && name !== 'help') {
    const configured = programsInRepositoryConfig(repository);
    if (configured !== undefined)
      site.emit({
        kind: 'run-program',
        program: `what the repository's configuration names (${configured})`,
        via,
        note: `${repository} sets ${configured}`,
      });
  }
}

/** Read subcommands: their path operands, and the content git prints beyond them. */
function readSubcommand({ site, name, via, options, operands, repository }: GitCall): void {
  if (name === 'help') {
    if (options.some((option) => /^(-w|--web|-i|--info|-m|--man)$/.test(option)))
      site.emit({ kind: 'run-program', program: 'a browser, info or man (git help)', via });
    // git help PAGE starts man: not core (the fallback, issue 18).
    else if (!site.sandbox && operands.length > 0)
      site.emit({ kind: 'unknown', detail: `git help ${NEEDS_SANDBOX}`, via });
    return;
  }
  const paths =
    name === 'grep' && !options.some((option) => /^(-e|-f|--file)$/.test(option)) ? operands.slice(1) : operands;
  // What git reads beyond its operands: the tracked files (git grep), or every file the history
  // ever held (a patch, a search of the history, a revision). Git's own lists say which files
  // those are; a secret among them (a committed .env, deleted since) is a secret read.
  checkContent(
    site,
    via,
    contentScope(name, options, paths, site.cwd) ?? notesScope(name, options, paths, repository),
    repository,
  );
  // `git grep --no-index`/`--untracked` read files git does not track (and, outside a repository,
  // any tree): judged as a recursive read, where the workspace scan and the private home apply.
  if (name === 'grep' && options.some((option) => /^--(no-index|untracked)$/.test(option))) {
    for (const word of paths.length > 0 ? paths : [known('.')]) site.path('read', word, { via, recursive: true });
  }
  for (const word of paths) {
    // `REV:path` names a file as committed: reading it reads that file.
    const text = word.value;
    const colon = text === undefined ? -1 : text.indexOf(':');
    site.path('read', colon > 0 ? known(text!.slice(colon + 1) || '.') : word, { via });
  }
}

/**
 * Listing forms of subcommands that also write (branch, tag, remote, stash, worktree, reflog):
 * true when the call is one, judged here.
 */
function listingSubcommand({ site, name, via, options, operands, repository }: GitCall): boolean {
  const listing = LISTING[name];
  // Remote URLs come from the repository's configuration, where a token may sit in one
  // (`https://x-access-token:…@github.com/…`): printing them reads that file, judged by its content.
  const remoteUrls =
    name === 'remote' && (operands.length === 0 || value(operands[0]) === 'get-url' || value(operands[0]) === 'show');
  if (remoteUrls && repository !== undefined) site.path('read', known(join(repository, 'config')), { via });
  if (listing !== undefined && operands.length === 0 && options.every((option) => listing.test(option))) return true;
  if (
    name === 'remote' &&
    (value(operands[0]) === 'get-url' || (value(operands[0]) === 'show' && options.includes('-n')))
  )
    return true;
  // `git stash list` takes log's options: `-p` prints every stash's patch (red team, round 3).
  if (name === 'stash' && value(operands[0]) === 'list') {
    if (options.some((option) => CONTENT_OPTIONS.test(option) || STASH_CONTENT_OPTIONS.test(option)))
      checkContent(site, via, 'history', repository);
    return true;
  }
  if (name === 'worktree' && value(operands[0]) === 'list') return true;
  // A stash's patch (and the untracked files `-u` kept in it) and the reflog's patches print
  // contents the branches may no longer hold: checked like the history, which the list includes.
  if (name === 'stash' && value(operands[0]) === 'show') {
    if (options.some((option) => STASH_CONTENT_OPTIONS.test(option))) checkContent(site, via, 'history', repository);
    return true;
  }
  if (name === 'reflog' && (operands.length === 0 || value(operands[0]) === 'show')) {
    if (options.some((option) => CONTENT_OPTIONS.test(option))) checkContent(site, via, 'history', repository);
    return true;
  }
  return false;
}

/** Subcommands that talk to a remote (push, fetch, clone, submodule update…): true when the call is one. */
function remoteSubcommand({ site, name, via, options, operands, repositoryWord }: GitCall): boolean {
  if (
    !(
      CONNECT.has(name) ||
      (name === 'remote' && value(operands[0]) === 'update') ||
      (name === 'submodule' && /^(update|add|sync|foreach)$/.test(value(operands[0])))
    )
  )
    return false;
  const force =
    options.some((option) =>
      /^(-f|--force|--force-with-lease(=.*)?|--force-if-includes|--mirror|--delete|-d|--prune)$/.test(option),
    ) || operands.some((word) => value(word).startsWith('+') || value(word).startsWith(':'));
  site.emit({
    kind: 'connect',
    host: `a git remote (${value(operands[0]) || 'the default'})`,
    via,
    ...(force ? { severity: 'high' as const, note: `${via} --force rewrites or deletes history on the remote` } : {}),
  });
  if (name === 'clone') site.path('write', operands[1] ?? known('.'), { via });
  if (name === 'pull') site.path('write', known('.'), { recursive: true, via });
  if (name === 'fetch' || name === 'pull' || name === 'push') site.path('write', repositoryWord, { via });
  if (name === 'submodule' && value(operands[0]) === 'foreach')
    site.script(value(operands[operands.length - 1]) || undefined, 'git submodule foreach');
  return true;
}

/** Subcommands that write the working tree or the repository (or run what an alias names). */
function writingSubcommand({ site, name, via, rest, options, operands, repositoryWord }: GitCall): void {
  switch (name) {
    // credential fill/get prints saved passwords and tokens.
    case 'credential':
    case 'credential-store':
    case 'credential-cache':
      site.emit({ kind: 'unknown', severity: 'high', detail: `${via} prints saved git passwords and tokens` });
      return;
    case 'reset':
      if (options.includes('--hard') || options.includes('--merge') || options.includes('--keep')) {
        site.path('write', known('.'), {
          recursive: true,
          severity: 'high',
          note: 'git reset --hard discards uncommitted changes',
          via,
        });
      } else site.path('write', repositoryWord, { via });
      return;
    case 'clean':
      if (options.some((option) => /^-[a-zA-Z]*n|^--dry-run$/.test(option))) return;
      site.path('delete', known('.'), { recursive: true, via, note: 'git clean deletes untracked files' });
      return;
    case 'checkout':
    case 'restore':
    case 'switch': {
      const discards =
        options.some((option) => /^(-f|--force|--worktree|-W|--discard-changes|--ours|--theirs)$/.test(option)) ||
        rest.some((word) => word.value === '--' || word.value === '.');
      site.path('write', known('.'), {
        recursive: true,
        via,
        ...(discards ? { severity: 'high' as const, note: `${via} overwrites uncommitted changes` } : {}),
      });
      return;
    }
    case 'rm':
      for (const word of operands)
        site.path('delete', word, {
          via,
          ...(options.some((option) => /^-[a-zA-Z]*r/.test(option)) ? { recursive: true } : {}),
        });
      site.path('write', repositoryWord, { via });
      return;
    case 'rebase':
    case 'bisect':
    case 'filter-branch':
    case 'filter-repo':
      site.emit({ kind: 'run-program', program: `the commands ${via} runs`, via });
      site.path('write', known('.'), { recursive: true, via });
      return;
    default:
      if (WRITES_REPOSITORY.has(name)) {
        site.path('write', WRITES_WORKING_TREE.has(name) ? known('.') : repositoryWord, {
          via,
          ...(name === 'apply' || name === 'stash' || name === 'merge' ? { recursive: true } : {}),
        });
        return;
      }
      // An alias (`alias.x = !sh …`) or a git-NAME program on the PATH: either can run anything.
      site.emit({ kind: 'run-program', program: `git ${name} (an alias or a git-${name} program)`, via });
  }
}

/** Subcommands that write the repository (or, for those in WRITES_WORKING_TREE, the working tree). */
const WRITES_REPOSITORY: ReadonlySet<string> = new Set([
  'format-patch',
  'bundle',
  'commit',
  'add',
  'mv',
  'merge',
  'cherry-pick',
  'revert',
  'am',
  'apply',
  'stash',
  'tag',
  'branch',
  'remote',
  'worktree',
  'reflog',
  'init',
  'gc',
  'prune',
  'repack',
  'notes',
  'replace',
  'update-ref',
  'update-index',
  'symbolic-ref',
  'submodule',
  'sparse-checkout',
  'lfs',
  'maintenance',
]);
const WRITES_WORKING_TREE: ReadonlySet<string> = new Set([
  'apply',
  'am',
  'merge',
  'cherry-pick',
  'revert',
  'stash',
  'mv',
]);

const readTables = new Map<string, { readonly short: ReadonlySet<string>; readonly long: ReadonlySet<string> }>();

/** Options of a read subcommand that git-options.ts does not list: asked (options fail closed, issue 18). */
function unlistedOptions(site: CallSite, name: string, rest: readonly WordValue[]): void {
  const listed = GIT_READ_OPTIONS[name];
  if (listed === undefined) return;
  let table = readTables.get(name);
  if (table === undefined) {
    const tokens = listed.split(' ');
    table = { short: new Set(tokens[0]!.slice(1)), long: new Set(['--help', ...tokens.slice(1)]) };
    readTables.set(name, table);
  }
  for (const word of rest) {
    const option = word.value;
    if (option === '--') return;
    if (option === undefined || !option.startsWith('-') || option === '-') continue;
    const known = option.startsWith('--') ? table.long.has(option.split('=')[0]!) : table.short.has(option[1]!);
    if (!known) site.emit(unlistedEffect(`git ${name}`, option));
  }
}

/** Options that write or run programs, refused on every subcommand. */
function everySubcommand(site: CallSite, name: string, rest: readonly WordValue[]): void {
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index]!;
    const option = word.value;
    const via = `git ${name} ${option ?? word.raw}`.slice(0, 60);
    if (option === undefined) {
      if (READ.has(name) && word.texts.some((text) => text.startsWith('\u0000') || text.startsWith('-')))
        site.emit({
          kind: 'unknown',
          severity: 'high',
          detail: `git ${name} gets ${word.raw}, known only at run time, which could be an option such as --output`,
        });
      continue;
    }
    const long = option.split('=')[0]!;
    const is = (full: string) => long === full || (long.length >= 5 && full.startsWith(long));
    if (is('--output'))
      site.path(
        'write',
        option.includes('=') ? known(option.slice(option.indexOf('=') + 1)) : (rest[++index] ?? known('')),
        { via },
      );
    else if (is('--ext-diff'))
      site.emit({ kind: 'run-program', program: 'the external diff program git is configured with', via });
    else if (is('--open-files-in-pager') || (name === 'grep' && /^-[a-zA-Z]*O/.test(option)))
      site.emit({ kind: 'run-program', program: 'a pager git grep opens', via });
    else if (
      is('--upload-pack') ||
      is('--receive-pack') ||
      is('--exec') ||
      (name === 'rebase' && option === '-x') ||
      ((name === 'fetch' || name === 'clone' || name === 'ls-remote') && option === '-u')
    ) {
      site.emit({ kind: 'run-program', program: `the command ${long} names`, via });
      if (option === '-x' || option === '-u' || !option.includes('=')) index++;
    }
  }
}

/** git config's other options that only shape what a get or list prints (or are the writes judged below). */
const CONFIG_OPTIONS =
  /^(--show-origin|--show-scope|-z|--null|--name-only|--type=.*|--bool|--int|--bool-or-int|--path|--expiry-date|--default=.*|--includes|--no-includes|--fixed-value|--add|--unset|--unset-all|--replace-all|--edit|-e|--rename-section|--remove-section|--all|--regexp|--url=.*|--value=.*)$/;

/** git config: get and list forms read (a `--file` among them); everything else writes configuration. */
function configSubcommand(site: CallSite, rest: readonly WordValue[]): void {
  let file: WordValue | undefined;
  let reads = false;
  let scope: string | undefined;
  let operands = 0;
  for (let index = 0; index < rest.length; index++) {
    const option = value(rest[index]);
    if (!option.startsWith('-')) operands++;
    if (option === '-f' || option === '--file') file = rest[++index];
    else if (option.startsWith('--file=')) file = known(option.slice(7));
    else if (option === '--blob') index++;
    else if (
      /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|-l|--list|get|list)$/.test(option)
    )
      reads = true;
    else if (option === '--global' || option === '--system' || option === '--local' || option === '--worktree')
      scope = option;
    else if (option.startsWith('-') && !CONFIG_OPTIONS.test(option)) site.emit(unlistedEffect('git config', option));
  }
  const writes = rest.some((word) =>
    /^(--add|--unset|--unset-all|--replace-all|--edit|-e|--rename-section|--remove-section|set|unset|edit|rename-section|remove-section)$/.test(
      value(word),
    ),
  );
  const target =
    file ??
    (scope === '--global'
      ? known(`${site.home}/.gitconfig`)
      : scope === '--system'
        ? known('/etc/gitconfig')
        : known('.git/config'));
  // `git config user.name` (one name, no value) is a get.
  if ((reads || operands === 1) && !writes) {
    site.path('read', target, { via: 'git config' });
    return;
  }
  site.path('write', target, { via: 'git config' });
}

/** Options that make log/whatchanged print or search file contents, not just commit metadata. */
const CONTENT_OPTIONS =
  /^(-p|-u|--patch|-G.*|-S.*|--pickaxe-all|--word-diff.*|--full-diff|-L.*|--patch-with-stat|--patch-with-raw|--textconv)$/;

/** Options that make a diff print names or counts, not lines. */
const NAMES_ONLY =
  /^(--stat.*|--name-only|--name-status|--numstat|--shortstat|--summary|--quiet|--exit-code|--dirstat.*|--raw)$/;

/** Options that print names or counts, and none that brings the patch back (`--stat -p` prints both). */
function namesOnly(options: readonly string[]): boolean {
  return options.some((option) => NAMES_ONLY.test(option)) && !options.some((option) => CONTENT_OPTIONS.test(option));
}

/** `git stash show` options that print the stash's contents, not only the names it changed. */
const STASH_CONTENT_OPTIONS =
  /^(-p|--patch|-u|--include-untracked|--only-untracked|--word-diff.*|--textconv|--patch-with-stat|--patch-with-raw)$/;

/**
 * What git reads beyond its operands: the tracked files (git grep), or every file the history
 * ever held (a patch, a search of the history, a revision, an object, a stash, the reflog). Git's
 * own lists say which files those are; a secret among them (a committed .env, deleted since) is a
 * secret read.
 */
function checkContent(
  site: CallSite,
  via: string,
  scope: 'tracked' | 'history' | undefined,
  repository: string | undefined,
): void {
  if (scope === undefined) return;
  const found = secretInRepository(site.cwd, scope, repository);
  const what = scope === 'history' ? "the repository's history" : 'every tracked file';
  if (found === 'unchecked')
    site.emit({ kind: 'unknown', detail: `${via} reads ${what}, which riskgate could not check for secrets`, via });
  else if (found !== undefined)
    site.path('read', known(found), {
      via,
      note: `${via} reads ${scope === 'history' ? "the repository's history, which holds" : 'the tracked file'} ${found}`,
    });
  if (found !== undefined || repository === undefined || site.cwd === undefined) return;
  // By content, every blob git could print (red-team F1: a settings file cleaned in a later
  // commit is clean on disk, and its old blob went out through `git show HEAD~2:file | rev`).
  const inObjects = scope === 'history' ? secretInObjects(repository) : secretInIndex(repository, site.cwd);
  const where =
    scope === 'history'
      ? "the repository's objects (its history, stash, reflog and index)"
      : "the index (the old side of git diff's lines)";
  if (inObjects === 'unchecked')
    site.emit({
      kind: 'unknown',
      detail: `${via} reads ${where}, which riskgate could not check for secrets in time`,
      via,
    });
  else if (inObjects !== undefined) {
    site.emit({ kind: 'read-path', path: repository, secret: `${inObjects}, in ${where}`, via });
  }
}

/** Whether a read subcommand reaches the tracked files or the whole history, beyond its operands. */
function contentScope(
  name: string,
  options: readonly string[],
  paths: readonly WordValue[],
  cwd: string | undefined,
): 'tracked' | 'history' | undefined {
  const revisions = paths.some((word) => {
    const text = word.value;
    if (text === undefined || text === '--' || text.includes(':')) return false;
    return !existsSync(resolve(cwd ?? '.', text));
  });
  switch (name) {
    case 'log':
    case 'whatchanged':
      return options.some((option) => CONTENT_OPTIONS.test(option)) ? 'history' : undefined;
    case 'show':
      // `REV:path` prints that file as committed: a blob of the history (`:path` the index's;
      // `:/text` is a commit found by its message, with its patch: history).
      if (
        paths.length > 0 &&
        paths.every((word) => (word.value ?? '').startsWith(':') && !(word.value ?? '').startsWith(':/'))
      )
        return 'tracked';
      // `--stat`, `--name-only`, `-s`: the commit and the names it changed, no lines.
      if (
        namesOnly(options) ||
        (paths.every((word) => !(word.value ?? '').includes(':')) &&
          options.some((option) => /^(-s|--no-patch)$/.test(option)))
      )
        return undefined;
      return 'history';
    case 'blame':
    case 'annotate':
      // With a revision, the lines of an older version of the file.
      return revisions ? 'history' : undefined;
    case 'diff':
    case 'diff-tree':
    case 'range-diff':
      if (namesOnly(options)) return undefined;
      if (revisions || options.some((option) => /^--(cached|staged)$/.test(option))) return 'history';
      // The working tree against the index prints the committed lines of every changed tracked
      // file — in the sandbox, a hidden secret file looks emptied, so all of its committed copy.
      return namesOnly(options) ? undefined : 'tracked';
    case 'grep':
      return revisions || options.some((option) => /^--(cached|no-index|untracked)$/.test(option))
        ? 'history'
        : paths.length === 0
          ? 'tracked'
          : undefined;
    case 'cat-file':
      // `-t`, `-s`, `-e` tell an object's type, size or existence; `-p`, a type name and the batch
      // modes print its content — a blob of a deleted .env by its hash as much as by REV:path.
      return options.every((option) => /^-[tse]$/.test(option)) && paths.length <= 1 ? undefined : 'history';
    default:
      return undefined;
  }
}

/**
 * Notes (`refs/notes/*`) are printed by `git notes show`, and by `git log`/`show`/`whatchanged`
 * by default or with `--notes`, `--show-notes`, `%N`: text anyone may have put a token in (red
 * team, round 3: `git notes show | rev`). Where the repository has notes, their blobs are checked
 * with the rest of the object store.
 */
function notesScope(
  name: string,
  options: readonly string[],
  paths: readonly WordValue[],
  repository: string | undefined,
): 'history' | undefined {
  if (repository === undefined || !hasNotes(repository)) return undefined;
  if (name === 'notes')
    return paths.some((word) => word.value === 'show' || word.value === 'list') &&
      !paths.some((word) => word.value === 'list')
      ? 'history'
      : undefined;
  if (name !== 'log' && name !== 'show' && name !== 'whatchanged') return undefined;
  return options.includes('--no-notes') &&
    !options.some((option) => /^--(show-)?notes/.test(option) || /%N/.test(option))
    ? undefined
    : 'history';
}

function hasNotes(repository: string): boolean {
  try {
    if (
      existsSync(join(repository, 'refs', 'notes')) &&
      execFileSync('find', [join(repository, 'refs', 'notes'), '-type', 'f'], { encoding: 'utf8' }).trim() !== ''
    )
      return true;
  } catch {
    return true;
  }
  try {
    return /\srefs\/notes\//.test(readFileSync(join(repository, 'packed-refs'), 'utf8'));
  } catch {
    return false;
  }
}

const repositoryLists = new Map<string, { readonly key: string; readonly secret: string | undefined | 'unchecked' }>();

/**
 * The first file the repository tracks (or its history ever held) that the knowledge base calls
 * secret, by git's own list of names: `git ls-files`, or `git log --all --name-only`. Bounded in
 * time and size; what cannot be listed in time is 'unchecked'. Cached per repository state.
 */
function secretInRepository(
  cwd: string | undefined,
  scope: 'tracked' | 'history',
  gitDirectory: string | undefined,
): string | undefined | 'unchecked' {
  if (cwd === undefined) return 'unchecked';
  if (gitDirectory === undefined) return undefined;
  let state = '';
  try {
    // The reflog and the stash hold commits the branches may have dropped: their logs are part of the state.
    state = ['index', 'HEAD', 'logs/HEAD', 'logs/refs/stash', 'packed-refs']
      .map((file) => mtimeOf(join(gitDirectory, file)))
      .join(':');
  } catch {
    state = 'none';
  }
  const cacheKey = `${scope}\u0000${gitDirectory}`;
  const cached = repositoryLists.get(cacheKey);
  if (cached !== undefined && cached.key === state) return cached.secret;
  // The history is every commit a branch, tag, stash or reflog entry reaches (an amended-away
  // commit lives on in the reflog; an older stash only in the stash's reflog); a merge lists what it
  // changed against its first parent, which is how a stash records the working tree.
  const args =
    scope === 'tracked'
      ? ['ls-files', '-z']
      : ['log', '--all', '--reflog', '--diff-merges=first-parent', '--name-only', '--format=', '--no-renames', '-z'];
  let output: string;
  try {
    // Settings that could run programs are switched off for riskgate's own look.
    output = execFileSync(
      'git',
      ['-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '--no-pager', `--git-dir=${gitDirectory}`, ...args],
      {
        cwd,
        encoding: 'utf8',
        timeout: 2_000,
        maxBuffer: 64 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
      },
    );
  } catch {
    repositoryLists.set(cacheKey, { key: state, secret: 'unchecked' });
    return 'unchecked';
  }
  const names = [...new Set(output.split('\0').filter((entry) => entry !== ''))];
  const root = dirname(gitDirectory);
  let secret: string | undefined;
  for (const name of names.slice(0, 100_000)) {
    // By name: a file the history held may not exist any more.
    if (tableFacts(join(root, name)).some((fact) => fact.class === 'secret')) {
      secret = join(root, name);
      break;
    }
  }
  // By content, for the names still in the working tree: a tracked settings file holding a
  // password is as secret in the history as on disk (the sandbox hides the file; git would print
  // its committed copy). The workspace scan is the sandbox's own, cached per file.
  let unchecked = names.length > 100_000;
  if (secret === undefined) {
    const scan = secretFilesBelow(root);
    const byContent = new Set(scan.files.map((file) => file.path));
    secret = names.map((name) => join(root, name)).find((path) => byContent.has(path));
    unchecked ||= !scan.complete;
  }
  const result = secret ?? (unchecked ? 'unchecked' : undefined);
  repositoryLists.set(cacheKey, { key: state, secret: result });
  return result;
}

function mtimeOf(path: string): string {
  try {
    return String(statSync(path).mtimeMs);
  } catch {
    return '-';
  }
}
