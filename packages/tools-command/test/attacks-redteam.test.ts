// Bypasses an independent red-team run found against the merged design (issues 17 and 18), each
// class in several spellings: judged without the sandbox (where nothing would contain them) every
// one must be asked; with the sandbox, the ones the boundary alone would not stop too.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateFixture, gate } from './gate-fixture.js';

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

const asked = async (command: string, sandbox: boolean) => (await gate(fixture, { command }, { mode: 'smart', rules: [] }, sandbox)).decision.action;

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

  it.each(['cd src; cat a.ts', 'cd src && ls deep', 'f() { cat a.txt; }; f'])('still runs %j unasked', async (command) => {
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

  it.each(['git grep pass', 'strings a.txt', 'git log -1', "sed -n '1p' a.txt", 'tar -tf x.tar', 'cat /proc/self/status'])('still runs %j unasked in the sandbox', async (command) => {
    expect(await asked(command, true)).toBe('execute');
  });
});
