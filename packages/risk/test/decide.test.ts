import { describe, expect, it } from 'vitest';
import { evaluateToolCall, type GatePolicy, parseRule, type Rule, type RuleEffect, type SafetyMode } from '../src/index.js';
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
    ['LLM provides low risk level: executes without confirmation', { op: 'format disk', risk_level: 'low' }, 'execute', 'llm'],
    ['LLM provides high risk level: requires confirmation', { op: 'read a', risk_level: 'high' }, 'confirm', 'llm'],
    ['LLM provides medium risk level: requires confirmation', { op: 'read a', risk_level: 'medium' }, 'confirm', 'llm'],
    ['LLM does not provide risk level, operation in whitelist: executes', { op: 'read a' }, 'execute', 'whitelist'],
    ['LLM does not provide risk level, operation not in whitelist: confirms', { op: 'init' }, 'confirm', 'default'],
    ['LLM risk_level takes priority: low executes even off the whitelist', { op: 'reboot', risk_level: 'low' }, 'execute', 'llm'],
    ['LLM risk_level takes priority: high asks even on the whitelist', { op: 'read a', risk_level: 'high' }, 'confirm', 'llm'],
    ['Conservative default for unknown operations', { op: 'custom-script.sh' }, 'confirm', 'default'],
    ['LLM can handle unknown commands intelligently (init → high)', { op: 'init 0', risk_level: 'high' }, 'confirm', 'llm'],
    ['LLM sets high risk for uncertain operation (reboot)', { op: 'reboot', risk_level: 'high' }, 'confirm', 'llm'],
    ['a dangerous operation without risk_level is asked about', { op: 'wipe all' }, 'confirm', 'default'],
    ['whitelisted only when every part is: read; wipe', { op: 'read a; wipe b' }, 'confirm', 'default'],
  ] as const)('%s', async (_scenario, args, action, source) => {
    const decision = await gate(args);
    expect(decision.action).toBe(action);
    expect(decision.source).toBe(source);
  });

  it.each([['maybe'], ['LOW'], [''], [3], [true], [['low']], [{ level: 'low' }]])(
    'treats risk_level %j as absent and says so',
    async (value) => {
      const unknown = await gate({ op: 'init', risk_level: value });
      expect(unknown.action).toBe('confirm');
      expect(unknown.source).toBe('default');
      expect(unknown.llmLevel).toBeNull();
      expect(unknown.reasons.join('\n')).toContain('treated as absent');

      const safe = await gate({ op: 'read a', risk_level: value });
      expect(safe.action).toBe('execute');
      expect(safe.source).toBe('whitelist');
    },
  );

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
    expect(decision.reasons.join('\n')).toMatch(/code found this dangerous/);
  });

  it('puts the decision first in its reasons, then what the assessor found', async () => {
    const decision = await gate({ op: 'wipe all' });
    expect(decision.reasons[0]).toMatch(/not on the whitelist/);
    expect(decision.reasons).toContain('wipe destroys data');
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
    expect((await gate({ op: 'init' }, { mode: 'strict', rules: rules(['allow', 'sample_tool']) })).action).toBe('confirm');
    expect((await gate({ op: 'init' }, { mode: 'strict', rules: rules(['deny', 'sample_tool']) })).action).toBe('deny');
  });

  it('allow rules come before the guarded floor', async () => {
    const decision = await gate({ op: 'wipe cache' }, { mode: 'guarded', rules: rules(['allow', 'sample_tool(wipe cache)']) });
    expect(decision).toMatchObject({ action: 'execute', source: 'rule' });
  });

  it('do not apply to another tool', async () => {
    const decision = await gate({ op: 'init' }, { rules: rules(['allow', 'other_tool']) });
    expect(decision.source).toBe('default');
  });
});
