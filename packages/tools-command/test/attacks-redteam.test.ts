// Bypasses an independent red-team run found against the merged design (issues 17 and 18), each
// class in several spellings: judged without the sandbox (where nothing would contain them) every
// one must be asked; with the sandbox, the ones the boundary alone would not stop too.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/index.js';
import { createGateFixture, gate, tool, executeAssessed } from './gate-fixture.js';

const sandboxWorks = (await probeSandbox()).available;

const fixture = createGateFixture();
afterAll(() => fixture.cleanup());

// A repository whose configuration runs a program on `git status` (core.fsmonitor).
const evil = join(fixture.workspace, 'sub', 'evil');
mkdirSync(evil, { recursive: true });
execFileSync('git', ['init', '-q'], { cwd: evil });
execFileSync('git', ['config', 'core.fsmonitor', 'touch /tmp/riskgate-redteam-marker'], { cwd: evil });
writeFileSync(join(fixture.workspace, 'a.txt'), 'hello\n');
// A repository with an untracked secret file, as a checkout with a local .env is.
const loose = join(fixture.workspace, 'sub', 'loose');
mkdirSync(loose, { recursive: true });
execFileSync('git', ['init', '-q'], { cwd: loose });
writeFileSync(join(loose, '.env'), 'DB_PASSWORD=Sup3rS3cretDbPw_881\n');

const asked = async (command: string, sandbox: boolean) =>
  (await gate(fixture, { command }, { mode: 'smart', rules: [] }, sandbox)).decision.action;

describe('the directory a line moved to is followed, or the line is asked', () => {
  it.each([
    'cd ~; cd /tmp; rev ~-/.msmtprc',
    "cd ~; cd /tmp; grep -rh -o -e 'wJal.*' ~-",
    'cd ~; pushd /tmp >/dev/null; cat ~1/.msmtprc',
    'pushd ~; pushd /tmp; pushd +1; grep -r pass .',
    'pushd ~; pushd /tmp; pushd -0; cat .msmtprc',
    'pushd ~; pushd /tmp; pushd; cat .msmtprc',
    'eval cd ~; rev .msmtprc',
    "eval 'cd ~'; cat .msmtprc",
    'cat ~+/../home/.msmtprc | rev',
    'cat ~-/.msmtprc',
    'f() { cat .msmtprc; }; cd ~; f',
    'f() { git status; }; cd sub/evil; f',
    'eval cd sub/evil; git status',
    'git -C ~+/sub/evil status',
    'cd sub/evil; cd /; cd ~-; git status',
    'pushd sub/evil; pushd /; pushd +1; git status',
    'pushd sub/evil; pushd /tmp; git -C ~1 status',
  ])('asks before %j without the sandbox', async (command) => {
    expect(await asked(command, false)).toBe('confirm');
  });

  it.each([
    'cd src; cat a.ts',
    'cd src && ls deep',
    'f() { cat a.txt; }; f',
  ])('still runs %j unasked', async (command) => {
    expect(await asked(command, true)).toBe('execute');
  });
});

describe('reads git, binutils, tar and paths would do differently than they look', () => {
  it.each([
    "cd sub/loose && git grep --no-index -h -o 'S.*'",
    "git -C sub/loose grep --untracked -h -o 'S.*'",
    "git grep --no-index -h -o 'S.*' sub/loose",
    "cd ~ && git grep --no-index -h -o 'hunter.*'",
    'git -C ~ grep --no-index pass',
    'strings @/tmp/x',
    'strings @~/.msmtprc',
    'nm @args.txt',
    'git log --show-signature -1',
    'git verify-commit HEAD',
    'git verify-tag v1',
    'cat /proc/self/cwd/../home/.msmtprc',
    'cat /dev/fd/../environ',
    'cat /proc/1/root/../etc/shadow',
  ])('asks before %j without the sandbox', async (command) => {
    expect(await asked(command, false)).toBe('confirm');
  });

  it.each([
    "sed ':a e uname -a' a.txt",
    "sed ':x e id' a.txt",
    "sed ':a\te id' a.txt",
    'tar -tf x.tar --use-comp=id',
    'tar -tf x.tar --use-compress-prog=id',
    'tar -tf x.tar --use=id',
    'tar -tf x.tar --to-c=sh',
    'tar -tf host:x.tar',
    'tar -tf 127.0.0.1:/x.tar',
  ])('asks before %j even in the sandbox (it runs a program or connects)', async (command) => {
    expect(await asked(command, true)).toBe('confirm');
    expect(await asked(command, false)).toBe('confirm');
  });

  it.each([
    'git grep pass',
    'strings a.txt',
    'git log -1',
    "sed -n '1p' a.txt",
    'tar -tf x.tar',
    'cat /proc/self/status',
  ])('still runs %j unasked in the sandbox', async (command) => {
    expect(await asked(command, true)).toBe('execute');
  });
});

// Recursive readers that follow symbolic links (grep -R, rg -L, find -L/-follow, du -L, ls -LR,
// tree -l) read where the links below lead: a key in the home, a private home directory.
const links = join(fixture.workspace, 'sub', 'links');
const safeLinks = join(fixture.workspace, 'sub', 'safe');
const shared = join(fixture.root, 'shared');
mkdirSync(links, { recursive: true });
mkdirSync(safeLinks, { recursive: true });
mkdirSync(shared, { recursive: true });
writeFileSync(join(shared, 'notes.txt'), 'hello\n');
symlinkSync(join(fixture.home, '.ssh'), join(links, 'keys'));
symlinkSync(join(fixture.home, 'notes'), join(links, 'notes'));
symlinkSync(shared, join(safeLinks, 'shared'));

describe('recursive reads that follow symbolic links are judged where the links lead', () => {
  it.each([
    'grep -R BEGIN sub/links',
    'grep --dereference-recursive BEGIN sub/links',
    'grep -rR BEGIN sub',
    'grep --derefer BEGIN sub/links',
    'rg -L BEGIN sub/links',
    'rg --follow BEGIN sub',
    'find -L sub/links -type f -exec cat {} +',
    'find sub/links -follow -type f -exec cat {} +',
    'find -L sub | xargs cat',
    'grep -Rl BEGIN sub | xargs cat',
    'du -L sub/links',
    'du --dereference sub',
    'ls -LR sub',
    'ls -RL sub/links',
    'tree -l sub',
    'tar -chf - sub/links',
    'tar --deref -cf - sub',
    'diff -r sub/links sub/safe',
    'diff --recursive sub sub/safe',
    // A reader of the names a lister printed opens each one, following links, whatever the lister did.
    'find sub/links | xargs cat',
    'find sub -type l | xargs grep -h BEGIN',
    'cat $(find sub/links)',
    'wc -c $(find sub/links -name "*")',
    'find sub -print0 | xargs -0 grep -l BEGIN',
    'ls sub/links/* | xargs cat',
  ])('asks before %j, with the sandbox and without', async (command) => {
    expect(await asked(command, false)).toBe('confirm');
    expect(await asked(command, true)).toBe('confirm');
  });

  it.each([
    'grep -r BEGIN sub/links',
    'find sub/links -type f',
    'grep -R hello sub/safe',
    'find -L sub/safe -name "*.txt"',
    'du -L sub/safe',
    'find sub/safe | xargs cat',
  ])('still runs %j unasked: it does not follow the links, or they lead nowhere secret', async (command) => {
    expect(await asked(command, false)).toBe('execute');
  });

  it.each([
    'tar -cf - -C .. home',
    'tar -C .. -cf - home/.ssh',
    'tar --directory=.. -cf - home',
    'tar -cf - -T a.txt',
    'tar --files-from=a.txt -cf -',
  ])('asks before %j, which archives files of another directory or named in a file', async (command) => {
    expect(await asked(command, true)).toBe('confirm');
  });

  it.runIf(sandboxWorks)('shows nothing behind a link when the same read runs unasked in the sandbox', async () => {
    const result = await executeAssessed(
      tool,
      { command: 'grep -R -h . sub/links; cat sub/links/keys/id_rsa; ls sub/links/notes', cwd: '.', timeout_ms: 5_000 },
      {
        cwd: fixture.workspace,
        home: fixture.home,
        sandbox: true,
        readOnly: true,
        signal: new AbortController().signal,
      },
    );
    expect(JSON.stringify(result)).not.toMatch(/b3BlbnNzaC1rZXktdjEAAAAA|BEGIN OPENSSH|buy milk|todo\.txt/);
  });
});

describe('login-record readers read the file they are given', () => {
  it.each([
    'who ~/.netrc',
    'who ../home/.netrc',
    'users ~/.netrc',
    'users ../home/.aws/credentials',
  ])('asks before %j, with the sandbox and without', async (command) => {
    expect(await asked(command, false)).toBe('confirm');
    expect(await asked(command, true)).toBe('confirm');
  });
});

describe('a repository may track a symbolic link: the readers of git ls-files follow it', () => {
  const tracked = join(fixture.workspace, 'sub', 'tracked');
  mkdirSync(tracked, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: tracked });
  symlinkSync(join(fixture.home, '.ssh', 'id_rsa'), join(tracked, 'notes.txt'));
  writeFileSync(join(tracked, 'README.md'), 'hello\n');
  execFileSync('git', ['add', '.'], { cwd: tracked });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'x'], { cwd: tracked });
  const plain = join(fixture.workspace, 'sub', 'plain');
  mkdirSync(plain, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: plain });
  writeFileSync(join(plain, 'README.md'), 'hello\n');
  execFileSync('git', ['add', '.'], { cwd: plain });

  it.each([
    'cat $(git ls-files)',
    'git ls-files | xargs cat',
    'git ls-files -z | xargs -0 grep -h BEGIN',
  ])('asks before %j in a repository tracking a link to a key', async (command) => {
    for (const sandbox of [false, true])
      expect(
        (await gate(fixture, { command, cwd: 'sub/tracked' }, { mode: 'smart', rules: [] }, sandbox)).decision.action,
      ).toBe('confirm');
  });

  it.each([
    'wc -l $(git ls-files)',
    'git ls-files | xargs cat',
  ])('still runs %j unasked in a repository without links', async (command) => {
    expect(
      (await gate(fixture, { command, cwd: 'sub/plain' }, { mode: 'smart', rules: [] }, false)).decision.action,
    ).toBe('execute');
  });
});

describe('a builtin run by a program changes nothing in the shell', () => {
  const keys = join(fixture.workspace, 'sub', 'k');
  mkdirSync(keys, { recursive: true });
  writeFileSync(
    join(keys, 'backup.txt'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
  );

  it.each([
    'cd sub/k; env cd /; cat backup.txt',
    'cd sub/k && timeout 1 cd / ; cat backup.txt',
    'cd sub/k; nice cd /tmp; cat backup.txt',
    'cd sub/k; stdbuf -oL cd /; grep -h . backup.txt',
  ])('asks before %j: the cd ran in another process, the read is of the key', async (command) => {
    expect(await asked(command, false)).toBe('confirm');
  });

  it.each(['command cd sub; ls', 'builtin cd sub; ls'])('still runs %j unasked', async (command) => {
    expect(await asked(command, false)).toBe('execute');
  });
});

describe('`..` after a symbolic link leaves the link target, and a cd that fails stays where it was', () => {
  it.each([
    'cat sub/links/keys/../.netrc',
    'cat sub/links/keys/../../home/.netrc',
    'cd sub/links/keys && cat ../.netrc',
    'cd -P sub/links/keys && cat ../.netrc',
    'cd sub/links; cd -P keys/..; cat .netrc',
    'ls sub/links/keys/..',
    'cat sub/links/keys/../backup.txt',
    'cd sub/links/keys && cat ../backup.txt',
    'cd sub/links/keys; wc -c ../notes/todo.txt',
    'cd sub/k; cd /nonexistent; cat backup.txt',
    'cd sub/k; cd /nonexistent || cat backup.txt',
    'cd sub/k; cd backup.txt; cat backup.txt',
    'cd sub/k; cd / x; cat backup.txt',
    'cd sub/k; cd /tmp/../nowhere/..; cat backup.txt',
    'cd sub/k; pushd /nowhere; grep -h . backup.txt',
  ])('asks before %j', async (command) => {
    expect(await asked(command, false)).toBe('confirm');
  });

  it.each([
    'cd src && cat ../a.txt',
    'cat src/../a.txt',
    'cd sub/safe/shared/.. && ls',
  ])('still runs %j unasked', async (command) => {
    expect(await asked(command, false)).toBe('execute');
  });
});
