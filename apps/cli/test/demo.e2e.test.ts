import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

const scene = e2eScene();

/** Presses y while the panel is up, until it answers (Ink hands the panel its keys just after drawing it). */
async function approve(terminal: ReturnType<typeof scene.open>, done: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 20 && /Execute this query\? \[y\/N\]/.test(terminal.screen()); attempt++) {
    terminal.key('y');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return terminal.waitFor(done);
}

describe('riskgate demo', () => {
  it('plays the same way every time: the DELETE it proposes finds the same rows after an earlier run deleted them', async () => {
    const { directory, env } = await scene.start([]);
    // The demo brings its own model: the scene's server and model are not used.
    const demoEnv = { ...env, TMPDIR: directory, RISKGATE_TYPE_AHEAD_MS: '0' };
    for (const run of [1, 2]) {
      const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN} demo'`, demoEnv);
      await terminal.waitFor(/SQL · smart · demo-shop\.sqlite · riskgate-demo/);
      terminal.type('show me the orders', true);
      await terminal.waitFor(/this demo model follows a script\)\./);
      terminal.type('clean up the payments', true);
      const panel = await terminal.waitFor(/Execute this query\? \[y\/N\]/);
      expect(panel, `run ${run}`).toContain('would delete 297 rows of payments');
      await approve(terminal, /297 rows changed/);
      await terminal.waitFor(/and \/exit to leave\./);
      terminal.key('C-d');
      const last = await terminal.waitFor(/\[exited 0\]/);
      // Its database and model are gone at exit: resuming it is not offered.
      expect(last).not.toContain('Resume this conversation');
      terminal.close();
      // Its copy of the database is gone with it, and so is its conversation: /resume never offers it.
      expect(readdirSync(directory).filter((name) => name.startsWith('riskgate-demo-'))).toEqual([]);
      const sessions = join(directory, 'state', 'riskgate', 'sessions');
      expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([]);
    }
    // The demo never touches the cached demo database that "riskgate sql" opens.
    expect(existsSync(join(directory, 'cache', 'riskgate', 'demo-shop-v1.sqlite'))).toBe(false);
  }, 120_000);

  it('needs a terminal, and says so', async () => {
    const result = await runCli(['demo']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^riskgate demo: needs a terminal/);
  });
});
