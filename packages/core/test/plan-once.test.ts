import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyTool } from '@riskgate/risk';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import { createFileOperationsTool } from '@riskgate/tools-file';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApprovalAnswer, type GateContext, runGatedToolCall } from '../src/index.js';

// Issue 23: the assessor runs once per call; its plan reaches describe and execute; an edit is
// assessed again and runs by its own plan.

const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-plan-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The tool with its assessor counted, and what describe and execute were handed. */
function counted(tool: AnyTool) {
  const seen = { assessed: 0, describedWith: [] as unknown[], executedWith: [] as unknown[] };
  const wrapped: AnyTool = {
    ...tool,
    assess: async (args, context) => {
      seen.assessed += 1;
      return tool.assess(args, context);
    },
    describe: (args, context, plan) => {
      seen.describedWith.push(plan);
      return tool.describe(args, context, plan);
    },
    execute: (args, context, plan) => {
      seen.executedWith.push(plan);
      return tool.execute(args, context, plan);
    },
  };
  return { wrapped, seen };
}

function gateFor(tool: AnyTool, cwd: string, answers: ApprovalAnswer[]): GateContext {
  return {
    tools: [tool],
    policy: { mode: 'smart', rules: [] },
    assess: { cwd, home: join(root, 'home') },
    confirm: async () => {
      const answer = answers.shift();
      if (answer === undefined) throw new Error('asked more often than expected');
      return answer;
    },
  };
}

describe('one assessment per call, its plan carried to describe and execute', () => {
  it('a whitelisted command: assessed once, executed with that plan', async () => {
    const workspace = join(root, 'w1');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'notes.txt'), 'hello\n');
    const { wrapped, seen } = counted(createExecuteCommandTool());
    const outcome = await runGatedToolCall(
      { id: 'c1', name: 'execute_command', arguments: { command: 'cat notes.txt' } },
      gateFor(wrapped, workspace, []),
    );
    expect(outcome.state).toBe('succeeded');
    expect(seen.assessed).toBe(1);
    expect(seen.executedWith).toEqual([expect.objectContaining({ directory: workspace })]);
  });

  it('an asked command: assessed once; the panel and the run get the same plan', async () => {
    const workspace = join(root, 'w2');
    mkdirSync(join(workspace, 'sub'), { recursive: true });
    const { wrapped, seen } = counted(createExecuteCommandTool());
    const outcome = await runGatedToolCall(
      { id: 'c2', name: 'execute_command', arguments: { command: 'touch made.txt', cwd: 'sub' } },
      gateFor(wrapped, workspace, [{ type: 'approve' }]),
    );
    expect(outcome.state).toBe('succeeded');
    expect(seen.assessed).toBe(1);
    expect(seen.describedWith).toHaveLength(1);
    expect(seen.executedWith[0]).toBe(seen.describedWith[0]);
    expect(readFileSync(join(workspace, 'sub', 'made.txt'), 'utf8')).toBe('');
  });

  it('an edited call is assessed again and runs by the plan of what the person wrote', async () => {
    const workspace = join(root, 'w3');
    mkdirSync(join(workspace, 'a'), { recursive: true });
    mkdirSync(join(workspace, 'b'), { recursive: true });
    const { wrapped, seen } = counted(createExecuteCommandTool());
    const outcome = await runGatedToolCall(
      { id: 'c3', name: 'execute_command', arguments: { command: 'touch x.txt', cwd: 'a' } },
      gateFor(wrapped, workspace, [{ type: 'edit', args: { command: 'touch y.txt', cwd: 'b' } }]),
    );
    expect(outcome.state).toBe('succeeded');
    expect(seen.assessed).toBe(2);
    expect(seen.executedWith).toEqual([expect.objectContaining({ directory: join(workspace, 'b') })]);
    expect(readFileSync(join(workspace, 'b', 'y.txt'), 'utf8')).toBe('');
  });

  it('a file write: the diff the panel showed and the write come from one assessment', async () => {
    const workspace = join(root, 'w4');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'a.txt'), 'old\n');
    const { wrapped, seen } = counted(createFileOperationsTool());
    const outcome = await runGatedToolCall(
      { id: 'c4', name: 'file_operations', arguments: { operation: 'write', path: 'a.txt', content: 'new\n' } },
      gateFor(wrapped, workspace, [{ type: 'approve' }]),
    );
    expect(outcome.state).toBe('succeeded');
    expect(seen.assessed).toBe(1);
    expect(seen.executedWith[0]).toBe(seen.describedWith[0]);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('new\n');
  });

  it('an assessor that fails leaves no plan: nothing runs, whatever the person answers', async () => {
    const workspace = join(root, 'w5');
    mkdirSync(workspace, { recursive: true });
    const tool: AnyTool = createExecuteCommandTool();
    const broken: AnyTool = {
      ...tool,
      assess: () => {
        throw new Error('parser crashed');
      },
      execute: () => {
        throw new Error('must not run');
      },
    };
    const outcome = await runGatedToolCall(
      { id: 'c5', name: 'execute_command', arguments: { command: 'touch z.txt' } },
      gateFor(broken, workspace, [{ type: 'approve' }]),
    );
    expect(outcome).toMatchObject({ state: 'denied' });
    expect(outcome.forModel).toMatch(/assessor-failed.*parser crashed/);
  });

  it.each([
    [
      'execute_command',
      () => createExecuteCommandTool(),
      { command: 'touch made-unplanned.txt' },
      'command-not-assessed',
    ],
    [
      'file_operations',
      () => createFileOperationsTool(),
      { operation: 'write', path: 'made-unplanned.txt', content: 'x' },
      'file-not-assessed',
    ],
  ] as const)('%s run without its plan (a plain JavaScript caller) runs nothing and says why', async (_name, make, args, code) => {
    const workspace = join(root, `unplanned-${code}`);
    mkdirSync(workspace, { recursive: true });
    const tool: AnyTool = make();
    const context = { cwd: workspace, signal: new AbortController().signal, readOnly: false };
    const result = await (tool.execute as (args: unknown, context: unknown) => Promise<unknown>)(args, context);
    expect(result).toMatchObject({ type: 'tool-error', code, message: expect.stringMatching(/nothing was run/) });
    expect(existsSync(join(workspace, 'made-unplanned.txt'))).toBe(false);
  });
});
