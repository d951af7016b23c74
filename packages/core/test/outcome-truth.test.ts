import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, type ToolResult, toolFailure } from '@riskgate/risk';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuditLog, runGatedToolCall } from '../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'riskgate-outcome-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A tool that is cancelled while it runs and then reports `result`: what the gate records must follow what happened. */
const cancelledTool = (result: ToolResult<unknown>) =>
  defineTool({
    name: 'write_thing',
    description: 'writes',
    noun: 'operation',
    title: () => 'commit',
    parameters: z.object({}),
    ruleStyle: 'text',
    assess: () => ({ effects: [], subjects: [] }),
    describe: () => ({ kind: 'generic', summary: 'write', details: [] }),
    execute: async (_args, context) => {
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      return result;
    },
  });

describe('what the gate records for a call cancelled while it ran', () => {
  it.each([
    [
      'a write the cancel came too late for (completed)',
      { type: 'tool-success', forModel: 'committed', data: null, completed: true } as const,
      'succeeded',
      'succeeded',
    ],
    [
      'a write whose outcome is unknown',
      toolFailure('sql-outcome-unknown', 'it may have committed', { outcomeUnknown: true }),
      'failed',
      'unknown',
    ],
    [
      'a command stopped halfway (its output is a success)',
      { type: 'tool-success', forModel: 'stopped: cancelled', data: null } as const,
      'cancelled',
      'cancelled',
    ],
    [
      'a statement the server cancelled',
      toolFailure('sql-cancelled', 'cancelled; nothing was changed'),
      'cancelled',
      'cancelled',
    ],
  ])('%s', async (name, result, state, audited) => {
    const path = join(directory, `${name.replace(/\W+/g, '-')}.jsonl`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await runGatedToolCall(
      { id: 'call-1', name: 'write_thing', arguments: '{"risk_level":"low"}' },
      {
        tools: [cancelledTool(result)],
        policy: { mode: 'yolo', rules: [] },
        assess: { cwd: directory },
        signal: controller.signal,
        audit: new AuditLog(path),
      },
    );
    expect(outcome.state).toBe(state);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.outcome)).toEqual(['started', audited]);
  });
});

describe('a call stopped part-way', () => {
  it('is audited with partial: true, so the record says some of it ran', async () => {
    const path = join(directory, 'partial.jsonl');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const stopped = {
      type: 'tool-success',
      forModel: 'step 1\n[stopped: cancelled]\npartial: the command was stopped part-way',
      data: null,
      partial: true,
    } as const;
    const outcome = await runGatedToolCall(
      { id: 'call-1', name: 'write_thing', arguments: '{"risk_level":"low"}' },
      {
        tools: [cancelledTool(stopped)],
        policy: { mode: 'yolo', rules: [] },
        assess: { cwd: directory },
        signal: controller.signal,
        audit: new AuditLog(path),
      },
    );
    expect(outcome.forModel).toContain('partial: the command was stopped part-way');
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.outcome, line.partial])).toEqual([
      ['started', undefined],
      ['cancelled', true],
    ]);
  });
});
