import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyTool, defineTool, type Rule, report } from '@riskgate/risk';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuditLog, type GateContext, runGatedToolCall } from '../src/index.js';

// Faults inside the gate itself (issue 19): a describe that throws, a rule that cannot be read,
// a confirmation panel that throws, a tool that throws half-way. Each is a clear tool error for
// the model and a truthful audit line; none crashes the session, none reads as "the person said no".

const root = mkdtempSync(join(tmpdir(), 'riskgate-gate-faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let cases = 0;
function setUp(tool: AnyTool, extra: Partial<GateContext> = {}) {
  const path = join(root, `audit-${cases++}.jsonl`);
  const gate: GateContext = {
    tools: [tool],
    policy: { mode: 'smart', rules: [] },
    assess: { cwd: root },
    audit: new AuditLog(path),
    ...extra,
  };
  const audit = () =>
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { gate, audit };
}

/** A write tool: always asked about; it records what it did. */
function writeTool(options: { describe?: () => never; execute?: (done: string[]) => Promise<never> } = {}) {
  const done: string[] = [];
  const tool = defineTool({
    name: 'write_note',
    description: 'writes a note',
    noun: 'operation',
    title: ({ text }) => `write ${text}`,
    parameters: z.object({ text: z.string() }),
    ruleStyle: 'text',
    assess: () => report([{ kind: 'write-path', path: '/tmp/note', detail: 'writes /tmp/note' }] as never, []),
    describe:
      options.describe ?? ((args: { text: string }) => ({ kind: 'generic', summary: args.text, details: [] }) as never),
    execute: async (args: { text: string }) => {
      if (options.execute !== undefined) return options.execute(done);
      done.push(args.text);
      return { type: 'tool-success', forModel: 'written', data: undefined } as const;
    },
  });
  return { tool, done };
}

describe('faults inside the gate', () => {
  it('answers a describe that throws with a clear tool error, runs nothing, and audits it', async () => {
    const { tool, done } = writeTool({
      describe: () => {
        throw new Error('EACCES: permission denied, open /srv/x');
      },
    });
    const { gate, audit } = setUp(tool, { confirm: async () => ({ type: 'approve' }) });
    const outcome = await runGatedToolCall({ id: 'c1', name: 'write_note', arguments: { text: 'hi' } }, gate);
    expect(outcome.state).toBe('failed');
    expect(outcome.forModel).toMatch(
      /^error \(gate-error\): riskgate failed before running this call \(EACCES.*nothing was run/,
    );
    expect(done).toEqual([]);
    expect(audit()).toEqual([
      expect.objectContaining({ toolCallId: 'c1', outcome: 'failed', errorCode: 'gate-error' }),
    ]);
  });

  it('answers a rule that cannot be read with a clear tool error, not a crash', async () => {
    const { tool, done } = writeTool();
    const broken = {
      effect: 'deny',
      tool: 'write_note',
      text: 'write_note(*)',
      get pattern(): string {
        throw new Error('the rules file could not be read');
      },
    } as unknown as Rule;
    const { gate, audit } = setUp(tool, {
      policy: { mode: 'smart', rules: [broken] },
      confirm: async () => ({ type: 'approve' }),
    });
    const outcome = await runGatedToolCall({ id: 'c2', name: 'write_note', arguments: { text: 'hi' } }, gate);
    expect(outcome.state).toBe('failed');
    expect(outcome.forModel).toContain('the rules file could not be read');
    expect(outcome.forModel).toContain('nothing was run');
    expect(done).toEqual([]);
    expect(audit()).toEqual([
      expect.objectContaining({ toolCallId: 'c2', outcome: 'failed', errorCode: 'gate-error' }),
    ]);
  });

  it('a confirmation panel that throws is "could not ask", never "the person declined"', async () => {
    const { tool, done } = writeTool();
    const { gate, audit } = setUp(tool, {
      confirm: async () => {
        throw new Error('Raw mode is not supported on the current process.stdin');
      },
    });
    const outcome = await runGatedToolCall({ id: 'c3', name: 'write_note', arguments: { text: 'hi' } }, gate);
    expect(outcome.state).toBe('failed');
    expect(outcome.forModel).toMatch(/^error \(confirmation-failed\): not run: riskgate could not ask the person/);
    expect(outcome.forModel).not.toMatch(/declined/);
    expect(done).toEqual([]);
    expect(audit()).toEqual([
      expect.objectContaining({ toolCallId: 'c3', outcome: 'failed', errorCode: 'confirmation-failed' }),
    ]);
  });

  it('a tool that throws after it started may have partly run: the model is told so and the audit says unknown', async () => {
    const { tool, done } = writeTool({
      execute: async (written) => {
        written.push('first half');
        throw new Error('socket hang up');
      },
    });
    const { gate, audit } = setUp(tool, { confirm: async () => ({ type: 'approve' }) });
    const outcome = await runGatedToolCall({ id: 'c4', name: 'write_note', arguments: { text: 'hi' } }, gate);
    expect(done).toEqual(['first half']);
    expect(outcome.state).toBe('failed');
    expect(outcome.forModel).toMatch(/tool-crashed.*socket hang up.*may have partly run/);
    expect(audit().map((line) => line.outcome)).toEqual(['started', 'unknown']);
  });

  it('an event handler that throws while the call runs still leaves the truth in the audit log', async () => {
    const { tool, done } = writeTool();
    const { gate, audit } = setUp(tool, {
      confirm: async () => ({ type: 'approve' }),
      onEvent: (event) => {
        if (event.type === 'tool-result') throw new Error('the screen went away');
      },
    });
    const outcome = await runGatedToolCall({ id: 'c5', name: 'write_note', arguments: { text: 'hi' } }, gate);
    expect(done).toEqual(['hi']);
    expect(outcome.forModel).toContain('may have partly or wholly run');
    expect(audit().map((line) => line.outcome)).toEqual(['started', 'succeeded']);
  });
});
