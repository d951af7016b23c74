import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers.js';

/**
 * Streams recorded from real providers (fixtures/provider-streams, README there for sources),
 * replayed byte for byte on 127.0.0.1 to the real `openai` client and the real agent: the
 * answer, the reasoning and the tool calls come out as the provider meant them.
 */
const FIXTURES = join(import.meta.dirname, 'fixtures', 'provider-streams');

let server: Server | undefined;
let harness: Harness | undefined;
const bodies: Record<string, unknown>[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
  bodies.length = 0;
});

const DONE_STREAM = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

/** Serves the recorded stream to the first request, and "Done." to the next ones. */
async function replay(fixture: string): Promise<string> {
  const recorded = readFileSync(join(FIXTURES, fixture), 'utf8');
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(bodies.length === 1 ? recorded : DONE_STREAM);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

interface Expected {
  /** How the answer starts and ends ('' for none). */
  readonly text: readonly [string, string] | '';
  /** How the reasoning starts; undefined when the stream has none. */
  readonly reasoning?: string;
  /** Each call's name and parsed arguments, in order. */
  readonly calls?: readonly (readonly [string, unknown])[];
  /** Whether the assistant message sent back carries `reasoning_content` (only with tool calls). */
  readonly reasoningBack?: boolean;
  readonly reason?: 'answered' | 'error';
}

const SF = { location: 'San Francisco' };
const RECORDED: readonly (readonly [string, Expected])[] = [
  ['openai/text.sse', { text: ['**Holiday Name:** Harmony Day', 'experiences and mutual respect.'] }],
  ['azure/model-router-text.sse', { text: ['Capital of Denmark.', 'Capital of Denmark.'] }],
  [
    'azure/deepseek-reasoning.sse',
    { text: ["Exciting news, Knicks fans—there's", '🎯🧡💙'], reasoning: 'We need to invent a new holiday' },
  ],
  [
    'deepseek/reasoning.sse',
    { text: ['The word "strawberry" contains three "r"s.', 'three "r"s.'], reasoning: 'We need to count the number' },
  ],
  // Recorded with a token limit: the reply ends in finish_reason "length", said, never acted on.
  ['deepseek/text.sse', { text: ['## **Holiday Name:** Starlight Remembrance', 'silent looking at'], reason: 'error' }],
  [
    'deepseek/tool-call.sse',
    {
      text: '',
      reasoning: 'The user is asking for the weather in Sa',
      calls: [['weather', SF]],
      reasoningBack: true,
    },
  ],
  [
    'groq/reasoning.sse',
    { text: ['The word **"strawberry"**', '$\\boxed{3}$'], reasoning: 'Okay, let me try to figure' },
  ],
  ['groq/text.sse', { text: ['Introducing "Luminaria"', 'the magic of light.'] }],
  ['groq/tool-call.sse', { text: '', calls: [['weather', {}]], reasoningBack: false }],
  ['mistral/reasoning.sse', { text: ['2 + 2 = 4', '2 + 2 = 4'], reasoning: 'The user is asking for 2+2.' }],
  ['mistral/text.sse', { text: ['Hello, world!', 'test response.'] }],
  ['mistral/tool-call.sse', { text: '', calls: [['weather', SF]], reasoningBack: false }],
  [
    'mistral/incremental-tool-call.sse',
    { text: '', calls: [['webSearchTool', { query: 'current Berlin weather' }]], reasoningBack: false },
  ],
  ['moonshot/reasoning.sse', { text: ['Hello!', 'Hello!'], reasoning: 'Thinking aloud. ' }],
  ['xai/text.sse', { text: ['Hello', 'Hello'], reasoning: 'First, the user said' }],
  ['xai/tool-call.sse', { text: '', reasoning: 'First, the user is', calls: [['weather', SF]], reasoningBack: true }],
  ['xai/compatible-text.sse', { text: ['Grok', 'Grok'], reasoning: 'First, the user said: "Say a single word' }],
  [
    'xai/compatible-tool-call.sse',
    { text: '', reasoning: 'First, the user is asking about the weat', calls: [['weather', SF]], reasoningBack: true },
  ],
  ['perplexity/text.sse', { text: ['**EcoVista Day**', '[1][5]'] }],
  ['perplexity/citations.sse', { text: ['The current population of', '[2][3]'] }],
  [
    'alibaba/reasoning.sse',
    { text: ['The word **"strawberry"** contains **3**', '**Answer: 3**'], reasoning: 'We are asked' },
  ],
  ['alibaba/text.sse', { text: ['## The Festival of Shared Stories', 'We are woven together."*'] }],
  ['alibaba/tool-call.sse', { text: '', calls: [['weather', SF]], reasoningBack: false }],
];

describe('recorded provider streams, replayed to the real client and agent', () => {
  it('covers at least 20 streams from at least 8 providers', () => {
    expect(RECORDED.length).toBeGreaterThanOrEqual(20);
    expect(new Set(RECORDED.map(([path]) => path.split('/')[0])).size).toBeGreaterThanOrEqual(8);
  });

  it.each(RECORDED)('%s', async (fixture, expected) => {
    harness = await createHarness([], { baseURL: await replay(fixture) });
    const outcome = await harness.turn('go');
    const events = harness.events;
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    const reasoning = events.flatMap((event) => (event.type === 'reasoning-delta' ? [event.text] : [])).join('');
    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event] : []));
    // The answer of the first reply (a tool loop's second reply is the replay server's "Done.").
    const firstText = calls.length > 0 ? text.replace(/Done\.$/, '') : text;
    expect(text).not.toContain('[object Object]');
    if (expected.text === '') expect(firstText).toBe('');
    else {
      expect(firstText.startsWith(expected.text[0])).toBe(true);
      expect(firstText.endsWith(expected.text[1])).toBe(true);
    }
    // Reasoning is never part of the answer, and the answer never part of it.
    if (expected.reasoning === undefined) expect(reasoning).toBe('');
    else {
      expect(reasoning.startsWith(expected.reasoning)).toBe(true);
      expect(text).not.toContain(expected.reasoning);
    }
    expect(calls.map((call) => [call.toolName, JSON.parse(call.argumentsText)])).toEqual(expected.calls ?? []);
    expect(outcome.reason).toBe(expected.reason ?? 'answered');
    if (expected.calls !== undefined) {
      // The loop went on: the calls' results were sent back, answered by the second reply.
      expect(bodies).toHaveLength(2);
      const messages = bodies[1]!.messages as Record<string, unknown>[];
      const assistant = messages.find((message) => message.role === 'assistant')!;
      expect('reasoning_content' in assistant).toBe(expected.reasoningBack);
      if (expected.reasoningBack === true) expect(assistant.reasoning_content).toBe(reasoning);
      // Groq refuses an assistant message that carries `reasoning`: it is never sent back.
      expect('reasoning' in assistant).toBe(false);
      expect(messages.filter((message) => message.role === 'tool')).toHaveLength(expected.calls.length);
    }
  });
});
