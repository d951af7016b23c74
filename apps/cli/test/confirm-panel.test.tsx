import type { ApprovalAnswer, ApprovalRequest } from '@riskgate/core';
import type { Decision, OperationDescription } from '@riskgate/risk';
import { evaluateToolCall, parseRule } from '@riskgate/risk';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmPanel } from '../src/ui/ConfirmPanel.js';

const decision: Decision = {
  action: 'confirm',
  source: 'default',
  level: 'high',
  llmLevel: null,
  codeLevel: 'high',
  whitelisted: false,
  why: 'not on the whitelist, and the model gave no risk_level',
  findings: ['DELETE without WHERE removes every row of orders'],
  notes: [],
  reasons: [
    'not on the whitelist, and the model gave no risk_level',
    'DELETE without WHERE removes every row of orders',
  ],
  effects: [{ text: 'deletes every row of orders', verdict: 'side-effect', level: 'high' }],
  disagreement: false,
};

function request(
  toolName: string,
  description: OperationDescription,
  args: Record<string, unknown>,
  extra: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  const question = {
    execute_sql: 'query',
    execute_command: 'command',
    file_operations: 'file operation',
    http_request: 'request',
  }[toolName];
  return {
    toolCallId: 'call_1',
    toolName,
    title: JSON.stringify(args),
    question: `Execute this ${question ?? 'operation'}? [y/N]`,
    ...(toolName === 'execute_sql'
      ? { editable: 'sql' }
      : toolName === 'execute_command'
        ? { editable: 'command' }
        : {}),
    args,
    description,
    decision,
    subjects: [],
    ruleStyle: 'text',
    ...extra,
  };
}

const sqlRequest = request(
  'execute_sql',
  { kind: 'sql', sql: 'DELETE FROM orders', details: ['would delete 1,204 rows of orders'] },
  { sql: 'DELETE FROM orders' },
);
const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until the screen shows `text` (keys typed under load are drawn later than a fixed tick). */
async function shows(lastFrame: () => string | undefined, text: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(lastFrame() ?? '').includes(text)) {
    if (Date.now() > deadline) throw new Error(`the screen never showed ${JSON.stringify(text)}:\n${lastFrame()}`);
    await tick(10);
  }
}
let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function show(panelRequest: ApprovalRequest, props: { suggestedRule?: string; guardMs?: number } = {}) {
  const answers: ApprovalAnswer[] = [];
  const rendered = render(
    <ConfirmPanel
      request={panelRequest}
      onAnswer={(answer) => answers.push(answer)}
      guardMs={props.guardMs ?? 0}
      {...(props.suggestedRule === undefined ? {} : { suggestedRule: props.suggestedRule })}
    />,
  );
  cleanup = rendered.unmount;
  return { ...rendered, answers };
}

describe('ConfirmPanel: the specification’s words, one panel per tool kind', () => {
  it.each([
    ['execute_sql', { kind: 'sql', sql: 'DROP TABLE orders', details: [] }, 'Execute this query? [y/N]'],
    [
      'execute_command',
      { kind: 'command', command: 'rm -rf build', cwd: '/work', details: [] },
      'Execute this command? [y/N]',
    ],
    [
      'file_operations',
      { kind: 'file', operation: 'write', path: 'a.txt', diff: 'new file, 1 line\n+hello', details: [] },
      'Execute this file operation? [y/N]',
    ],
    [
      'http_request',
      {
        kind: 'http',
        requestLine: 'POST https://api.example.com/x',
        headers: ['Authorization: Bearer *** (20 characters, hidden)'],
        bodyPreview: '{"a":1}',
        details: [],
      },
      'Execute this request? [y/N]',
    ],
  ] as const)('%s asks "%s"', async (toolName, description, question) => {
    const { lastFrame } = show(request(toolName, description as OperationDescription, {}));
    await tick();
    const frame = lastFrame() ?? '';
    expect(frame).toContain(question.replace(/\n/g, ''));
    expect(frame).toContain('high');
    expect(frame).toContain('asked because: not on the whitelist, and the model gave no risk_level');
    expect(frame).toContain('DELETE without WHERE removes every row of orders');
  });

  it('shows the operation, the level, who decided, the reasons and the preview', async () => {
    const { lastFrame } = show(sqlRequest);
    await tick();
    expect(lastFrame()).toMatch(
      /DELETE FROM orders[\s\S]*would delete 1,204 rows of orders[\s\S]*high · asked because/,
    );
  });

  it('says when the model decided', async () => {
    const { lastFrame } = show({
      ...sqlRequest,
      decision: { ...decision, source: 'llm', llmLevel: 'medium', level: 'medium', why: 'the model rated this medium' },
    });
    await tick();
    expect(lastFrame()).toContain('asked because: the model rated this medium');
  });

  it("names the organisation's policy when it is why the call is asked", async () => {
    // The decision the gate really makes under a managed ask rule, in yolo with a user allow rule.
    const parsed = parseRule('execute_command(git push *)', 'ask');
    const allow = parseRule('execute_command', 'allow');
    if (!parsed.ok || !allow.ok) throw new Error('rule');
    const { decision: managed } = await evaluateToolCall(
      createExecuteCommandTool(),
      { command: 'git push --force origin main', risk_level: 'low' },
      { cwd: process.cwd() },
      {
        mode: 'yolo',
        rules: [allow.rule],
        managed: { rules: [parsed.rule], sources: ['/etc/riskgate/managed-policy.json'] },
      },
    );
    const { lastFrame } = show(
      request(
        'execute_command',
        { kind: 'command', command: 'git push --force origin main', cwd: '.', details: [] },
        {},
        { decision: managed },
      ),
    );
    await tick();
    expect(lastFrame()).toContain("asked because: your organisation's policy asks for execute_command(git push *)");
  });

  it('shows a file write as a diff and an HTTP request with hidden credentials', async () => {
    const file = show(
      request(
        'file_operations',
        { kind: 'file', operation: 'write', path: 'a.txt', diff: '--- a.txt\n+++ a.txt\n-old\n+new', details: [] },
        {},
      ),
    );
    await tick();
    expect(file.lastFrame()).toMatch(/write a\.txt[\s\S]*-old[\s\S]*\+new/);
    file.unmount();
    const http = show(
      request(
        'http_request',
        {
          kind: 'http',
          requestLine: 'POST https://x/y',
          headers: ['Authorization: Bearer *** (9 characters, hidden)'],
          bodyPreview: 'payload',
          details: [],
        },
        {},
      ),
    );
    await tick();
    expect(http.lastFrame()).toMatch(/POST https:\/\/x\/y[\s\S]*Bearer \*\*\* \(9 characters, hidden\)[\s\S]*payload/);
  });
});

describe('ConfirmPanel keys', () => {
  it.each([
    ['y', { type: 'approve' }],
    ['Y', { type: 'approve' }],
    ['n', { type: 'deny' }],
    ['\r', { type: 'deny' }],
    ['\u001B', { type: 'deny' }],
  ])('%j answers %j', async (key, expected) => {
    const { stdin, answers } = show(sqlRequest);
    await tick();
    stdin.write(key);
    await tick(key === '\u001B' ? 80 : 30);
    expect(answers).toEqual([expected]);
  });

  it('ignores keys it does not know', async () => {
    const { stdin, answers } = show(sqlRequest);
    await tick();
    stdin.write('x');
    stdin.write('q');
    await tick();
    expect(answers).toEqual([]);
  });

  it('a: always allow offers the narrowest rule and says which', async () => {
    const { stdin, answers, lastFrame } = show(sqlRequest, { suggestedRule: 'execute_sql(DELETE FROM orders)' });
    await tick();
    expect(lastFrame()).toContain('a always allow execute_sql(DELETE FROM orders)');
    stdin.write('a');
    await tick();
    expect(answers).toEqual([{ type: 'always', rule: 'execute_sql(DELETE FROM orders)' }]);
  });

  it('the always-allow hint shows a rule’s escape sequences as codes, and the rule saved is the one asked about', async () => {
    const rule = 'execute_command(\u001B]2;t\u0007\u001B[2J)';
    const { stdin, answers, lastFrame } = show(sqlRequest, { suggestedRule: rule });
    await tick();
    expect(lastFrame()).toContain('a always allow execute_command(\\e]2;t^G\\e[2J)');
    expect(lastFrame()).not.toMatch(/\u001B\]|\u001B\[2J|\u0007/);
    stdin.write('a');
    await tick();
    expect(answers).toEqual([{ type: 'always', rule }]);
  });

  it('a does nothing when no narrow rule exists', async () => {
    const { stdin, answers, lastFrame } = show(sqlRequest);
    await tick();
    expect(lastFrame()).not.toContain('always allow');
    stdin.write('a');
    await tick();
    expect(answers).toEqual([]);
  });

  it('e: edit the operation, then Enter runs the edited one', async () => {
    const { stdin, answers, lastFrame } = show(sqlRequest);
    await tick();
    stdin.write('e');
    await shows(lastFrame, 'Edit, then Enter to run it');
    // The field listens from its effect, which runs after the frame is drawn.
    await tick(50);
    stdin.write(' WHERE id = 1');
    await shows(lastFrame, 'WHERE id = 1');
    stdin.write('\r');
    await vi.waitFor(() =>
      expect(answers).toEqual([{ type: 'edit', args: { sql: 'DELETE FROM orders WHERE id = 1' } }]),
    );
  });

  it('e then Esc goes back to the question', async () => {
    const { stdin, answers, lastFrame } = show(sqlRequest);
    await tick();
    stdin.write('e');
    await shows(lastFrame, 'Edit, then Enter to run it');
    await tick(50);
    stdin.write('\u001B');
    await shows(lastFrame, 'Execute this query? [y/N]');
    expect(answers).toEqual([]);
  });

  it('m: a "no" with a note for the model', async () => {
    const { stdin, answers, lastFrame } = show(sqlRequest);
    await tick();
    stdin.write('m');
    // The note field takes keys once React's effects have given it Ink's input (after its frame).
    await shows(lastFrame, 'a note for the model');
    await tick(100);
    stdin.write('only the old ones');
    await shows(lastFrame, 'only the old ones');
    stdin.write('\r');
    await vi.waitFor(() => expect(answers).toEqual([{ type: 'deny', note: 'only the old ones' }]));
  });

  it('type-ahead protection: keys within the guard after the panel appears never answer it', async () => {
    const { stdin, answers } = show(sqlRequest, { guardMs: 300 });
    await tick(20);
    stdin.write('y');
    stdin.write('\r');
    await tick(50);
    expect(answers).toEqual([]);
    await tick(700);
    stdin.write('n');
    await tick();
    expect(answers).toEqual([{ type: 'deny' }]);
  });
});
