import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateFixture, gate } from './gate-fixture.js';

/**
 * Secrets the object store still holds, found by content (red-team F1): a settings file
 * committed with real values and cleaned in the next commit is clean on disk, and the sandbox
 * cannot hide its blob from git. Every way git prints an old blob, in many spellings, with
 * encoders after it (which no output guard reads), must be asked; the same reads of a clean
 * repository, and metadata reads of any, must not.
 */
const fixture = createGateFixture();
afterAll(() => fixture.cleanup());

const TOKEN = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const PASSWORD = 'Falcon-xq8-Qa91!zz';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

function repository(name: string): string {
  const directory = join(fixture.workspace, name);
  mkdirSync(directory, { recursive: true });
  git(directory, 'init', '-q');
  return directory;
}

// History only: the values were committed, then replaced by placeholders.
const cleaned = repository('cleaned');
mkdirSync(join(cleaned, 'config'));
writeFileSync(join(cleaned, 'config', 'settings.yml'), `db:\n  password: "${PASSWORD}"\n  github_token: ${TOKEN}\n`);
git(cleaned, 'add', '.');
git(cleaned, 'commit', '-qm', 'settings');
writeFileSync(
  join(cleaned, 'config', 'settings.yml'),
  'db:\n  password: "${DB_PASSWORD}"\n  github_token: ${GITHUB_TOKEN}\n',
);
git(cleaned, 'commit', '-qam', 'placeholders');
const oldBlob = git(cleaned, 'rev-parse', 'HEAD~1:config/settings.yml');

// Only in the index: staged with a value, then cleaned on disk without staging.
const staged = repository('staged');
writeFileSync(join(staged, 'app.env.sample'), 'API_URL=https://api.example.com\n');
git(staged, 'add', '.');
git(staged, 'commit', '-qm', 'sample');
writeFileSync(join(staged, 'app.env.sample'), `API_URL=https://api.example.com\nAPI_TOKEN=${TOKEN}\n`);
git(staged, 'add', '.');
writeFileSync(join(staged, 'app.env.sample'), 'API_URL=https://api.example.com\nAPI_TOKEN=changeme\n');

// Only in a dangling blob: written to the store, never committed.
const dangling = repository('dangling');
writeFileSync(join(dangling, 'README.md'), '# app\n');
git(dangling, 'add', '.');
git(dangling, 'commit', '-qm', 'readme');
const danglingBlob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
  cwd: dangling,
  input: `password = "${PASSWORD}"\ntoken = ${TOKEN}\n`,
  encoding: 'utf8',
}).trim();

// Only in the stash.
const stashed = repository('stashed');
writeFileSync(join(stashed, 'deploy.sh'), '#!/bin/sh\necho deploy\n');
git(stashed, 'add', '.');
git(stashed, 'commit', '-qm', 'deploy');
writeFileSync(join(stashed, 'deploy.sh'), `#!/bin/sh\nexport GITHUB_TOKEN=${TOKEN}\necho deploy\n`);
git(stashed, 'stash', '-q');

// Only in a note (refs/notes/commits): a token pasted into a commit annotation.
const noted = repository('noted');
writeFileSync(join(noted, 'README.md'), '# app\n');
git(noted, 'add', '.');
git(noted, 'commit', '-qm', 'readme');
git(noted, 'notes', 'add', '-m', `deployed with GITHUB_TOKEN=${TOKEN}`, 'HEAD');

// A clean repository with notes that hold nothing secret.
const notedClean = repository('noted-clean');
writeFileSync(join(notedClean, 'README.md'), '# app\n');
git(notedClean, 'add', '.');
git(notedClean, 'commit', '-qm', 'readme');
git(notedClean, 'notes', 'add', '-m', 'reviewed by amy', 'HEAD');

// A clean repository with the same shape.
const clean = repository('clean');
writeFileSync(join(clean, 'settings.yml'), 'db:\n  host: localhost\n');
git(clean, 'add', '.');
git(clean, 'commit', '-qm', 'one');
writeFileSync(join(clean, 'settings.yml'), 'db:\n  host: db.internal\n');
git(clean, 'commit', '-qam', 'two');

const asked = async (command: string, cwd: string) => {
  const evaluation = await gate(fixture, { command, cwd }, undefined, true);
  return evaluation.decision.action !== 'execute';
};

describe('old blobs that hold secrets are asked before git prints them (with the sandbox)', () => {
  it.each([
    'git show HEAD~1:config/settings.yml | rev',
    'git show HEAD~1:config/settings.yml | xxd -p',
    'git show HEAD~1:config/settings.yml | base32',
    "git show 'HEAD^:config/settings.yml' | od -An -c",
    'git show HEAD~1 | rev',
    'git show HEAD',
    'git log -p | rev',
    'git log -p --all',
    'git log --patch -- config/settings.yml | tr a-z A-Z',
    'git log -Sghp_ -p',
    'git diff HEAD~1 | rev',
    'git diff HEAD~1 HEAD',
    'git diff-tree -p HEAD',
    'git grep . HEAD~1 | rev',
    'git blame HEAD~1 config/settings.yml | rev',
    `git cat-file -p ${oldBlob} | rev`,
    `git cat-file blob ${oldBlob.slice(0, 10)}`,
    'git whatchanged -p',
    'git show --stat -p HEAD~1 | rev',
    'git diff --stat --patch HEAD~1',
    // A commit named by its message (`:/text`) is a revision with its patch, not an index path.
    "git show ':/settings' | rev",
    'git show :/settings',
  ])('in a repository whose history holds them: %s', async (command) => {
    expect(await asked(command, cleaned)).toBe(true);
  });

  it.each([
    'git diff | rev',
    'git diff --cached',
    'git show :app.env.sample | rev',
  ])('only in the index: %s', async (command) => {
    expect(await asked(command, staged)).toBe(true);
  });

  it.each([
    `git cat-file -p ${danglingBlob} | rev`,
    `git cat-file blob ${danglingBlob}`,
  ])('only in a dangling blob: %s', async (command) => {
    expect(await asked(command, dangling)).toBe(true);
  });

  it.each([
    'git stash show -p | rev',
    'git stash show -p stash@{0}',
    'git show stash@{0} | rev',
    'git reflog -p',
    // `stash list` takes log's options (red team, round 3).
    'git stash list -p',
    'git stash list -p | rev',
    'git stash list --patch | xxd -p',
  ])('only in the stash: %s', async (command) => {
    expect(await asked(command, stashed)).toBe(true);
  });

  it.each([
    'git notes show',
    'git notes show HEAD | rev',
    'git log -1 | rev',
    'git log --notes | rev',
    'git log --show-notes=* -1',
    'git log -1 --format=%N | rev',
    'git show -s HEAD | rev',
  ])('only in a note: %s', async (command) => {
    expect(await asked(command, noted)).toBe(true);
  });
});

describe('the same reads of a clean repository, and metadata reads of any, run unasked', () => {
  it.each([
    'git notes show',
    'git log -1',
    'git log --notes',
    'git notes list',
    'git stash list',
  ])('clean notes: %s', async (command) => {
    expect(await asked(command, notedClean)).toBe(false);
  });

  it.each([
    'git log -p',
    'git show HEAD~1:settings.yml',
    'git show HEAD',
    'git diff HEAD~1',
    'git blame HEAD~1 settings.yml',
    'git grep host HEAD~1',
  ])('clean: %s', async (command) => {
    expect(await asked(command, clean)).toBe(false);
  });

  it.each([
    'git log --oneline',
    'git status',
    'git log --stat',
    'git branch -a',
    'git show --stat HEAD',
    'git diff --name-only HEAD~1',
    'cat config/settings.yml',
  ])('metadata or today’s clean files: %s', async (command) => {
    expect(await asked(command, cleaned)).toBe(false);
  });
});
