import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TmuxTerminal } from '../../../apps/cli/test/tmux.js';

/**
 * The README's promise to a new user: a fresh clone, its first command, and `riskgate` works
 * from any folder. The command is taken from the README as written and typed into a real
 * terminal; npm's global folder is the test's own (NPM_CONFIG_PREFIX), so nothing of this
 * machine's is touched.
 */
const workspace = fileURLToPath(new URL('../../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'riskgate-readme-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The first command of the README's first shell block: install, build, put on PATH, run the demo. */
function readmeInstallCommand(): string {
  const readme = readFileSync(join(workspace, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const command = block.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'));
  if (command === undefined) throw new Error('the README has no command in its first ```sh block');
  return command;
}

describe("the README's first command on a fresh clone", () => {
  it('installs, builds, puts riskgate on PATH and runs the demo; then riskgate works from another folder', async () => {
    const command = readmeInstallCommand();
    expect(command).toMatch(/riskgate demo$/);
    const clone = join(root, 'clone');
    execFileSync('git', ['clone', '--quiet', workspace, clone]);
    const prefix = join(root, 'npm-global');
    const path = `${join(prefix, 'bin')}:${process.env.PATH}`;
    const env = {
      NPM_CONFIG_PREFIX: prefix,
      PATH: path,
      XDG_CONFIG_HOME: join(root, 'config'),
      XDG_STATE_HOME: join(root, 'state'),
      XDG_CACHE_HOME: join(root, 'cache'),
      TURBO_TELEMETRY_DISABLED: '1',
    };
    const script = `cd '${clone}' && ${command}`;
    const terminal = new TmuxTerminal(`sh -c '${script.replaceAll("'", "'\\''")}'`, env, {
      columns: 120,
      rows: 40,
    });
    try {
      // pnpm install and a whole build first: minutes on a busy machine.
      await terminal.waitFor(/SQL · smart · demo-shop\.sqlite/, 540_000);
      terminal.type('what sells?', true);
      // The turn ends with the scripted answer; /exit then leaves.
      await terminal.waitFor(/this demo model follows a script\)\./, 60_000);
      // Enter while the turn is still finishing is not taken: pressed again until riskgate leaves.
      terminal.type('/exit');
      for (let attempt = 0; attempt < 40 && !/\[exited \d+\]/.test(terminal.screen()); attempt++) {
        terminal.key('Enter');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await terminal.waitFor(/\[exited 0\]/, 10_000);
    } finally {
      terminal.close();
    }
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const version = execFileSync('riskgate', ['--version'], { cwd: elsewhere, env: { ...process.env, ...env } });
    const manifest = JSON.parse(readFileSync(join(workspace, 'apps/cli/package.json'), 'utf8')) as { version: string };
    expect(version.toString().trim()).toBe(manifest.version);
    // The linked CLI is the clone's build, and it runs a real verdict from the other folder.
    const verdict = execFileSync('riskgate', ['assess', 'execute_command', '{"command":"rm -rf build"}'], {
      cwd: elsewhere,
      env: { ...process.env, ...env },
    }).toString();
    expect(verdict).toMatch(/^execute_command: CONFIRM/);
  }, 720_000);
});
