import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpoints } from '@riskgate/core';
import { judgeEffects } from '@riskgate/risk';
import { afterAll, describe, expect, it } from 'vitest';
import { runUndo } from '../src/undo-subcommand.js';

// riskgate undo prints the paths it restores: a file name's terminal escapes are shown as codes.
const root = mkdtempSync(join(tmpdir(), 'riskgate-undo-names-'));
const savedState = process.env.XDG_STATE_HOME;
const savedCwd = process.cwd();
afterAll(() => {
  process.chdir(savedCwd);
  if (savedState === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = savedState;
  rmSync(root, { recursive: true, force: true });
});

const NAMES = [
  '\u001b]52;c;cm0gLXJmIH4=\u0007clip.txt',
  '\u001b[2J\u001b[Hcleared.txt',
  '\u001b]8;;https:\u2215\u2215example.com\u0007link\u001b]8;;\u0007.txt',
  'bell\u0007.txt',
  'return\rover.txt',
];

describe('riskgate undo and hostile file names', () => {
  it.each(NAMES)('%j is shown, not obeyed', async (name) => {
    const workspace = mkdtempSync(join(root, 'ws-'));
    process.env.XDG_STATE_HOME = join(root, 'state');
    process.chdir(workspace);
    const checkpoints = new Checkpoints({ cwd: workspace });
    const path = join(workspace, name);
    writeFileSync(path, 'before');
    const plan = checkpoints.plan(judgeEffects([{ kind: 'write-path', path }], { cwd: workspace }).effects);
    const pending = await checkpoints.capture(plan!);
    writeFileSync(path, 'after');
    await checkpoints.commit(pending, { tool: 'execute_command', title: `touch ${name}` });
    for (const argv of [['list'], []]) {
      let out = '';
      const write = (text: string) => {
        out += text;
        return true;
      };
      const code = await runUndo(argv, { stdout: { write }, stderr: { write } } as never);
      expect(code).toBe(0);
      expect(out).not.toMatch(/[\u0007\u001b\r]/);
      expect(out).toMatch(/puts back/);
    }
    expect(readFileSync(path, 'utf8')).toBe('before');
  });
});
