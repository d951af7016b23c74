import { describe, expect, it } from 'vitest';
import {
  evaluateToolCall,
  type GatePolicy,
  parseRule,
  type Rule,
  type RuleEffect,
  type SafetyMode,
} from '../src/index.js';
import { sampleTool } from './fixtures.js';

const context = { cwd: '/tmp' };

function rule(effect: RuleEffect, text: string): Rule {
  const parsed = parseRule(text, effect);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rule;
}

const sources = ['/etc/riskgate/managed-policy.json'];

async function gate(args: unknown, policy: GatePolicy) {
  return (await evaluateToolCall(sampleTool, args, context, policy)).decision;
}

describe('a managed deny rule', () => {
  const managed = { rules: [rule('deny', 'sample_tool(wipe *)')], sources };
  it.each<[string, Partial<GatePolicy>, unknown]>([
    ['in smart mode', { mode: 'smart' }, { op: 'wipe a' }],
    ['against yolo', { mode: 'yolo' }, { op: 'wipe a' }],
    ['against the model rating it low', { mode: 'smart' }, { op: 'wipe a', risk_level: 'low' }],
    [
      'against a user allow rule for the tool',
      { mode: 'smart', rules: [rule('allow', 'sample_tool')] },
      { op: 'wipe a' },
    ],
    [
      'against a user allow rule for the very pattern',
      { mode: 'yolo', rules: [rule('allow', 'sample_tool(wipe *)')] },
      { op: 'wipe a' },
    ],
    ['in one subject of many', { mode: 'yolo' }, { op: 'read a; wipe b' }],
  ])('refuses %s, naming the organisation', async (_name, policy, args) => {
    const decision = await gate(args, { mode: 'smart', rules: [], ...policy, managed });
    expect(decision.action).toBe('deny');
    expect(decision.managed).toBe(true);
    expect(decision.why).toBe("your organisation's policy denies sample_tool(wipe *)");
  });

  it('comes before a user deny rule for the same call, so the organisation is named', async () => {
    const decision = await gate({ op: 'wipe a' }, { mode: 'smart', rules: [rule('deny', 'sample_tool')], managed });
    expect(decision.why).toMatch(/organisation/);
  });

  it('leaves other calls to the person', async () => {
    const decision = await gate({ op: 'read a' }, { mode: 'smart', rules: [], managed });
    expect(decision.action).toBe('execute');
    expect(decision.managed).toBeUndefined();
  });
});

describe('a managed ask rule', () => {
  const managed = { rules: [rule('ask', 'sample_tool(run *)')], sources };
  it.each<[string, Partial<GatePolicy>, unknown]>([
    ['against yolo', { mode: 'yolo' }, { op: 'run x' }],
    ['against a user allow rule', { mode: 'smart', rules: [rule('allow', 'sample_tool(run *)')] }, { op: 'run x' }],
    ['against the model rating it low', { mode: 'smart' }, { op: 'run x', risk_level: 'low' }],
  ])('asks %s, naming the organisation', async (_name, policy, args) => {
    const decision = await gate(args, { mode: 'smart', rules: [], ...policy, managed });
    expect(decision.action).toBe('confirm');
    expect(decision.why).toBe("your organisation's policy asks for sample_tool(run *)");
    expect(decision.managed).toBe(true);
  });

  it('does not beat a user deny rule', async () => {
    const decision = await gate({ op: 'run x' }, { mode: 'smart', rules: [rule('deny', 'sample_tool')], managed });
    expect(decision.action).toBe('deny');
  });
});

describe('the managed mode floor', () => {
  it.each<[SafetyMode, SafetyMode, unknown, string]>([
    // Each call is one the looser mode runs unasked.
    ['yolo', 'smart', { op: 'init' }, 'default'],
    ['yolo', 'guarded', { op: 'write a', risk_level: 'low' }, 'guard'],
    ['smart', 'guarded', { op: 'write a', risk_level: 'low' }, 'guard'],
    ['yolo', 'strict', { op: 'read a' }, 'mode'],
    ['guarded', 'strict', { op: 'read a' }, 'mode'],
    ['smart', 'strict', { op: 'read a' }, 'mode'],
  ])('a policy in mode %s under a floor of %s still asks about %j (by %s)', async (mode, floor, args, source) => {
    const decision = await gate(args, { mode, rules: [], managed: { rules: [], floor, sources } });
    expect(decision.action).toBe('confirm');
    expect(decision.source).toBe(source);
  });

  it('names the floor when it set the mode that asked', async () => {
    const decision = await gate(
      { op: 'write a', risk_level: 'low' },
      { mode: 'yolo', rules: [], managed: { rules: [], floor: 'guarded', sources } },
    );
    expect(decision.notes).toContain("your organisation's policy sets the mode to at least guarded");
    expect(decision.managed).toBe(true);
  });

  it('leaves a stricter mode of the person as it is', async () => {
    const decision = await gate(
      { op: 'read a' },
      { mode: 'strict', rules: [], managed: { rules: [], floor: 'smart', sources } },
    );
    expect(decision.source).toBe('mode');
    expect(decision.managed).toBeUndefined();
  });
});
