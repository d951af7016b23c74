import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Which repository a git command uses, and whether its configuration makes git run programs.
 * A repository that came from elsewhere (an unpacked archive, a shared folder, a clone's nested
 * test fixture) can carry `core.fsmonitor = ./x`, which `git status` runs. The check covers the
 * repository git itself would find (issue 18): `--git-dir`, `-C`, a `.git` file's `gitdir:`, a
 * linked worktree's `commondir` (whose config is the main repository's), and a bare repository
 * found by walking up (git's default `safe.bareRepository=all`).
 */

/** Section → keys that name a program (`*`: every key); values that are plain switches are fine. */
const RUNS_PROGRAMS: Readonly<Record<string, readonly string[]>> = {
  core: ['fsmonitor', 'pager', 'editor', 'sshcommand', 'askpass', 'hookspath', 'gitproxy', 'alternaterefscommand'],
  pager: ['*'],
  diff: ['external', 'textconv', 'command'],
  difftool: ['cmd', 'path'],
  mergetool: ['cmd', 'path'],
  filter: ['clean', 'smudge', 'process'],
  merge: ['driver'],
  credential: ['helper'],
  gpg: ['program', 'defaultkeycommand'],
  sequence: ['editor'],
  uploadpack: ['packobjectshook'],
  browser: ['cmd', 'path'],
  man: ['cmd', 'path'],
  web: ['browser'],
  submodule: ['update'],
  // Included files could say anything.
  include: ['path'],
  includeif: ['path'],
};
const SWITCHES = new Set(['true', 'false', 'yes', 'no', 'on', 'off', '0', '1', '']);

/** Whether `directory` is a git directory as git decides it: HEAD, and objects with refs or a commondir. */
function isGitDirectory(directory: string): boolean {
  return (
    existsSync(join(directory, 'HEAD')) &&
    (existsSync(join(directory, 'commondir')) ||
      (existsSync(join(directory, 'objects')) && existsSync(join(directory, 'refs'))))
  );
}

/**
 * The git directory of the repository around `start`, found as git finds it: at each level up,
 * `.git` (a directory, or a file saying `gitdir: …`), else the level itself when it is a bare
 * repository.
 */
export function findGitDirectory(start: string): string | undefined {
  let cursor = resolve(start);
  for (;;) {
    const candidate = join(cursor, '.git');
    try {
      const stats = statSync(candidate);
      if (stats.isDirectory() && isGitDirectory(candidate)) return candidate;
      if (stats.isFile()) {
        const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(candidate, 'utf8'));
        if (pointer !== null) return resolve(cursor, pointer[1]!.trim());
      }
    } catch {
      // no .git here
    }
    if (isGitDirectory(cursor)) return cursor;
    const parent = dirname(cursor);
    if (parent === cursor) return undefined;
    cursor = parent;
  }
}

/**
 * The configuration files git reads for a git directory (a linked worktree's include its main
 * repository's), and those of its submodules (`modules/…`, a few levels deep): `git status`
 * and `git diff` run git inside every submodule, with that submodule's configuration.
 */
function configFiles(gitDirectory: string): string[] {
  const files = [join(gitDirectory, 'config'), join(gitDirectory, 'config.worktree')];
  let common = gitDirectory;
  try {
    common = resolve(gitDirectory, readFileSync(join(gitDirectory, 'commondir'), 'utf8').trim());
    files.push(join(common, 'config'), join(common, 'config.worktree'));
  } catch {
    // not a linked worktree
  }
  const submodules = (directory: string, depth: number): void => {
    if (depth > 3) return;
    let entries: string[];
    try {
      entries = readdirSync(join(directory, 'modules'));
    } catch {
      return;
    }
    for (const entry of entries.slice(0, 200)) {
      const module = join(directory, 'modules', entry);
      files.push(join(module, 'config'));
      submodules(module, depth + 1);
    }
  };
  submodules(common, 0);
  return files;
}

const checked = new Map<string, { readonly key: string; readonly found: string | undefined }>();

/**
 * The first setting in one configuration file that runs a program. Read by git's own parser
 * (`git config --file F --list`, which runs nothing), so every spelling git accepts —
 * `[core] fsmonitor = x` on one line, `[Core]`, quoted subsections, continuations — is seen.
 * A file git cannot read is reported too: git would fail on it, riskgate asks.
 */
function programSetting(file: string): string | undefined {
  let key: string;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) return `${file}, which is not a regular file`;
    key = `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
  } catch {
    return undefined;
  }
  const cached = checked.get(file);
  if (cached !== undefined && cached.key === key) return cached.found;
  const result = spawnSync('git', ['config', '--file', file, '--no-includes', '--null', '--list'], {
    cwd: '/',
    encoding: 'utf8',
    timeout: 2_000,
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
  });
  let found: string | undefined;
  if (result.status !== 0) found = `configuration git cannot read in ${file}`;
  else {
    for (const entry of result.stdout.split('\0')) {
      const newline = entry.indexOf('\n');
      const name = (newline === -1 ? entry : entry.slice(0, newline)).toLowerCase();
      const setting =
        newline === -1
          ? ''
          : entry
              .slice(newline + 1)
              .trim()
              .toLowerCase();
      const parts = name.split('.');
      const keys = RUNS_PROGRAMS[parts[0] ?? ''];
      const last = parts[parts.length - 1] ?? '';
      if (parts.length < 2 || keys === undefined || !(keys.includes('*') || keys.includes(last))) continue;
      if (SWITCHES.has(setting) && parts[0] !== 'include' && parts[0] !== 'includeif') continue;
      found = name;
      break;
    }
  }
  checked.set(file, { key, found });
  return found;
}

/** The first setting of the repository whose git directory is given that runs a program, if any. */
export function programsInRepositoryConfig(gitDirectory: string): string | undefined {
  for (const file of configFiles(gitDirectory)) {
    const found = programSetting(file);
    if (found !== undefined) return found;
  }
  return undefined;
}
