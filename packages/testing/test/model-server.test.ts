import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedModelServer, startScriptedModelServer } from '../src/index.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (baseURL: string, maxRetries = 0) => new OpenAI({ apiKey: 'test-key', baseURL, maxRetries });

async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  let text = '';
  const calls: { id?: string; name: string; arguments: string }[] = [];
  let finish: string | null = null;
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    text += choice.delta.content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      calls[call.index] ??= { name: '', arguments: '' };
      const entry = calls[call.index]!;
      if (call.id !== undefined) entry.id = call.id;
      entry.name += call.function?.name ?? '';
      entry.arguments += call.function?.arguments ?? '';
    }
    finish = choice.finish_reason ?? finish;
  }
  return { text, calls, finish, chunks };
}

describe('the scripted model server, through the real openai client', () => {
  it('streams text in pieces and ends with finish_reason stop', async () => {
    server = await startScriptedModelServer([{ text: 'Hello from the script.' }]);
    const stream = await client(server.baseURL).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const result = await collect(stream);
    expect(result).toMatchObject({ text: 'Hello from the script.', finish: 'stop' });
    expect(result.chunks).toBeGreaterThan(3);
    expect(server.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('streams several tool calls with arguments split across chunks, joined by index', async () => {
    server = await startScriptedModelServer([
      {
        toolCalls: [
          { name: 'execute_sql', arguments: { sql: 'SELECT * FROM orders LIMIT 5', risk_level: 'low' } },
          { name: 'describe_schema', arguments: {} },
        ],
        chunkSize: 4,
      },
    ]);
    const stream = await client(server.baseURL).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const result = await collect(stream);
    expect(result.finish).toBe('tool_calls');
    expect(result.calls.map((call) => call.name)).toEqual(['execute_sql', 'describe_schema']);
    expect(JSON.parse(result.calls[0]!.arguments)).toEqual({ sql: 'SELECT * FROM orders LIMIT 5', risk_level: 'low' });
    expect(result.calls[0]!.id).toMatch(/^call_/);
  });

  it('answers without streaming too', async () => {
    server = await startScriptedModelServer([{ toolCalls: [{ name: 't', arguments: '{"a":1}' }] }]);
    const completion = await client(server.baseURL).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 't', arguments: '{"a":1}' },
    });
  });

  it('serves malformed argument JSON as it is told', async () => {
    server = await startScriptedModelServer([
      { toolCalls: [{ name: 'execute_sql', arguments: '{"sql": "SELECT 1"' }] },
    ]);
    const result = await collect(
      await client(server.baseURL).chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      }),
    );
    expect(result.calls[0]!.arguments).toBe('{"sql": "SELECT 1"');
  });

  it('answers 429 with retry-after, which the client retries by its own settings', async () => {
    server = await startScriptedModelServer([
      { error: { status: 429, retryAfter: 0, message: 'slow down' } },
      { text: 'ok' },
    ]);
    const result = await collect(
      await client(server.baseURL, 1).chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      }),
    );
    expect(result.text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('fails with typed errors: 429, 401, 404, 500', async () => {
    server = await startScriptedModelServer([
      { error: { status: 429, retryAfter: 7 } },
      { error: { status: 401, message: 'Incorrect API key provided' } },
      { error: { status: 404, message: 'The model does not exist' } },
      { error: { status: 500 } },
    ]);
    const api = client(server.baseURL);
    const request = () =>
      api.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    await expect(request()).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await expect(request()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(request()).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(request()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
  });

  it('cuts a stream mid-tool-call: no finish_reason arrives', async () => {
    server = await startScriptedModelServer([
      {
        toolCalls: [{ name: 'execute_sql', arguments: { sql: 'DELETE FROM orders' } }],
        chunkSize: 3,
        cutAfterChunks: 4,
      },
    ]);
    const stream = await client(server.baseURL).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    let finish: string | null = null;
    let failed = false;
    try {
      finish = (await collect(stream)).finish;
    } catch {
      failed = true;
    }
    expect(failed || finish === null).toBe(true);
  });

  it('says so when the script runs out', async () => {
    server = await startScriptedModelServer([]);
    await expect(
      client(server.baseURL).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/no more replies/);
  });
});
