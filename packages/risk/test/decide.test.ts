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

function rules(...written: [RuleEffect, string][]): Rule[] {
  return written.map(([effect, text]) => {
    const parsed = parseRule(text, effect);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.rule;
  });
}

async function gate(args: unknown, policy: Partial<GatePolicy> = {}) {
  const evaluation = await evaluateToolCall(sampleTool, args, context, { mode: 'smart', rules: [], ...policy });
  return evaluation.decision;
}

describe('spec 003 scenarios (smart mode)', () => {
  it.each([
    // [scenario, arguments, action, source]
    [
      'LLM provides low risk level: executes without confirmation',
      { op: 'format disk', risk_level: 'low' },
      'execute',
      'llm',
    ],
    ['LLM provides high risk level: requires confirmation', { op: 'read a', risk_level: 'high' }, 'confirm', 'llm'],
    ['LLM provides medium risk level: requires confirmation', { op: 'read a', risk_level: 'medium' }, 'confirm', 'llm'],
    ['LLM does not provide risk level, operation in whitelist: executes', { op: 'read a' }, 'execute', 'whitelist'],
    ['LLM does not provide risk level, operation not in whitelist: confirms', { op: 'init' }, 'confirm', 'default'],
    [
      'LLM risk_level takes priority: low executes even off the whitelist',
      { op: 'reboot', risk_level: 'low' },
      'execute',
      'llm',
    ],
    [
      'LLM risk_level takes priority: high asks even on the whitelist',
      { op: 'read a', risk_level: 'high' },
      'confirm',
      'llm',
    ],
    ['Conservative default for unknown operations', { op: 'custom-script.sh' }, 'confirm', 'default'],
    [
      'LLM can handle unknown commands intelligently (init → high)',
      { op: 'init 0', risk_level: 'high' },
      'confirm',
      'llm',
    ],
    ['LLM sets high risk for uncertain operation (reboot)', { op: 'reboot', risk_level: 'high' }, 'confirm', 'llm'],
    ['a dangerous operation without risk_level is asked about', { op: 'wipe all' }, 'confirm', 'default'],
    ['whitelisted only when every part is: read; wipe', { op: 'read a; wipe b' }, 'confirm', 'default'],
  ] as const)('%s', async (_scenario, args, action, source) => {
    const decision = await gate(args);
    expect(decision.action).toBe(action);
    expect(decision.source).toBe(source);
  });

  it.each([
    ['maybe'],
    ['LOW'],
    [''],
    [3],
    [true],
    [['low']],
    [{ level: 'low' }],
  ])('treats risk_level %j as absent and says so', async (value) => {
    const unknown = await gate({ op: 'init', risk_level: value });
    expect(unknown.action).toBe('confirm');
    expect(unknown.source).toBe('default');
    expect(unknown.llmLevel).toBeNull();
    expect(unknown.reasons.join('\n')).toContain('treated as absent');

    const safe = await gate({ op: 'read a', risk_level: value });
    expect(safe.action).toBe('execute');
    expect(safe.source).toBe('whitelist');
  });

  it('treats risk_level null as absent', async () => {
    expect((await gate({ op: 'read a', risk_level: null })).source).toBe('whitelist');
  });

  it('reports the level the decision rests on', async () => {
    expect((await gate({ op: 'wipe', risk_level: 'low' })).level).toBe('low');
    expect((await gate({ op: 'wipe' })).level).toBe('high');
    expect((await gate({ op: 'read' })).level).toBe('low');
  });

  it('flags a low rating of what the code finds dangerous, and still runs it in smart mode', async () => {
    const decision = await gate({ op: 'wipe all', risk_level: 'low' });
    expect(decision.action).toBe('execute');
    expect(decision.disagreement).toBe(true);
    expect(decision.codeLevel).toBe('high');
    expect(decision.reasons.join('\n')).toMatch(/code found what this does/);
  });

  it('puts the decision first in its reasons, then what the assessor found', async () => {
    const decision = await gate({ op: 'wipe all' });
    expect(decision.reasons[0]).toMatch(/not on the whitelist/);
    expect(decision.reasons).toContain('deletes all and everything below it');
  });
});

describe('invalid arguments', () => {
  it.each([
    ['a missing field', {}],
    ['a wrong type', { op: 42 }],
    ['an empty string', { op: '' }],
    ['not an object', 'read a'],
    ['null', null],
    ['an array', [{ op: 'read' }]],
  ])('are never executed: %s', async (_case, args) => {
    const decision = await gate(args);
    expect(decision.action).toBe('deny');
    expect(decision.source).toBe('invalid');
    expect(decision.level).toBeNull();
    expect(decision.reasons[0]).toMatch(/^invalid arguments: /);
  });

  it('win over a low risk_level and over yolo', async () => {
    expect((await gate({ risk_level: 'low' })).action).toBe('deny');
    expect((await gate({ risk_level: 'low' }, { mode: 'yolo' })).source).toBe('invalid');
  });

  it('name the field that failed', async () => {
    expect((await gate({ op: 42 })).reasons[0]).toContain('op:');
  });
});

describe('modes', () => {
  const table: [SafetyMode, Record<string, unknown>, string, string][] = [
    ['strict', { op: 'read a' }, 'confirm', 'mode'],
    ['strict', { op: 'read a', risk_level: 'low' }, 'confirm', 'mode'],
    ['yolo', { op: 'wipe all' }, 'execute', 'mode'],
    ['yolo', { op: 'wipe all', risk_level: 'high' }, 'execute', 'mode'],
    ['guarded', { op: 'wipe all', risk_level: 'low' }, 'confirm', 'guard'],
    ['guarded', { op: 'wipe all' }, 'confirm', 'guard'],
    ['guarded', { op: 'init', risk_level: 'low' }, 'execute', 'llm'],
    ['guarded', { op: 'read a' }, 'execute', 'whitelist'],
    ['guarded', { op: 'init' }, 'confirm', 'default'],
    ['smart', { op: 'wipe all', risk_level: 'low' }, 'execute', 'llm'],
    // Guarded mode on effects: every known side effect or secret read is confirmed whatever the
    // model said, medium-level ones included; only unknown operations take the model's low.
    ['guarded', { op: 'write notes.txt', risk_level: 'low' }, 'confirm', 'guard'],
    ['guarded', { op: 'run python3', risk_level: 'low' }, 'confirm', 'guard'],
    ['guarded', { op: 'token', risk_level: 'low' }, 'confirm', 'guard'],
    ['guarded', { op: 'read a; write b', risk_level: 'low' }, 'confirm', 'guard'],
    ['guarded', { op: 'init; run make', risk_level: 'low' }, 'confirm', 'guard'],
    ['guarded', { op: 'fetch', risk_level: 'low' }, 'execute', 'llm'],
    ['guarded', { op: 'custom-script.sh', risk_level: 'low' }, 'execute', 'llm'],
    ['smart', { op: 'write notes.txt', risk_level: 'low' }, 'execute', 'llm'],
    ['smart', { op: 'token' }, 'confirm', 'default'],
  ];
  it.each(table)('%s mode: %j → %s by %s', async (mode, args, action, source) => {
    const decision = await gate(args, { mode });
    expect(decision.action).toBe(action);
    expect(decision.source).toBe(source);
  });
});

describe('rules', () => {
  it('deny wins over yolo, allow rules and a low rating', async () => {
    const policy = { mode: 'yolo' as const, rules: rules(['allow', 'sample_tool'], ['deny', 'sample_tool(wipe *)']) };
    const decision = await gate({ op: 'wipe all', risk_level: 'low' }, policy);
    expect(decision.action).toBe('deny');
    expect(decision.source).toBe('rule');
    expect(decision.rule).toBe('sample_tool(wipe *)');
  });

  it('deny matches when any part matches', async () => {
    const decision = await gate({ op: 'read a; wipe b' }, { rules: rules(['deny', 'sample_tool(wipe *)']) });
    expect(decision.action).toBe('deny');
  });

  it('allow runs an operation off the whitelist', async () => {
    const decision = await gate({ op: 'init system' }, { rules: rules(['allow', 'sample_tool(init *)']) });
    expect(decision).toMatchObject({ action: 'execute', source: 'rule', rule: 'sample_tool(init *)' });
  });

  it('allow needs every part to match: `init *` does not cover `init x; wipe y`', async () => {
    const decision = await gate({ op: 'init x; wipe y' }, { rules: rules(['allow', 'sample_tool(init *)']) });
    expect(decision.action).toBe('confirm');
    expect(decision.source).toBe('default');
  });

  it('ask wins over allow and over a low rating', async () => {
    const policy = { rules: rules(['allow', 'sample_tool'], ['ask', 'sample_tool(read secrets*)']) };
    const decision = await gate({ op: 'read secrets.txt', risk_level: 'low' }, policy);
    expect(decision).toMatchObject({ action: 'confirm', source: 'rule' });
  });

  it('strict mode ignores allow rules but not deny rules', async () => {
    expect((await gate({ op: 'init' }, { mode: 'strict', rules: rules(['allow', 'sample_tool']) })).action).toBe(
      'confirm',
    );
    expect((await gate({ op: 'init' }, { mode: 'strict', rules: rules(['deny', 'sample_tool']) })).action).toBe('deny');
  });

  it('allow rules come before the guarded floor', async () => {
    const decision = await gate(
      { op: 'wipe cache' },
      { mode: 'guarded', rules: rules(['allow', 'sample_tool(wipe cache)']) },
    );
    expect(decision).toMatchObject({ action: 'execute', source: 'rule' });
  });

  it('do not apply to another tool', async () => {
    const decision = await gate({ op: 'init' }, { rules: rules(['allow', 'other_tool']) });
    expect(decision.source).toBe('default');
  });
});

describe('guarded mode after untrusted content', () => {
  async function gateInTurn(args: unknown, mode: SafetyMode, untrusted?: string) {
    const turn = untrusted === undefined ? {} : { untrusted };
    return (await evaluateToolCall(sampleTool, args, context, { mode, rules: [] }, turn)).decision;
  }

  it("stops taking the model's low for the rest of the turn, and says why", async () => {
    const decision = await gateInTurn({ op: 'init', risk_level: 'low' }, 'guarded', 'content from example.com');
    expect(decision.action).toBe('confirm');
    expect(decision.source).toBe('guard');
    expect(decision.reasons.join('\n')).toContain('content from example.com');
  });

  it('still runs whitelisted reads unasked', async () => {
    const decision = await gateInTurn({ op: 'read a', risk_level: 'low' }, 'guarded', 'content from example.com');
    expect(decision.action).toBe('execute');
    expect(decision.source).toBe('whitelist');
  });

  it('still asks when the model says high', async () => {
    expect((await gateInTurn({ op: 'read a', risk_level: 'high' }, 'guarded', 'x')).action).toBe('confirm');
  });

  it('changes nothing in smart mode (the specification: the model decides)', async () => {
    const decision = await gateInTurn({ op: 'init', risk_level: 'low' }, 'smart', 'content from example.com');
    expect(decision.action).toBe('execute');
    expect(decision.source).toBe('llm');
  });

  it('marks a call that reads from the network as bringing untrusted content', async () => {
    const evaluation = await evaluateToolCall(sampleTool, { op: 'fetch' }, context, { mode: 'guarded', rules: [] });
    expect(evaluation.valid && evaluation.assessment.untrusted).toContain('93.184.215.14');
    const local = await evaluateToolCall(sampleTool, { op: 'read a' }, context, { mode: 'guarded', rules: [] });
    expect(local.valid && local.assessment.untrusted).toBeUndefined();
  });
});
