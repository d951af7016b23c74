import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateToolCall, type GatePolicy } from '@riskgate/risk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFileOperationsTool } from '../src/index.js';

// Issue 21: file_operations on riskgate's copies for /undo, wherever XDG_STATE_HOME puts them.
const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-file-state-')));
chmodSync(root, 0o755);
const workspace = join(root, 'workspace');
const home = join(root, 'home');
mkdirSync(workspace, { recursive: true });
mkdirSync(home, { recursive: true });
const tool = createFileOperationsTool();
const smart: GatePolicy = { mode: 'smart', rules: [] };
const saved = process.env.XDG_STATE_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = saved;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PLACES = [join(root, 'elsewhere'), join(workspace, '.state')];
const OPERATIONS = [
  (project: string) => ({ operation: 'read', path: join(project, 'blobs', 'b'.repeat(64)) }),
  (project: string) => ({ operation: 'read', path: join(project, 'sets', '1.json') }),
  (project: string) => ({ operation: 'list', path: join(project, 'blobs') }),
  (project: string) => ({ operation: 'write', path: join(project, 'sets', 'forged.json'), content: '{}' }),
  (project: string) => ({ operation: 'write', path: join(project, 'blobs', 'c'.repeat(64)), content: 'x' }),
];

describe('file_operations and the state directory in force', () => {
  for (const state of PLACES)
    it.each(
      OPERATIONS.map((make, row) => [row, make] as const),
    )(`${state}: operation row %i is asked`, async (_row, make) => {
      process.env.XDG_STATE_HOME = state;
      const project = join(state, 'riskgate', 'checkpoints', 'abcdef0123456789');
      mkdirSync(join(project, 'blobs'), { recursive: true });
      mkdirSync(join(project, 'sets'), { recursive: true });
      writeFileSync(join(project, 'blobs', 'b'.repeat(64)), 'TOKEN=abc\n');
      writeFileSync(join(project, 'sets', '1.json'), '{}');
      const evaluation = await evaluateToolCall(tool, make(project), { cwd: workspace, home }, smart);
      expect(evaluation.decision.action).not.toBe('execute');
    });
});
