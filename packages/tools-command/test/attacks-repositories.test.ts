import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/index.js';
import { createGateFixture, gate, tool, executeAssessed } from './gate-fixture.js';

/**
 * Issue 18: every way of naming another repository gets the repository-configuration check.
 * Real repositories in a scratch workspace carry a `core.fsmonitor` (or `diff.external`) script
 * that writes a marker file. Each row is run three ways:
 * - approved, outside the sandbox (the control): the marker IS written, so the attack is real;
 * - as an unasked call would run it (the tool's execute, read-only, in the sandbox): no marker;
 * - judged with and without the sandbox: asked both times.
 */
const fixture = createGateFixture();
const sandboxWorks = (await probeSandbox()).available;
const workspace = fixture.workspace;
const marker = join(workspace, 'MARKER');
const savedHome = process.env.HOME;

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'ignore' },
  );
}

/** A script git runs for the setting, which leaves a marker behind. */
function evilScript(name: string): string {
  const path = join(workspace, 'tools', name);
  mkdirSync(join(workspace, 'tools'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho "$0 $*" >> ${marker}\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A repository with one commit (an index, so status consults the fsmonitor) and the given config lines. */
function repository(directory: string, config: string): void {
  mkdirSync(directory, { recursive: true });
  git(directory, 'init', '-q');
  writeFileSync(join(directory, 'a.txt'), 'a\n');
  git(directory, 'add', 'a.txt');
  git(directory, 'commit', '-qm', 'one');
  writeFileSync(join(directory, 'a.txt'), 'b\n');
  git(directory, 'commit', '-qam', 'two');
  writeFileSync(join(directory, '.git', 'config'), `${config}\n`, { flag: 'a' });
}

beforeAll(() => {
  // Children get this home: nothing here may touch the real one.
  process.env.HOME = fixture.home;
  const fsmonitor = evilScript('fsmonitor.sh');
  const external = evilScript('external.sh');
  repository(join(workspace, 'vendor', 'other'), `[core]\n\tfsmonitor = ${fsmonitor}`);
  // The same setting on the header's line, and through an included file.
  repository(join(workspace, 'oneline'), `[core] fsmonitor = ${fsmonitor}`);
  writeFileSync(join(workspace, 'tools', 'included.inc'), `[core]\n\tfsmonitor = ${fsmonitor}\n`);
  repository(join(workspace, 'included'), `[include]\n\tpath = ${join(workspace, 'tools', 'included.inc')}`);
  // A .git file pointing at the other repository.
  mkdirSync(join(workspace, 'pointer'));
  writeFileSync(join(workspace, 'pointer', '.git'), `gitdir: ${join(workspace, 'vendor', 'other', '.git')}\n`);
  writeFileSync(join(workspace, 'pointer', 'a.txt'), 'b\n');
  // A linked worktree: its configuration is the main repository's (commondir).
  repository(join(workspace, 'main'), `[core]\n\tfsmonitor = ${fsmonitor}`);
  git(join(workspace, 'main'), 'worktree', 'add', '-q', join(workspace, 'wt'));
  // A submodule whose own configuration (.git/modules/sub/config) runs the script: git status recurses.
  repository(join(fixture.root, 'subseed'), '');
  repository(join(workspace, 'super'), '');
  git(
    join(workspace, 'super'),
    '-c',
    'protocol.file.allow=always',
    'submodule',
    'add',
    '-q',
    join(fixture.root, 'subseed'),
    'sub',
  );
  git(join(workspace, 'super'), 'commit', '-qm', 'sub');
  writeFileSync(join(workspace, 'super', '.git', 'modules', 'sub', 'config'), `[core]\n\tfsmonitor = ${fsmonitor}\n`, {
    flag: 'a',
  });
  // A bare repository nested in the workspace, found by walking up (safe.bareRepository=all).
  repository(join(fixture.root, 'seed'), '');
  execFileSync('git', ['clone', '-q', '--bare', join(fixture.root, 'seed'), join(workspace, 'evil.git')]);
  writeFileSync(join(workspace, 'evil.git', 'config'), `[diff]\n\texternal = ${external}\n`, { flag: 'a' });
});

afterAll(() => {
  process.env.HOME = savedHome;
  fixture.cleanup();
});

type Row = readonly [command: string, cwd?: string];

const OTHER_REPOSITORY: Row[] = [
  ['git --git-dir=vendor/other/.git --work-tree=vendor/other status'],
  ['git --git-dir vendor/other/.git --work-tree vendor/other status --short'],
  ['git --work-tree=vendor/other --git-dir=vendor/other/.git status -s'],
  ['git -C vendor/other status'],
  ['git -C vendor -C other status'],
  ['git -C ./vendor/../vendor/other status --porcelain'],
  ['cd vendor/other && git status'],
  ['(cd vendor/other; git status -s)'],
  ['cd vendor; cd other; git status'],
  ['git status', 'vendor/other'],
  ['git status -s', 'vendor/other/.git/..'],
  ['GIT_DIR=vendor/other/.git GIT_WORK_TREE=vendor/other git status'],
  ['env GIT_DIR=vendor/other/.git GIT_WORK_TREE=vendor/other git status'],
  ['export GIT_DIR=vendor/other/.git GIT_WORK_TREE=vendor/other; git status'],
  ['git -C "$(echo vendor/other)" status'],
  ['d=vendor/other; git -C $d status'],
  ['git -C pointer status'],
  ['cd pointer && git status -s'],
  ['git -C wt status'],
  ['cd wt && git log --oneline -1 && git status'],
  ['git status', 'wt'],
  ['git -C oneline status'],
  ['git -C included status'],
  ['git -C super status'],
  ['cd super && git diff'],
  ['git -C evil.git diff HEAD~1 HEAD'],
  ['cd evil.git && git diff HEAD~1 HEAD'],
  ['cd evil.git/refs && git diff HEAD~1 HEAD'],
  ['git --git-dir=evil.git diff HEAD~1 HEAD'],
  ['git diff HEAD~1 HEAD', 'evil.git/objects'],
];

function run(command: string, cwd: string | undefined, sandbox: boolean) {
  const directory = cwd === undefined ? '.' : cwd;
  return executeAssessed(
    tool,
    { command, cwd: directory },
    { cwd: workspace, home: fixture.home, sandbox, readOnly: sandbox, signal: new AbortController().signal },
  );
}

describe('another repository named any way gets the repository-configuration check', () => {
  it.each(OTHER_REPOSITORY)('%j (cwd %s): the attack is real when approved', async (command, cwd) => {
    rmSync(marker, { force: true });
    await run(String(command), cwd, false);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker, { force: true });
  });

  it.skipIf(!sandboxWorks).each(OTHER_REPOSITORY)(
    '%j (cwd %s): run as an unasked call, the marker is never written',
    async (command, cwd) => {
      rmSync(marker, { force: true });
      const result = await run(String(command), cwd, true);
      expect(result.type).toBe('tool-success');
      expect(existsSync(marker)).toBe(false);
    },
  );

  it.each(OTHER_REPOSITORY)('%j (cwd %s): asked with the sandbox and without it', async (command, cwd) => {
    for (const sandbox of [true, false]) {
      const evaluation = await gate(
        fixture,
        { command, ...(cwd === undefined ? {} : { cwd }) },
        { mode: 'smart', rules: [] },
        sandbox,
      );
      expect(evaluation.decision.action).toBe('confirm');
      expect(evaluation.decision.reasons.join('\n')).toMatch(/configuration|GIT_DIR|known only at run time/);
      const guarded = await gate(
        fixture,
        { command, risk_level: 'low', ...(cwd === undefined ? {} : { cwd }) },
        { mode: 'guarded', rules: [] },
        sandbox,
      );
      expect(guarded.decision.action).toBe('confirm');
    }
  });

  it('still runs git reads unasked in a repository whose configuration runs nothing', async () => {
    for (const command of [
      'git status',
      'git log --oneline -1',
      'git -C src status',
      'git --no-pager log -1',
      'git -C . diff --stat',
    ]) {
      for (const sandbox of [true, false]) {
        expect((await gate(fixture, { command }, { mode: 'smart', rules: [] }, sandbox)).decision.action).toBe(
          'execute',
        );
      }
    }
  });
});
