import { readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  estimateTokens,
  type Message,
  readTranscript,
  TRIMMED_RESULT,
  TranscriptWriter,
  trimToBudget,
} from '../src/index.js';
import { TRIMMED_PREFIX } from '../src/context-budget.js';
import { createHarness, type Harness } from './helpers.js';

const big = (label: string, characters: number) => `${label}:${'x'.repeat(characters)}`;
const call = (id: string): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'execute_sql', arguments: '{"sql":"SELECT 1"}' } }],
});
const result = (id: string, content: string): Message => ({ role: 'tool', tool_call_id: id, content });

describe('trimToBudget', () => {
  it('recognises a trimmed result by the prefix every replacement starts with', () => {
    for (const characters of [0, 7, 20_009, 1_234_567])
      expect(TRIMMED_RESULT(characters).startsWith(TRIMMED_PREFIX)).toBe(true);
    expect(TRIMMED_PREFIX.length).toBe(25);
  });

  it('replaces old tool results, oldest first, until the conversation fits; what people said stays', () => {
    const messages: Message[] = [
      { role: 'user', content: big('question one', 4_000) },
      call('a'),
      result('a', big('result a', 20_000)),
      { role: 'assistant', content: 'answer one' },
      { role: 'user', content: 'question two' },
      call('b'),
      result('b', big('result b', 20_000)),
      { role: 'assistant', content: 'answer two' },
      { role: 'user', content: 'question three' },
      call('c'),
      result('c', big('result c', 20_000)),
    ];
    const trimmed = trimToBudget(messages, { budget: 16_000, systemPrompt: 'system', keepFrom: 8 });
    expect(trimmed.results).toBe(1);
    expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'a', content: TRIMMED_RESULT(20_009) });
    expect(String(messages[6]!.content)).toMatch(/^result b:/);
    // The turn in progress is never trimmed, even when the budget cannot be met without it.
    expect(String(messages[10]!.content)).toMatch(/^result c:/);
    expect(String(messages[0]!.content)).toMatch(/^question one:/);
    expect(estimateTokens(messages, 'system')).toBeLessThan(16_000 * 0.8);
    // A tighter budget trims the next one too, still never the turn in progress.
    expect(trimToBudget(messages, { budget: 5_000, systemPrompt: 'system', keepFrom: 8 }).results).toBe(1);
    expect(String(messages[10]!.content)).toMatch(/^result c:/);
  });

  it('does nothing under the budget', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      call('a'),
      result('a', 'small'),
      { role: 'assistant', content: 'ok' },
    ];
    const copy = structuredClone(messages);
    expect(trimToBudget(messages, { budget: 100_000, systemPrompt: '', keepFrom: 4 })).toEqual({
      results: 0,
      tokensSaved: 0,
    });
    expect(messages).toEqual(copy);
  });
});

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a long session stays within the model’s context', () => {
  it('every request fits the budget; old results are replaced by a note and the person is told', async () => {
    const select = {
      toolCalls: [
        {
          name: 'execute_sql',
          arguments: {
            sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) SELECT i, printf('%080d', i) AS padding FROM n",
          },
        },
      ],
    };
    const replies = Array.from({ length: 8 }, () => [select, { text: 'Done.' }]).flat();
    harness = await createHarness(replies, { contextTokens: 12_000 });
    for (let turn = 0; turn < 8; turn++) await harness.turn(`turn ${turn}`);
    const sizes = harness.server.requests.map((request) =>
      estimateTokens(request.body.messages as unknown as Message[]),
    );
    // The first request of a turn carries only trimmed history plus the question.
    for (const [index, size] of sizes.entries()) if (index % 2 === 0) expect(size).toBeLessThan(12_000);
    const last = harness.server.requests.at(-1)!.body.messages;
    expect(
      last.filter((message) => message.role === 'tool' && String(message.content).startsWith('[an earlier tool result'))
        .length,
    ).toBeGreaterThan(0);
    expect(harness.events.some((event) => event.type === 'context-trimmed')).toBe(true);
  });
});

describe('the transcript keeps results capped', () => {
  it('a tool-result event keeps no rows and at most 2,000 characters; the tool message keeps what the model was told', () => {
    const writer = TranscriptWriter.create(`${process.env.TMPDIR ?? '/tmp'}/riskgate-cap-${process.pid}`, {
      cwd: '/',
      kind: 'sql',
    });
    const rows = Array.from({ length: 500 }, (_, index) => [index, `row ${index} ${'y'.repeat(40)}`]);
    for (let step = 0; step < 200; step++) {
      writer.message({ role: 'user', content: `step ${step}` });
      writer.message({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `c${step}`, type: 'function', function: { name: 'execute_sql', arguments: '{}' } }],
      });
      writer.event({
        type: 'tool-result',
        toolCallId: `c${step}`,
        toolName: 'execute_sql',
        state: 'succeeded',
        forModel: 'z'.repeat(6_000),
        data: { statements: [{ rows }] },
        durationMs: 1,
      });
      writer.message({ role: 'tool', tool_call_id: `c${step}`, content: 'z'.repeat(6_000) });
    }
    const text = readFileSync(writer.path, 'utf8');
    expect(text).not.toContain('row 1 y');
    expect(statSync(writer.path).size).toBeLessThan(2_000_000);
    const loaded = readTranscript(writer.path);
    const event = loaded.events.find((candidate) => candidate.type === 'tool-result');
    expect(event).not.toHaveProperty('data');
    expect(event && 'forModel' in event ? event.forModel : '').toMatch(
      /^z{2000}… \(4,000 more characters in the tool message\)$/,
    );
    expect(
      loaded.messages
        .filter((message) => message.role === 'tool')
        .every((message) => message.content === 'z'.repeat(6_000)),
    ).toBe(true);
  });
});
