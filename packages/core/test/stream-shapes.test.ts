import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers.js';

/**
 * Streams as OpenAI-compatible servers send them, chunk by chunk (recorded shapes: OpenAI's,
 * servers that repeat the id and name in every delta, servers that send a whole call at once
 * and end with "stop"), served raw on 127.0.0.1.
 */
type Delta = {
  content?: string;
  tool_calls?: { index?: number; id?: string; type?: 'function'; function?: { name?: string; arguments?: string } }[];
};
type Chunk = { delta: Delta; finish_reason?: string | null };

let server: Server | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
});

async function rawServer(replies: Chunk[][]): Promise<string> {
  const queue = [...replies];
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const chunks = queue.shift() ?? [{ delta: { content: 'no more replies' }, finish_reason: 'stop' }];
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of chunks) {
        response.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: chunk.delta, finish_reason: chunk.finish_reason ?? null }] })}\n\n`,
        );
      }
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

const touch = (name: string) => JSON.stringify({ command: `touch ${name}`, risk_level: 'low' });
const done: Chunk[] = [{ delta: { content: 'Done.' }, finish_reason: 'stop' }];
const made = (h: Harness) => readdirSync(h.directory).filter((name) => name.startsWith('made-'));

/** OpenAI's own shape: id and name once, arguments in pieces, then finish_reason tool_calls. */
function openAiShape(name: string, id = 'call_a', index = 0, finish: string | null = 'tool_calls'): Chunk[] {
  const args = touch(name);
  return [
    { delta: { tool_calls: [{ index, id, type: 'function', function: { name: 'execute_command', arguments: '' } }] } },
    { delta: { tool_calls: [{ index, function: { arguments: args.slice(0, 10) } }] } },
    { delta: { tool_calls: [{ index, function: { arguments: args.slice(10) } }] } },
    { delta: {}, finish_reason: finish },
  ];
}

describe('the loop acts only on complete replies', () => {
  it.each([
    ['length', /length limit before it finished \(finish_reason: length\)/],
    ['content_filter', /content filter/],
    ['something_else', /finish_reason "something_else"/],
    [null, /cut off before it finished/],
  ])('finish_reason %s: nothing runs, the person is told why', async (finish, message) => {
    const base = await rawServer([openAiShape('made-1', 'call_a', 0, finish)]);
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('make it');
    expect(outcome.reason).toBe('error');
    expect(made(harness)).toEqual([]);
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind: 'incomplete-reply',
      message: expect.stringMatching(message),
    });
  });
});

describe('deltas are joined the way servers send them', () => {
  it.each<[string, Chunk[]]>([
    ['OpenAI: id and name once, arguments in pieces', openAiShape('made-openai')],
    [
      'the id and the whole name repeated in every delta',
      [
        {
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'call_r',
                type: 'function',
                function: { name: 'execute_command', arguments: touch('made-repeat').slice(0, 12) },
              },
            ],
          },
        },
        {
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'call_r',
                type: 'function',
                function: { name: 'execute_command', arguments: touch('made-repeat').slice(12) },
              },
            ],
          },
        },
        { delta: {}, finish_reason: 'tool_calls' },
      ],
    ],
    [
      'a whole call in one delta, ending with stop',
      [
        {
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'call_w',
                type: 'function',
                function: { name: 'execute_command', arguments: touch('made-whole') },
              },
            ],
          },
          finish_reason: 'stop',
        },
      ],
    ],
    [
      'a name split in two pieces',
      [
        {
          delta: {
            tool_calls: [{ index: 0, id: 'call_s', type: 'function', function: { name: 'execute_', arguments: '' } }],
          },
        },
        { delta: { tool_calls: [{ index: 0, function: { name: 'command', arguments: touch('made-split') } }] } },
        { delta: {}, finish_reason: 'tool_calls' },
      ],
    ],
    [
      'no index on the fragments',
      [
        {
          delta: {
            tool_calls: [
              {
                id: 'call_n',
                type: 'function',
                function: { name: 'execute_command', arguments: touch('made-noindex') },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    ],
  ])('%s', async (_shape, chunks) => {
    const base = await rawServer([chunks, done]);
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('make it');
    expect(outcome).toEqual({ reason: 'answered', text: 'Done.' });
    expect(made(harness)).toHaveLength(1);
    expect(harness.events.find((event) => event.type === 'tool-call')).toMatchObject({ toolName: 'execute_command' });
  });
});

describe('call ids', () => {
  it('two calls with one id in one reply: the first runs, the repeat is refused, the history ids stay unique', async () => {
    const first = openAiShape('made-first', 'call_same', 0).slice(0, 3);
    const second = openAiShape('made-second', 'call_same', 1);
    const base = await rawServer([[...first, ...second], done]);
    harness = await createHarness([], { baseURL: base });
    await harness.turn('make both');
    expect(made(harness)).toEqual(['made-first']);
    expect(existsSync(join(harness.directory, 'made-second'))).toBe(false);
    const ids = harness.agent.conversation.flatMap((message) =>
      message.role === 'tool' ? [message.tool_call_id] : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({ kind: 'duplicate-call-id' });
  });

  it('a server that numbers calls afresh in each reply: both run, under distinct ids', async () => {
    const base = await rawServer([openAiShape('made-one', 'call_0'), openAiShape('made-two', 'call_0'), done]);
    harness = await createHarness([], { baseURL: base });
    await harness.turn('make two');
    expect(made(harness).sort()).toEqual(['made-one', 'made-two']);
    const ids = harness.agent.conversation.flatMap((message) =>
      message.role === 'tool' ? [message.tool_call_id] : [],
    );
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    // Every tool message answers exactly one call of the same id.
    const calls = harness.agent.conversation.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
    );
    expect(calls).toEqual(ids);
  });
});
