// biome-ignore-all lint/suspicious/noTemplateCurlyInString: rows are bash command lines, whose ${…} are bash expansions
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/index.js';
import { createGateFixture, gate, tool, executeAssessed } from './gate-fixture.js';

/**
 * Issue 18: options and verbs fail closed, and without the sandbox only the core whitelist
 * runs unasked. Every row is run twice: as an unasked call runs it (the tool's execute,
 * read-only, in the sandbox) — the scratch workspace and home must come out unchanged, no
 * marker written — and judged without the sandbox, where it must be asked. Rows of the first
 * two classes are asked with the sandbox too: an option or verb not listed is not a read.
 */
const fixture = createGateFixture();
const sandboxWorks = (await probeSandbox()).available;
const workspace = fixture.workspace;
const savedHome = process.env.HOME;

beforeAll(() => {
  // Children get the scratch home: `~/.bashrc` in a row is never the real one.
  process.env.HOME = fixture.home;
  writeFileSync(join(fixture.home, '.bashrc'), '# scratch\n');
  mkdirSync(join(workspace, 'pkg'));
  // npm version runs these scripts (and commits and tags).
  writeFileSync(
    join(workspace, 'pkg', 'package.json'),
    JSON.stringify({ name: 'pkg', version: '1.0.0', scripts: { preversion: `touch ${join(workspace, 'MARKER')}` } }),
  );
  writeFileSync(join(workspace, 'cmds.txt'), 'link set lo down\n');
});

afterAll(() => {
  process.env.HOME = savedHome;
  fixture.cleanup();
});

/** Every file below the scratch root with its size and modification time. */
function snapshot(directory = fixture.root, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) snapshot(path, out);
    else if (entry.isFile()) {
      const stats = statSync(path);
      out.set(path, `${stats.size}:${stats.mtimeMs}`);
    }
  }
  return out;
}

type Row = readonly [command: string, cwd?: string];

/** Options a read program does not list: asked, with the sandbox too. */
const UNLISTED_OPTIONS: Row[] = [
  ['dmesg -C'],
  ['dmesg --clear'],
  ['dmesg -c'],
  ['dmesg --read-clear'],
  ['dmesg -HC'],
  ['dmesg -TC'],
  ['dmesg --cl'],
  ['dmesg -n 1'],
  ['dmesg --console-off'],
  ['ss -K'],
  ['ss --kill'],
  ['ss -tK'],
  ['ss -tlnK dst 127.0.0.1'],
  ['ss -D out.bin'],
  ['ss -Dout.bin'],
  ['ss --diag=out.bin'],
  ['ip -b cmds.txt'],
  ['ip -batch cmds.txt'],
  ['ip -force -batch cmds.txt'],
  ['ip -n other link'],
  ['ip link set lo down'],
  ['ip netns exec x ls'],
  ['ionice -p 1'],
  ['ionice -c3 -p 1'],
  ['shuf -r -e a'],
  ['free -s 1'],
  ['netstat -c'],
  ['ls --zzz'],
  ['ls -la --zzz=1'],
  ['cat -Z README.md'],
  ['head --unknown README.md'],
  ['grep -Y x README.md'],
  ['rg --unknown-flag x'],
  ['tree --xyz'],
  ['wc -Q README.md'],
  ['find . -newerXY x'],
  ['find . -fancy'],
  ['date --fancy'],
  ['hostname -F cmds.txt'],
  ['git --bogus status'],
  ['git --list-cmdsx status'],
  ['stat --zzz README.md'],
  ['sysctl -f cmds.txt'],
  ['sysctl -p'],
  ['sysctl --system'],
  ['sysctl -w vm.swappiness=1'],
  ['crontab -l -r'],
  ['crontab -r -l'],
  ['top -bn1 -Z'],
  ['git config --zzz user.name'],
  ['git log --bogus'],
  ['git status --recurse-submodules'],
  ['git blame --contents ~/.bashrc README.md'],
  ['kill -l -9 1'],
  ['mount -o remount,rw /'],
  // Brace expansion makes several words, some of them options.
  ['git ls-files -o --exclude-from=../home/.ssh/id_rsa'],
  ['git ls-files -oX ../home/.netrc'],
  ['ls {--zzz,-l}'],
  ['cat {-A,--zzz} a.txt'],
  ['stat {--zzz,-L} a.txt'],
  ['wc {-Q,-l} a.txt'],
];

/**
 * Options read as the program's getopt reads them: clusters (`-bf`), attached values
 * (`-So/tmp/out`), abbreviations (`--i`, `--e`, `--arg`), and every option of a wrapper, sed or
 * awk not in its table asked about. Each was whitelisted before (a value the walk skipped, or an
 * option it ignored).
 */
const GETOPT: Row[] = [
  ['xargs --arg-file=../home/.ssh/id_rsa echo'],
  ['xargs --arg-f=../home/.ssh/id_rsa echo'],
  ['xargs --arg=../home/.ssh/id_rsa echo'],
  ['xargs -0 --arg-file=../home/.msmtprc echo'],
  ['taskset -p 0x1 1'],
  ['taskset -a -p 0x1 1'],
  ['timeout --zzz 5 cat a.txt'],
  ['nice --zzz cat a.txt'],
  ['sed --i s/a/b/ a.txt'],
  ['sed --e 1p --e "w out" a.txt'],
  ["sed -n --e 1p --e '1w out' a.txt"],
  ['sed --zzz 1p a.txt'],
  ['awk -bf x a.txt'],
  ["awk -bo '{print}' a.txt"],
  ["awk -So/tmp/out '{print}' a.txt"],
  ["awk -bd '{print}' a.txt"],
  ["awk -bp '{print}' a.txt"],
  ['awk -bE x a.txt'],
  ["awk -be 'BEGIN{print 1}' -bo"],
  // xxd reads options only before its first operand: the second operand is a file it writes.
  ['xxd a.txt -ps'],
  ['xxd README.md -i'],
  ['xxd -c 8 a.txt -u'],
  // An optional argument is only ever attached (`--width=8`, `-w8`): the next word is an operand.
  ['od -w ../home/backup.txt'],
  ['od --width ../home/backup.txt'],
  ['od --strings ../home/backup.txt'],
  ['od -An --str ../home/.netrc'],
  ['du --time ../home'],
  ['du -s --time ../home/.ssh'],
  ['tee --output-error ../home/x < a.txt'],
];

/** Settings by environment that make a toolchain run something else: asked as the options they stand for. */
const SETTINGS_BY_ENVIRONMENT: Row[] = [
  ['GOFLAGS=-toolexec=./x go list ./...'],
  ['GOENV=./x go env GOPATH'],
  ['export GOTOOLCHAIN=go1.99.0; go version'],
  ['UV_PYTHON=/bin/sh uv pip list'],
  ['RUSTUP_TOOLCHAIN=/tmp/x cargo --version'],
  ['env CARGO_HOME=./x cargo --version'],
  ['GEM_PATH=./evil gem list'],
  ['PYTHONUSERBASE=./x pip list'],
  ['JDK_JAVA_OPTIONS=-javaagent:x.jar java -version'],
  ["LESS='+!touch MARKER' less README.md"],
  ['MANOPT=-Hfirefox man -w ls'],
  ['YARN_RC_FILENAME=x yarn --version'],
  ['COMPOSER=x composer show --no-plugins'],
];

/** Verbs of package managers and toolchains that write, run project code, or change settings. */
const VERBS: Row[] = [
  ['npm version patch', 'pkg'],
  ['npm version 2.0.0 --no-git-tag-version', 'pkg'],
  ['npm version minor -f', 'pkg'],
  ['npm --prefix . version patch', 'pkg'],
  ['npm -w x version patch', 'pkg'],
  ['npm config set color false', 'pkg'],
  ['npm config delete color'],
  ['npm cache clean --force'],
  ['npm run preversion', 'pkg'],
  ['npm explore x -- ls'],
  ['npm constructor'],
  ['npm config get //registry.npmjs.org/:_authToken'],
  ['pip cache purge'],
  ['pip cache remove x'],
  ['pip3 cache purge'],
  ['pip list --log ~/.bashrc'],
  ['pip --log ~/.bashrc list'],
  ['pip list --log=$HOME/.bashrc'],
  ['pip list --cache-dir ~/cache'],
  ['pip list --python /tmp/x'],
  ['pip config set global.x y'],
  ['pnpm store prune'],
  ['pnpm store add x'],
  ['pnpm env use --global 20'],
  ['cargo metadata'],
  ['cargo metadata --format-version 1'],
  ['cargo tree'],
  ['cargo pkgid'],
  ['cargo --config build.rustc=./x version'],
  ['go env -w GOFLAGS=-x'],
  ['go env -u GOPATH'],
  ['go env --w GOFLAGS=-x'],
  ['go env -json -w X=1'],
  ['go list -export ./...'],
  ['go list -toolexec ./x ./...'],
  ['go generate ./...'],
  ['yarn'],
  ['yarn --frozen-lockfile'],
  ['yarn versions --bump'],
  ['bundle list'],
  ['bundle'],
  ['composer show'],
  ['uv tree'],
  ['uv version --bump patch'],
  ['poetry version patch'],
  ['poetry config --unset x'],
  ['dnf history undo 3'],
  ['pacman -Syu'],
  ['pacman -S x'],
  ['pacman -Ssy x'],
  ['dpkg -i x.deb'],
  ['dpkg -l --force-all'],
  ['apt-get check'],
  ['apt list -o APT::Update::Pre-Invoke::=touch'],
  ['brew home x'],
  ['brew cleanup'],
  ['gem list --remote'],
  ['npm view left-pad'],
  ['cargo search serde'],
  ['pip index versions x'],
  ['pip list -o'],
  ['poetry show --outdated'],
  ['go list -m -u all'],
];

/** Read-only in the sandbox, where a parse mistake is contained; without it, asked. */
const NEEDS_THE_SANDBOX: Row[] = [
  ["awk '{print $1}' README.md"],
  ['awk \'BEGIN{f="system"; @f("touch MARKER")}\''],
  ['gawk \'BEGIN{f="sys" "tem"; @f("touch MARKER")}\''],
  ["sed -n '1p' README.md"],
  ['jq .name package.json'],
  ['ps aux'],
  ['pgrep -a node'],
  ['ss -tln'],
  ['dmesg'],
  ['lsblk'],
  ['npm ls'],
  ['npm -v'],
  ['pip list'],
  ['pip cache dir'],
  ['go env GOPATH'],
  ['npm config get registry'],
  ['node --version'],
  ['python3 -V'],
  ['journalctl -n 5 --no-pager'],
  ['man -w ls'],
  ['tar tf x.tar'],
  ['less README.md'],
  ['zcat x.gz'],
  ['bash -c "ls"'],
  ['sh -c "cat README.md"'],
  ['fd x'],
  ['lsof -i :1'],
  ['apt-cache policy bash'],
  ['dpkg -l bash'],
  ['ip a'],
  ['whereis ls'],
  ['top -bn1'],
];

async function runUnasked(command: string, cwd: string | undefined) {
  return executeAssessed(
    tool,
    { command, cwd: cwd ?? '.', timeout_ms: 3_000 },
    { cwd: workspace, home: fixture.home, sandbox: true, readOnly: true, signal: new AbortController().signal },
  );
}

describe.each([
  ['options a read program does not list', UNLISTED_OPTIONS, true],
  ['verbs that write, run project code or change settings', VERBS, true],
  ['options read as getopt reads them', GETOPT, true],
  ['settings by environment', SETTINGS_BY_ENVIRONMENT, true],
  ['rows that need the sandbox', NEEDS_THE_SANDBOX, false],
] as const)('%s', (_class, rows, askedInSandbox) => {
  it.skipIf(!sandboxWorks).each(rows)(
    '%j run as an unasked call in the sandbox changes nothing',
    { timeout: 20_000 },
    async (command, cwd) => {
      const before = snapshot();
      const result = await runUnasked(String(command), cwd);
      expect(result.type).toBe('tool-success');
      expect(snapshot()).toEqual(before);
      rmSync(join(workspace, 'MARKER'), { force: true });
    },
  );

  it.each(rows)('%j is asked about without the sandbox', async (command, cwd) => {
    const evaluation = await gate(
      fixture,
      { command, ...(cwd === undefined ? {} : { cwd }) },
      { mode: 'smart', rules: [] },
      false,
    );
    expect(evaluation.decision.action).toBe('confirm');
    if (!askedInSandbox)
      expect(evaluation.decision.reasons.join('\n')).toMatch(
        /not available here|runs|unbounded|never ends|environment|does not know|riskgate reads only/,
      );
  });

  it.each(rows)(
    askedInSandbox ? '%j is asked about in the sandbox too' : '%j is not asked for want of a sandbox when there is one',
    async (command, cwd) => {
      const evaluation = await gate(
        fixture,
        { command, ...(cwd === undefined ? {} : { cwd }) },
        { mode: 'smart', rules: [] },
        true,
      );
      if (askedInSandbox) expect(evaluation.decision.action).toBe('confirm');
      else
        expect(
          evaluation.decision.action === 'execute' ||
            !/not available here/.test(evaluation.decision.reasons.join('\n')),
        ).toBe(true);
    },
  );
});

describe('the harms issue 18 measured are known dangers: guarded mode asks whatever the model says', () => {
  it.each([
    'dmesg -C',
    'dmesg --clear',
    'dmesg -HC',
    'dmesg --read-clear',
    'ss -K',
    'ss --kill',
    'ss -tK',
    'ss -D out.bin',
    'ss --diag=out.bin',
    'ip -b cmds.txt',
    'ip -batch cmds.txt',
    'ionice -p 1',
    'npm version patch',
    'npm --prefix . version minor',
    'pip list --log ~/.bashrc',
    'pip --log ~/.bashrc list',
    'pip cache purge',
    'pnpm store prune',
    'cargo metadata',
    'go env -w GOFLAGS=-x',
    'go env --w GOFLAGS=-x',
    'free -s 1',
    'shuf -r -e a',
  ])('%j', async (command) => {
    for (const sandbox of [true, false]) {
      const guarded = await gate(fixture, { command, risk_level: 'low' }, { mode: 'guarded', rules: [] }, sandbox);
      expect(guarded.decision).toMatchObject({ action: 'confirm', source: 'guard' });
    }
  });
});
