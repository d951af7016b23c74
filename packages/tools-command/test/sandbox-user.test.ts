import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox, runCommand, splitHostReader } from '../src/index.js';
import { NOBODY, sandboxUser } from '../src/sandbox-user.js';

/**
 * As root, the sandbox runs commands as `nobody` (sandbox-user.ts): every file its owner keeps
 * from others stays unread, whatever its name — the open world of credential stores that no
 * table lists. Planted outside the workspace and the home, as system programs keep them.
 */
const sandboxWorks = (await probeSandbox()).available;
const asRoot = process.getuid?.() === 0;
if (process.env.CI !== undefined && !sandboxWorks) throw new Error('CI must run the real sandbox: install bubblewrap');

const root = mkdtempSync('/var/tmp/riskgate-user-');
// The layout of a person's machine: a closed home (0700) with the project in it, system stores beside.
const home = join(root, 'home');
const workspace = join(home, 'code', 'app');
const system = join(root, 'srv');
afterAll(() => rmSync(root, { recursive: true, force: true }));

mkdirSync(workspace, { recursive: true });
chmodSync(root, 0o755);
chmodSync(home, 0o700);
writeFileSync(join(workspace, 'README.md'), 'project readme\n');
writeFileSync(join(workspace, 'local.conf'), 'marker-workspace-private\n', { mode: 0o600 });
mkdirSync(join(system, 'open'), { recursive: true });
writeFileSync(join(system, 'open', 'settings.conf'), 'world readable\n');
const stores: [string, number, string][] = [
  ['an application cookie (0400)', 0o400, 'erlang/.erlang.cookie'],
  ["a daemon's configuration (0640)", 0o640, 'redis/redis.conf'],
  ["a package manager's answers (0600)", 0o600, 'debconf/passwords.dat'],
  ['a key in a closed directory (0644 inside 0700)', 0o644, 'private/ssl/server.key'],
  ["another user's file (0600)", 0o600, 'home-alice/.config/chat/accounts.xml'],
];
for (const [, mode, path] of stores) {
  mkdirSync(join(system, path, '..'), { recursive: true });
  writeFileSync(join(system, path), `marker-${path}\n`, { mode });
}
chmodSync(join(system, 'private'), 0o700);

const run = (command: string, cwd = workspace) =>
  runCommand(command, {
    cwd,
    workspace,
    home,
    signal: new AbortController().signal,
    maxOutputBytes: 64_000,
    timeoutMs: 15_000,
    sandbox: true,
  });

describe.runIf(sandboxWorks && asRoot)(
  'as root, a sandboxed command runs as nobody (real bubblewrap, real kernel checks)',
  () => {
    it.each(stores)('cannot read %s, by any road', async (_what, _mode, path) => {
      for (const command of [
        `cat ${join(system, path)}`,
        `grep -r marker ${system}`,
        `base64 ${join(system, path)}`,
        `find ${system} -type f -exec cat {} +`,
        `tar cf - ${system} | strings`,
      ]) {
        const result = await run(`${command} 2>&1`);
        expect(result.output, command).not.toContain(`marker-${path}`);
      }
    });

    it('reads what others may read, the workspace through its closed home, and runs git there', async () => {
      execFileSync('git', ['init', '-q', workspace]);
      execFileSync('git', ['-C', workspace, 'add', 'README.md']);
      execFileSync('git', ['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first']);
      const result = await run(
        `cat README.md ${join(system, 'open', 'settings.conf')}; git log --format=%s; git status --short; id -u`,
      );
      expect(result.output).toContain('project readme\nworld readable\nfirst\n');
      expect(result.output).toContain('?? local.conf');
      expect(result.output.trim().endsWith(String(NOBODY))).toBe(true);
    });

    it('says who the person is: a lone `id` is read as riskgate, not as the sandbox user', async () => {
      for (const [line, expected] of [
        ['id -u', '0'],
        ['whoami', 'root'],
        ['id -un | tr a-z A-Z', 'ROOT'],
      ] as const) {
        const hostReader = await splitHostReader(line);
        expect(hostReader, line).toBeDefined();
        const result = await runCommand(line, {
          cwd: workspace,
          workspace,
          home,
          signal: new AbortController().signal,
          maxOutputBytes: 8_000,
          timeoutMs: 15_000,
          sandbox: true,
          hostReader: hostReader!,
        });
        expect(result.output.trim()).toBe(expected);
      }
    });

    it('a file of the workspace its owner keeps from others stays unread too', async () => {
      const result = await run('cat local.conf 2>&1');
      expect(result.output).not.toContain('marker-workspace-private');
      expect(result.output).toContain('Permission denied');
    });

    it('reaches a workspace below directories others may not enter, and only it', async () => {
      const closed = join(root, 'closed', 'deeper');
      const project = join(closed, 'project');
      mkdirSync(project, { recursive: true });
      writeFileSync(join(project, 'notes.txt'), 'inside\n');
      writeFileSync(join(closed, 'sibling.txt'), 'marker-sibling\n');
      chmodSync(join(root, 'closed'), 0o700);
      chmodSync(closed, 0o700);
      const result = await runCommand(`cat notes.txt; cat ${join(closed, 'sibling.txt')} 2>&1`, {
        cwd: project,
        workspace: project,
        home,
        signal: new AbortController().signal,
        maxOutputBytes: 8_000,
        timeoutMs: 15_000,
        sandbox: true,
      });
      expect(result.output).toContain('inside');
      expect(result.output).not.toContain('marker-sibling');
    });
  },
);

describe('who the sandbox runs as', () => {
  it('drops to nobody only for root, and not when the workspace itself is closed to others', () => {
    const open = mkdtempSync('/var/tmp/riskgate-user-plan-');
    try {
      chmodSync(open, 0o755);
      expect(sandboxUser({ cwd: open, workspace: open, home: '/nonexistent', uid: 1000 })).toBeUndefined();
      expect(sandboxUser({ cwd: open, workspace: open, home: '/nonexistent', uid: 0 })).toMatchObject({
        uid: NOBODY,
        gid: NOBODY,
        bridges: [],
      });
      chmodSync(open, 0o700);
      expect(sandboxUser({ cwd: open, workspace: open, home: '/nonexistent', uid: 0 })).toBeUndefined();
    } finally {
      rmSync(open, { recursive: true, force: true });
    }
  });
});
