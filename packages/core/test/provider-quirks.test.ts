import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { AzureOpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { readingErrors } from '../src/error-bodies.js';
import { createHarness, type Harness } from './helpers.js';

/**
 * What reasoning models, Gemini's OpenAI endpoint, refusals and servers' error shapes do to the
 * loop, each served raw on 127.0.0.1 to the real client and agent.
 */
type Delta = Record<string, unknown>;
type Reply = { readonly deltas: readonly Delta[]; readonly finish: string | null } | { readonly raw: string };
type Check = (body: { messages: Record<string, unknown>[] }) => { status: number; body: unknown } | undefined;

let server: Server | undefined;
let harness: Harness | undefined;
const bodies: { messages: Record<string, unknown>[] }[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
  bodies.length = 0;
});

const chunk = (delta: Delta, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function send(response: ServerResponse, reply: Reply): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  if ('raw' in reply) {
    response.end(reply.raw);
    return;
  }
  for (const delta of reply.deltas) response.write(chunk(delta));
  response.end(reply.finish === null ? '' : `${chunk({}, reply.finish)}data: [DONE]\n\n`);
}

/** Answers each request with the next reply, unless `check` answers it first (a provider's 400). */
async function serve(replies: Reply[], check?: Check): Promise<string> {
  const queue = [...replies];
  server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (part: Buffer) => {
      text += part.toString('utf8');
    });
    request.on('end', () => {
      const body = JSON.parse(text) as { messages: Record<string, unknown>[] };
      bodies.push(body);
      const refused = check?.(body);
      if (refused !== undefined) {
        response.writeHead(refused.status, { 'content-type': 'application/json' });
        response.end(typeof refused.body === 'string' ? refused.body : JSON.stringify(refused.body));
        return;
      }
      send(response, queue.shift() ?? { deltas: [{ content: 'no more replies' }], finish: 'stop' });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

const touch = (name: string) => JSON.stringify({ command: `touch ${name}`, risk_level: 'low' });
const made = (h: Harness) =>
  readdirSync(h.directory)
    .filter((name) => name.startsWith('made-'))
    .sort();
const call = (id: string, name: string, index?: number, extra?: Delta) => ({
  ...(index === undefined ? {} : { index }),
  id,
  type: 'function',
  function: { name: 'execute_command', arguments: touch(name) },
  ...extra,
});

/**
 * DeepSeek's thinking mode: an assistant message with tool calls must carry its reasoning_content
 * back, an empty one too (the 400 as reported in anomalyco/opencode#24083 and
 * deepseek-ai/deepseek-harness discussion 739).
 */
const DEEPSEEK_400 = {
  error: {
    message: 'The reasoning_content in the thinking mode must be passed back to the API.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_request_error',
  },
};
const deepSeekCheck: Check = (body) =>
  body.messages.some(
    (message) =>
      message.role === 'assistant' &&
      Array.isArray(message.tool_calls) &&
      typeof message.reasoning_content !== 'string',
  )
    ? { status: 400, body: DEEPSEEK_400 }
    : undefined;

describe('a reasoning model in a tool loop (DeepSeek thinking mode, Kimi)', () => {
  it('the provider this server plays refuses a history without reasoning_content', async () => {
    const base = await serve([], deepSeekCheck);
    const client = new OpenAI({ apiKey: 'k', baseURL: base, maxRetries: 0 });
    const request = client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'a', content: 'ok' },
      ],
    });
    await expect(request).rejects.toMatchObject({ status: 400 });
  });

  it('sends each reply reasoning back with its tool calls, an empty one too, and the loop completes', async () => {
    const base = await serve(
      [
        {
          deltas: [
            { role: 'assistant', content: null, reasoning_content: '' },
            { tool_calls: [call('c1', 'made-a', 0)] },
          ],
          finish: 'tool_calls',
        },
        {
          deltas: [
            { reasoning_content: 'Now the second ' },
            { reasoning_content: 'file.' },
            { tool_calls: [call('c2', 'made-b', 0)] },
          ],
          finish: 'tool_calls',
        },
        { deltas: [{ reasoning_content: 'Both exist.' }, { content: 'Made both files.' }], finish: 'stop' },
      ],
      deepSeekCheck,
    );
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('make two files');
    expect(outcome).toEqual({ reason: 'answered', text: 'Made both files.' });
    expect(made(harness)).toEqual(['made-a', 'made-b']);
    expect(bodies).toHaveLength(3);
    const assistants = bodies[2]!.messages.filter((message) => message.role === 'assistant');
    expect(assistants.map((message) => message.reasoning_content)).toEqual(['', 'Now the second file.']);
    // The answer without tool calls carries none back (the provider ignores it; others refuse it).
    const last = harness.agent.conversation.at(-1) as unknown as Record<string, unknown>;
    expect(last).toMatchObject({ role: 'assistant', content: 'Made both files.' });
    expect('reasoning_content' in last).toBe(false);
    expect(harness.events.filter((event) => event.type === 'reasoning-delta').map((event) => event.text)).toEqual([
      'Now the second ',
      'file.',
      'Both exist.',
    ]);
  });

  it('reasoning stays out of the audit log and of the transcript events; the message keeps it for resuming', async () => {
    const secretThought = 'the key might be sk-proj-THOUGHT0123456789abcdefghijklmnopqrstuv';
    const base = await serve([
      {
        deltas: [{ reasoning_content: secretThought }, { tool_calls: [call('c1', 'made-a', 0)] }],
        finish: 'tool_calls',
      },
      { deltas: [{ content: 'Done.' }], finish: 'stop' },
    ]);
    harness = await createHarness([], { baseURL: base });
    await harness.turn('make a file');
    expect(made(harness)).toEqual(['made-a']);
    expect(readFileSync(harness.auditPath, 'utf8')).not.toContain('THOUGHT0123456789');
    const lines = readFileSync(harness.transcript.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; event?: { type: string }; message?: Record<string, unknown> });
    expect(lines.some((line) => line.kind === 'event' && line.event?.type === 'reasoning-delta')).toBe(false);
    expect(lines.find((line) => line.message?.role === 'assistant')?.message?.reasoning_content).toBe(secretThought);
  });
});

// Shapes as reported in open-webui/computer#224 (no index, whole calls, finish "stop",
// extra_content.google.thought_signature) and NousResearch/hermes-agent#57939 (all under index 0).
describe("OpenRouter's reasoning_details", () => {
  // The shape OpenRouter documents for reasoning tokens (a `reasoning` string beside blocks streamed
  // in pieces by `index`), which it asks back with tool calls to keep signed reasoning.
  it('blocks are joined by index and sent back with the tool calls; `reasoning` is not', async () => {
    const piece = (fields: Delta) => ({ reasoning_details: [{ type: 'reasoning.text', index: 0, ...fields }] });
    const base = await serve([
      {
        deltas: [
          { role: 'assistant', reasoning: 'Let', ...piece({ text: 'Let', format: 'anthropic-claude-v1' }) },
          { reasoning: ' me', ...piece({ text: ' me' }) },
          piece({ signature: 'c2ln' }),
          { tool_calls: [call('or-1', 'made-or', 0)] },
        ],
        finish: 'tool_calls',
      },
      { deltas: [{ content: 'Done.' }], finish: 'stop' },
    ]);
    harness = await createHarness([], { baseURL: base });
    await harness.turn('make it');
    expect(made(harness)).toEqual(['made-or']);
    const reasoning = harness.events.flatMap((event) => (event.type === 'reasoning-delta' ? [event.text] : []));
    expect(reasoning.join('')).toBe('Let me');
    const assistant = bodies[1]!.messages.find((message) => message.role === 'assistant')!;
    expect(assistant.reasoning_details).toEqual([
      { type: 'reasoning.text', index: 0, text: 'Let me', format: 'anthropic-claude-v1', signature: 'c2ln' },
    ]);
    expect('reasoning' in assistant || 'reasoning_content' in assistant).toBe(false);
  });
});

describe('an endpoint that refuses reasoning sent back (Groq behind a router, after a switch of model)', () => {
  // Groq's words, as reported in tashfeenahmed/freellmapi#1070.
  const GROQ_400 = {
    error: {
      message:
        "'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property 'reasoning_content' is unsupported)]",
      type: 'invalid_request_error',
    },
  };
  const groqCheck: Check = (body) =>
    body.messages.some((message) => 'reasoning_content' in message) ? { status: 400, body: GROQ_400 } : undefined;

  it('is asked again without it, and the loop completes', async () => {
    const base = await serve(
      [
        { deltas: [{ reasoning_content: 'Think.' }, { tool_calls: [call('c1', 'made-a', 0)] }], finish: 'tool_calls' },
        { deltas: [{ content: 'Done.' }], finish: 'stop' },
      ],
      groqCheck,
    );
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('make a file');
    expect(outcome).toEqual({ reason: 'answered', text: 'Done.' });
    expect(made(harness)).toEqual(['made-a']);
    const last = bodies.at(-1)!;
    expect(last.messages.some((message) => message.role === 'tool')).toBe(true);
    expect(last.messages.some((message) => 'reasoning_content' in message)).toBe(false);
    expect(last.messages.find((message) => message.role === 'assistant')?.tool_calls).toHaveLength(1);
    // The conversation itself keeps it (a switch back to the reasoning model sends it again).
    expect(harness.agent.conversation.some((message) => 'reasoning_content' in message)).toBe(true);
  });

  it("DeepSeek's 'must be passed back' is not taken for a refusal of the field", async () => {
    const base = await serve(
      [{ deltas: [{ reasoning_content: 'Think.' }, { tool_calls: [call('c1', 'made-a', 0)] }], finish: 'tool_calls' }],
      (body) =>
        body.messages.some((message) => message.role === 'tool') ? { status: 400, body: DEEPSEEK_400 } : undefined,
    );
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('make a file');
    expect(outcome.reason).toBe('error');
    // Never asked again without the reasoning: every later request still carries it.
    const later = bodies.slice(1).flatMap((body) => body.messages.filter((message) => message.role === 'assistant'));
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((message) => message.reasoning_content === 'Think.')).toBe(true);
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      message: expect.stringContaining('must be passed back'),
    });
  });
});

describe("Gemini's OpenAI endpoint: parallel calls", () => {
  it('each call whole in its own delta without an index: two calls, both run, signatures sent back', async () => {
    const signature = { google: { thought_signature: 'c2lnbmF0dXJl' } };
    const base = await serve([
      {
        deltas: [
          {
            role: 'assistant',
            tool_calls: [call('function-call-1', 'made-one', undefined, { extra_content: signature })],
          },
          { tool_calls: [call('function-call-2', 'made-two')] },
        ],
        finish: 'stop',
      },
      { deltas: [{ content: 'Done.' }], finish: 'stop' },
    ]);
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('make two');
    expect(outcome.reason).toBe('answered');
    expect(made(harness)).toEqual(['made-one', 'made-two']);
    const assistant = bodies[1]!.messages.find((message) => message.role === 'assistant')!;
    const calls = assistant.tool_calls as Record<string, unknown>[];
    expect(calls.map((sent) => sent.id)).toEqual(['function-call-1', 'function-call-2']);
    expect(calls[0]!.extra_content).toEqual(signature);
    expect('extra_content' in calls[1]!).toBe(false);
  });

  it('all under index 0 with distinct ids: separate calls, never one merged call', async () => {
    const base = await serve([
      {
        deltas: [{ tool_calls: [call('g-1', 'made-x', 0)] }, { tool_calls: [call('g-2', 'made-y', 0)] }],
        finish: 'tool_calls',
      },
      { deltas: [{ content: 'Done.' }], finish: 'stop' },
    ]);
    harness = await createHarness([], { baseURL: base });
    await harness.turn('make two');
    expect(made(harness)).toEqual(['made-x', 'made-y']);
    const calls = harness.events.flatMap((event) => (event.type === 'tool-call' ? [event] : []));
    expect(calls.map((event) => JSON.parse(event.argumentsText).command)).toEqual(['touch made-x', 'touch made-y']);
  });

  it('a fresh id with every piece of one call (no name after the first) still joins into one call', async () => {
    const args = touch('made-renumbered');
    const piece = (id: string, index: number | undefined, fields: Delta) => ({
      ...(index === undefined ? {} : { index }),
      id,
      type: 'function',
      function: fields,
    });
    const base = await serve([
      {
        deltas: [
          { tool_calls: [piece('r-1', 0, { name: 'execute_command', arguments: args.slice(0, 5) })] },
          { tool_calls: [piece('r-2', 0, { arguments: args.slice(5, 20) })] },
          { tool_calls: [piece('r-3', undefined, { arguments: args.slice(20) })] },
        ],
        finish: 'tool_calls',
      },
      { deltas: [{ content: 'Done.' }], finish: 'stop' },
    ]);
    harness = await createHarness([], { baseURL: base });
    await harness.turn('make it');
    expect(made(harness)).toEqual(['made-renumbered']);
    expect(harness.events.filter((event) => event.type === 'tool-call')).toHaveLength(1);
  });

  it('arguments split over index-less deltas without ids still join into one call', async () => {
    const args = touch('made-split');
    const base = await serve([
      {
        deltas: [
          {
            tool_calls: [
              { id: 'g-1', type: 'function', function: { name: 'execute_command', arguments: args.slice(0, 9) } },
            ],
          },
          { tool_calls: [{ function: { arguments: args.slice(9) } }] },
        ],
        finish: 'stop',
      },
      { deltas: [{ content: 'Done.' }], finish: 'stop' },
    ]);
    harness = await createHarness([], { baseURL: base });
    await harness.turn('make it');
    expect(made(harness)).toEqual(['made-split']);
  });
});

describe('Mistral content arrays', () => {
  it('thinking parts are reasoning, text parts the answer, unknown parts ignored', async () => {
    const base = await serve([
      {
        deltas: [
          { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Two and two.' }] }] },
          { content: [{ type: 'image_url', image_url: 'x' }, { type: 'text', text: '2 + 2 ' }, 7, null] },
          {
            content: [
              { type: 'reference', reference_ids: [1] },
              { type: 'text', text: '= 4' },
            ],
          },
        ],
        finish: 'stop',
      },
    ]);
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('2+2?');
    expect(outcome).toEqual({ reason: 'answered', text: '2 + 2 = 4' });
    expect(harness.events.filter((event) => event.type === 'reasoning-delta')).toEqual([
      { type: 'reasoning-delta', text: 'Two and two.' },
    ]);
  });
});

describe('refusals', () => {
  it("OpenAI's refusal reaches the person as the model's answer, and the turn says it refused", async () => {
    const words = "I'm sorry, but I can't help with that.";
    const base = await serve([
      {
        deltas: [
          { role: 'assistant', content: null, refusal: "I'm sorry, " },
          { refusal: "but I can't help with that." },
        ],
        finish: 'stop',
      },
    ]);
    harness = await createHarness([], { baseURL: base });
    const outcome = await harness.turn('something refused');
    expect(outcome).toEqual({ reason: 'refusal', text: words });
    expect(harness.events).toContainEqual({ type: 'refusal', text: words });
    expect(harness.agent.conversation.at(-1)).toMatchObject({ role: 'assistant', content: null, refusal: words });
  });
});

// OpenRouter sends an `error` object in a chunk mid-stream; vLLM's ErrorResponse is
// {object:"error", message, type, param, code}, in the stream and as a non-2xx body.
describe("providers' errors reach the person in words", () => {
  it('an error object inside the stream, after some text', async () => {
    const raw = `${chunk({ content: 'Let me ' })}data: ${JSON.stringify({ error: { message: 'upstream model overloaded', code: 502 } })}\n\n`;
    harness = await createHarness([], { baseURL: await serve([{ raw }]) });
    const outcome = await harness.turn('hi');
    expect(outcome.reason).toBe('error');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind: 'provider-error',
      message: expect.stringContaining('upstream model overloaded'),
    });
  });

  it('an error object as the first thing in the stream', async () => {
    const raw = `data: ${JSON.stringify({ error: { message: 'Provider returned error', code: 429 } })}\n\n`;
    harness = await createHarness([], { baseURL: await serve([{ raw }]) });
    await harness.turn('hi');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      message: expect.stringContaining('Provider returned error'),
    });
  });

  it("vLLM's error chunk inside the stream", async () => {
    const vllm = {
      object: 'error',
      message: 'Sampling failed: CUDA out of memory',
      type: 'InternalServerError',
      code: 500,
    };
    const raw = `${chunk({ content: 'Partial' })}data: ${JSON.stringify(vllm)}\n\n`;
    harness = await createHarness([], { baseURL: await serve([{ raw }]) });
    await harness.turn('hi');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({
      kind: 'provider-error',
      message: expect.stringContaining('CUDA out of memory'),
    });
  });

  it.each([
    [
      "vLLM's body",
      {
        object: 'error',
        message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.",
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
      'maximum context length is 4096 tokens',
    ],
    [
      'a string error (Ollama, LM Studio)',
      { error: 'model "llama9" not found, try pulling it first' },
      'try pulling it first',
    ],
    [
      'FastAPI detail',
      { detail: [{ loc: ['body', 'messages'], msg: 'field required', type: 'missing' }] },
      'field required',
    ],
    [
      "Gemini's list",
      [{ error: { code: 400, message: 'Function call is missing a thought_signature', status: 'INVALID_ARGUMENT' } }],
      'missing a thought_signature',
    ],
  ])('a 400 with %s', async (_shape, body, words) => {
    harness = await createHarness([], { baseURL: await serve([], () => ({ status: 400, body })) });
    const outcome = await harness.turn('hi');
    expect(outcome.reason).toBe('error');
    const error = harness.events.find((event) => event.type === 'error');
    expect(error).toMatchObject({ kind: 'bad-request', message: expect.stringContaining(words) });
    expect(JSON.stringify(error)).not.toContain('no body');
  });
});

describe('the client the host gave', () => {
  it('a plain client is copied with readable error bodies; a subclass (AzureOpenAI) is used as given', async () => {
    const plain = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, timeout: 1234 });
    const copy = await readingErrors(plain);
    expect(copy).not.toBe(plain);
    expect(copy).toMatchObject({ baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, timeout: 1234 });
    const azure = new AzureOpenAI({
      apiKey: 'k',
      endpoint: 'https://example.openai.azure.com',
      apiVersion: '2024-10-21',
      deployment: 'd',
    });
    // The SDK cannot copy it (its constructor wants what withOptions does not pass on).
    expect(() => azure.withOptions({})).toThrow();
    expect(await readingErrors(azure)).toBe(azure);
  });
});
