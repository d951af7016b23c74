import type { AgentEvent } from '@riskgate/core';
import { describe, expect, it } from 'vitest';
import { conversationReducer, INITIAL_CONVERSATION } from '../src/ui/conversation.js';
import { layoutTable } from '../src/ui/table-layout.js';
import { narrowestRule } from '../src/operation-text.js';

const apply = (events: AgentEvent[]) =>
  events.reduce(
    (state, event, index) => conversationReducer(state, { type: 'event', event, now: index }),
    conversationReducer(INITIAL_CONVERSATION, { type: 'user', text: 'hi' }),
  );

describe('conversationReducer', () => {
  it('streams text into one assistant item and moves the finished turn into done', () => {
    const state = apply([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'turn-end', reason: 'answered', text: 'Hello' },
    ]);
    expect(state.live).toEqual([]);
    expect(state.busy).toBe(false);
    expect(state.done.map((item) => item.kind)).toEqual(['user', 'assistant']);
    expect(state.done[1]).toMatchObject({ text: 'Hello', question: false });
  });

  it('keeps reasoning apart from the answer, open while it comes and folded once the answer starts', () => {
    const thinking = apply([
      { type: 'reasoning-delta', text: 'Count the ' },
      { type: 'reasoning-delta', text: "r's.\u001B[2J" },
    ]);
    expect(thinking.live.at(-1)).toEqual({ kind: 'reasoning', id: 2, text: "Count the r's.\\e[2J", done: false });
    const answered = apply([
      { type: 'reasoning-delta', text: 'Count.' },
      { type: 'text-delta', text: 'Three.' },
      { type: 'reasoning-delta', text: 'Again.' },
      { type: 'turn-end', reason: 'answered', text: 'Three.' },
    ]);
    expect(answered.done.map((item) => [item.kind, 'done' in item ? item.done : undefined])).toEqual([
      ['user', undefined],
      ['reasoning', true],
      ['assistant', undefined],
      ['reasoning', true],
    ]);
  });

  it("shows a refusal in the model's words", () => {
    const state = apply([
      { type: 'refusal', text: "I can't help with that." },
      { type: 'turn-end', reason: 'refusal', text: "I can't help with that." },
    ]);
    expect(state.done.at(-1)).toMatchObject({
      kind: 'notice',
      tone: 'warning',
      text: "The model refused: I can't help with that.",
    });
  });

  it('shows a reply that ends in a question as a question', () => {
    const state = apply([
      { type: 'text-delta', text: 'This may be risky. Should I proceed?' },
      { type: 'turn-end', reason: 'answered', text: '' },
    ]);
    expect(state.done[1]).toMatchObject({ kind: 'assistant', question: true });
  });

  it('follows a tool call through its states, keeping live output', () => {
    const state = apply([
      {
        type: 'tool-call',
        toolCallId: 't1',
        title: 'the call',
        toolName: 'execute_command',
        argumentsText: '{"command":"ls"}',
      },
      { type: 'tool-state', toolCallId: 't1', state: 'executing' },
      { type: 'tool-output', toolCallId: 't1', chunk: 'a\n' },
      { type: 'tool-output', toolCallId: 't1', chunk: 'b\n' },
    ]);
    expect(state.live[1]).toMatchObject({ kind: 'tool', state: 'executing', output: 'a\nb\n', startedAt: 1 });
    const done = conversationReducer(state, {
      type: 'event',
      event: {
        type: 'tool-result',
        toolCallId: 't1',
        toolName: 'execute_command',
        state: 'succeeded',
        forModel: 'a\nb',
        durationMs: 5,
      },
      now: 9,
    });
    expect(done.live[1]).toMatchObject({ state: 'succeeded', result: { forModel: 'a\nb' } });
  });

  it('notes a cancelled turn and errors', () => {
    const state = apply([
      { type: 'error', kind: 'x', message: 'boom' },
      { type: 'turn-end', reason: 'cancelled', text: '' },
    ]);
    expect(state.done.map((item) => (item.kind === 'notice' ? item.text : item.kind))).toEqual([
      'user',
      'boom',
      'cancelled',
    ]);
  });
});

describe('layoutTable', () => {
  it('fits the width, cuts long cells and says how much is shown', () => {
    const rows = Array.from({ length: 120 }, (_, index) => [
      index,
      `a very long description number ${index} that does not fit`,
    ]);
    const table = layoutTable(['id', 'description'], rows, { width: 30, maxRows: 50, truncated: false });
    expect(table.rows).toHaveLength(50);
    for (const line of [table.header, ...table.rows]) expect([...line].length).toBeLessThanOrEqual(30);
    expect(table.rows[0]).toMatch(/…$/);
    expect(table.footer).toBe('showing 50 of 120 rows');
    expect(layoutTable(['n'], [[1]], { width: 30, maxRows: 50, truncated: false }).footer).toBe('1 row');
    expect(layoutTable(['n'], [[1], [2]], { width: 30, maxRows: 50, truncated: true }).footer).toBe(
      'showing 2 of more than 2 rows',
    );
  });
});

describe('narrowestRule', () => {
  it.each([
    ['execute_command', 'text', ['git log --oneline'], 'execute_command(git log --oneline)'],
    ['execute_sql', 'sql', ['SELECT * FROM t'], 'execute_sql(SELECT \\* FROM t)'],
    ['file_operations', 'path', ['write src/a.ts'], 'file_operations(write src/a.ts)'],
    ['http_request', 'url', ['POST https://api.example.com/v1/x'], 'http_request(POST https://api.example.com/v1/x)'],
    ['execute_command', 'text', ['ls', 'rm x'], undefined],
  ] as const)('%s %j → %s', (tool, style, subjects, rule) => {
    expect(narrowestRule(tool, style, subjects)).toBe(rule);
  });
});

describe('a long session keeps the screen state flat', () => {
  it('after 300 turns with a tool call each, the state holds the last turn and 50 tool calls for /view', () => {
    let state = INITIAL_CONVERSATION;
    for (let turn = 0; turn < 300; turn++) {
      state = conversationReducer(state, { type: 'user', text: `question ${turn}` });
      const events: AgentEvent[] = [
        {
          type: 'tool-call',
          toolCallId: `t${turn}`,
          toolName: 'execute_sql',
          argumentsText: '{"sql":"SELECT 1"}',
          title: 'SELECT 1',
        },
        {
          type: 'tool-result',
          toolCallId: `t${turn}`,
          toolName: 'execute_sql',
          state: 'succeeded',
          forModel: 'x'.repeat(1_000),
          durationMs: 1,
        },
        { type: 'text-delta', text: `answer ${turn}` },
        { type: 'turn-end', reason: 'answered', text: '' },
      ];
      for (const event of events) state = conversationReducer(state, { type: 'event', event, now: turn });
    }
    expect(state.done.map((item) => item.kind)).toEqual(['user', 'tool', 'assistant']);
    expect(state.archive).toHaveLength(50);
    expect(state.archive.at(-1)).toMatchObject({ toolCallId: 't298' });
    expect(JSON.stringify(state).length).toBeLessThan(100_000);
  });

  it('a resize prints the kept transcript again, in order, under a new <Static>; /view keeps one copy of each call', () => {
    let state = INITIAL_CONVERSATION;
    for (let turn = 0; turn < 3; turn++) {
      state = conversationReducer(state, { type: 'user', text: `question ${turn}` });
      for (const event of [
        { type: 'tool-call', toolCallId: `t${turn}`, toolName: 'execute_sql', argumentsText: '{}', title: 'SELECT 1' },
        { type: 'text-delta', text: `answer ${turn}` },
        { type: 'turn-end', reason: 'answered', text: '' },
      ] as AgentEvent[])
        state = conversationReducer(state, { type: 'event', event, now: turn });
    }
    const before = state.generation;
    state = conversationReducer(state, { type: 'redraw' });
    expect(state.generation).toBe(before + 1);
    expect(
      state.done.map((item) => (item.kind === 'user' || item.kind === 'assistant' ? item.text : item.kind)),
    ).toEqual(['question 0', 'tool', 'answer 0', 'question 1', 'tool', 'answer 1', 'question 2', 'tool', 'answer 2']);
    state = conversationReducer(state, { type: 'user', text: 'next' });
    expect(state.archive.map((item) => item.toolCallId)).toEqual(['t0', 't1', 't2']);
  });

  it('a new turn starts a new <Static> that prints only what was not printed', () => {
    let state = conversationReducer(INITIAL_CONVERSATION, { type: 'notice', tone: 'info', text: 'printed once' });
    const before = state.generation;
    state = conversationReducer(state, { type: 'user', text: 'next' });
    expect(state.generation).toBe(before + 1);
    expect(state.done).toEqual([]);
  });
});
