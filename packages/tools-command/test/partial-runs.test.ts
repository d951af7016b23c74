import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecuteCommandTool } from '../src/index.js';
import { executeAssessed } from './gate-fixture.js';

// A command stopped part-way did some of its work (issue 19: a command that had written 7 of 15
// steps was later told to the model as if it had not run). Its result says "partial", and the tool
// marks it, so the gate's audit line does too.
const workspace = mkdtempSync(join(tmpdir(), 'riskgate-partial-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const steps = 'for i in $(seq 1 15); do echo "step $i" >> steps.txt; sleep 0.3; done';

describe('a command stopped part-way', { timeout: 30_000 }, () => {
  it('at its timeout: the result says partial, and the steps it took stay done', async () => {
    const tool = createExecuteCommandTool();
    const result = await executeAssessed(
      tool,
      { command: steps, timeout_ms: 1_500 },
      { cwd: workspace, signal: new AbortController().signal, readOnly: false },
    );
    expect(result).toMatchObject({ type: 'tool-success', partial: true });
    expect(result.type === 'tool-success' && result.forModel).toMatch(
      /stopped: timed out after 1\.5 s[^\n]*\]\npartial: the command was stopped part-way; what it did before it stopped stays done/,
    );
    const written = readFileSync(join(workspace, 'steps.txt'), 'utf8').trim().split('\n');
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(15);
  });

  it('on a cancel: partial too', async () => {
    const tool = createExecuteCommandTool();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 800);
    const result = await executeAssessed(
      tool,
      { command: steps.replace('steps.txt', 'cancelled.txt') },
      { cwd: workspace, signal: controller.signal, readOnly: false },
    );
    expect(result).toMatchObject({ type: 'tool-success', partial: true });
    expect(result.type === 'tool-success' && result.forModel).toContain('partial: the command was stopped part-way');
  });

  it('a command that ran to its end is not partial, whatever its exit code', async () => {
    const tool = createExecuteCommandTool();
    const result = await executeAssessed(
      tool,
      { command: 'echo one; exit 3' },
      { cwd: workspace, signal: new AbortController().signal, readOnly: false },
    );
    expect(result).toMatchObject({ type: 'tool-success' });
    expect(result.type === 'tool-success' && result.partial).toBeUndefined();
    expect(result.type === 'tool-success' && result.forModel).not.toContain('partial');
  });
});
