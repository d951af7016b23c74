import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, addUsage, type Message, readUsage, TRIMMED_RESULT, trimToBudget } from '../src/index.js';
import { createHarness, type Harness } from './helpers.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usageEvents = (events: readonly AgentEvent[]) => events.filter((event) => event.type === 'usage');

describe("the provider's usage", () => {
  it('is asked for in the stream and reported per request, with the cost the provider gives', async () => {
    harness = await createHarness([
      {
        toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT count(*) AS n FROM orders' } }],
        usage: { prompt_tokens: 1200, completion_tokens: 30, cost: 0.0012 },
      },
      {
        text: 'There are 5 orders.',
        usage: { prompt_tokens: 1300, completion_tokens: 8, total_tokens: 1308, cost: 0.0013 },
      },
    ]);
    const outcome = await harness.turn('how many orders?');
    expect(outcome).toMatchObject({ reason: 'answered', text: 'There are 5 orders.' });
    expect(harness.server.requests.map((request) => request.body.stream_options)).toEqual([
      { include_usage: true },
      { include_usage: true },
    ]);
    expect(usageEvents(harness.events)).toEqual([
      { type: 'usage', promptTokens: 1200, completionTokens: 30, totalTokens: 1230, cost: 0.0012 },
      { type: 'usage', promptTokens: 1300, completionTokens: 8, totalTokens: 1308, cost: 0.0013 },
    ]);
  });

  it('is not reported when the provider sends none (no event, nothing invented)', async () => {
    harness = await createHarness([{ text: 'hello' }]);
    expect(await harness.turn('hi')).toMatchObject({ reason: 'answered', text: 'hello' });
    expect(usageEvents(harness.events)).toEqual([]);
  });

  it('from an endpoint that refuses stream_options: asked again without it, and not asked again', async () => {
    harness = await createHarness(
      [{ text: 'first', usage: { prompt_tokens: 10, completion_tokens: 1 } }, { text: 'second' }],
      {
        rejectStreamOptions: true,
      },
    );
    expect(await harness.turn('one')).toMatchObject({ reason: 'answered', text: 'first' });
    expect(await harness.turn('two')).toMatchObject({ reason: 'answered', text: 'second' });
    expect(harness.server.requests.map((request) => request.body.stream_options)).toEqual([
      { include_usage: true },
      undefined,
      undefined,
    ]);
    expect(harness.events.filter((event) => event.type === 'error')).toEqual([]);
    expect(usageEvents(harness.events)).toEqual([]);
  });

  it('reports a 400 that is not about the option as it was (the retry without it fails too)', async () => {
    harness = await createHarness([{ error: { status: 400, message: 'maximum context length exceeded' } }]);
    expect(await harness.turn('hi')).toMatchObject({ reason: 'error' });
    expect(harness.server.requests.map((request) => request.body.stream_options)).toEqual([
      { include_usage: true },
      undefined,
    ]);
    const errors = harness.events.filter((event) => event.type === 'error');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toMatch(/maximum context length exceeded/);
  });

  it('reports an error that is not a 400 once, with one request', async () => {
    harness = await createHarness([{ error: { status: 401, message: 'bad key' } }]);
    expect(await harness.turn('hi')).toMatchObject({ reason: 'error' });
    // 401 is not about the option: one request, the error as it was.
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.events.filter((event) => event.type === 'error')).toHaveLength(1);
  });
});

describe('the context budget from the provider’s count', () => {
  // Turn one reads a 2,000-character result; its last request reports `prompt` tokens.
  const script = (prompt: number | undefined) => [
    { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT hex(zeroblob(1000)) AS filler' } }] },
    { text: 'read it', ...(prompt === undefined ? {} : { usage: { prompt_tokens: prompt, completion_tokens: 3 } }) },
    { text: 'second answer' },
  ];
  const trimmedInTurnTwo = async (prompt: number | undefined) => {
    harness = await createHarness(script(prompt), { contextTokens: 12_000 });
    await harness.turn('fill');
    await harness.turn('next');
    const secondTurn = harness.server.requests[2]!.body.messages;
    const tool = secondTurn.find((message) => message.role === 'tool');
    return {
      events: harness.events.filter((event) => event.type === 'context-trimmed'),
      toolContent: String(tool?.content),
    };
  };

  it('trims when the provider counts more than characters ÷ 4 would', async () => {
    const { events, toolContent } = await trimmedInTurnTwo(11_000);
    expect(events).toHaveLength(1);
    expect(toolContent).toBe(TRIMMED_RESULT(await lengthOfResult()));
  });

  it('falls back to characters ÷ 4 without usage (the same conversation fits)', async () => {
    const { events, toolContent } = await trimmedInTurnTwo(undefined);
    expect(events).toEqual([]);
    expect(toolContent).toMatch(/0000/);
  });
});

/** The length of the SELECT's result as the model got it in turn one (the first tool message). */
async function lengthOfResult(): Promise<number> {
  const first = harness!.server.requests[1]!.body.messages.find((message) => message.role === 'tool');
  return String(first?.content).length;
}

describe('trimToBudget with a measured count', () => {
  const conversation = (): Message[] => [
    { role: 'user', content: 'q' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'a', type: 'function', function: { name: 't', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'a', content: 'r'.repeat(4_000) },
    { role: 'assistant', content: 'done' },
    { role: 'user', content: 'next' },
  ];

  it.each([
    ['the provider counted the first four messages as 9,000 tokens', { messages: 4, tokens: 9_000 }, 1],
    ['the provider counted them as 500 tokens', { messages: 4, tokens: 500 }, 0],
    ['a count of more messages than there are is not used', { messages: 9, tokens: 9_000 }, 0],
  ])('%s', (_case, measured, results) => {
    const messages = conversation();
    expect(trimToBudget(messages, { budget: 10_000, systemPrompt: '', keepFrom: 4, measured }).results).toBe(results);
  });
});

describe('readUsage and addUsage', () => {
  it.each([
    [
      { prompt_tokens: 3, completion_tokens: 4 },
      { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    ],
    [
      { prompt_tokens: 3, completion_tokens: 4, total_tokens: 9, cost: 0.5 },
      { promptTokens: 3, completionTokens: 4, totalTokens: 9, cost: 0.5 },
    ],
    [
      { prompt_tokens: 3, completion_tokens: 4, cost: 'free' },
      { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    ],
    [{ prompt_tokens: -1, completion_tokens: 4 }, undefined],
    [{ prompt_tokens: 3 }, undefined],
    [null, undefined],
    ['12', undefined],
  ])('reads %j', (raw, read) => {
    expect(readUsage(raw)).toEqual(read);
  });

  it('adds a turn up; the cost only when every request had one', () => {
    const withCost = { promptTokens: 1, completionTokens: 2, totalTokens: 3, cost: 0.25 };
    const without = { promptTokens: 10, completionTokens: 20, totalTokens: 30 };
    expect(addUsage(addUsage(undefined, withCost), withCost)).toEqual({
      promptTokens: 2,
      completionTokens: 4,
      totalTokens: 6,
      cost: 0.5,
    });
    expect(addUsage(addUsage(withCost, without), withCost)).toEqual({
      promptTokens: 12,
      completionTokens: 24,
      totalTokens: 36,
    });
  });
});
