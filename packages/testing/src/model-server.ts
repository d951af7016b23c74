import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptedReply } from './script.js';

export interface RecordedRequest {
  readonly body: {
    readonly model?: string;
    readonly stream?: boolean;
    readonly stream_options?: { readonly include_usage?: boolean };
    readonly messages: readonly Record<string, unknown>[];
    readonly tools?: readonly { function: { name: string; parameters: Record<string, unknown> } }[];
  };
  readonly headers: IncomingMessage['headers'];
}

export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT/v1`, for the client's baseURL. */
  readonly baseURL: string;
  /** Every chat-completions request received, in order. */
  readonly requests: RecordedRequest[];
  /** Replies not yet given. */
  remaining(): number;
  /** Add replies at the end of the script. */
  push(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

/** `GET /models`: the list, or a 404 as from a server without the route. */
function modelList(response: ServerResponse, listed: readonly string[] | 404): void {
  if (listed === 404) json(response, 404, { error: { message: 'Not Found', type: 'invalid_request_error' } });
  else
    json(response, 200, {
      object: 'list',
      data: listed.map((id) => ({ id, object: 'model', created: 0, owned_by: 'riskgate-testing' })),
    });
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that answers each request with
 * the next scripted reply, streaming exactly as the real API does: a role chunk, content in
 * pieces, tool calls announced with id and name and then their arguments in fragments by
 * index, a finish chunk with finish_reason, and `data: [DONE]`.
 */
export async function startScriptedModelServer(
  replies: readonly ScriptedReply[],
  options: {
    model?: string;
    port?: number;
    /** Answer 400 to a request with `stream_options`, as servers that do not know the option do. */
    rejectStreamOptions?: boolean;
    /** What `GET /models` lists (by default the one model), or `404` for a server without the route. */
    models?: readonly string[] | 404;
  } = {},
): Promise<ScriptedModelServer> {
  const queue = [...replies];
  const requests: RecordedRequest[] = [];
  const model = options.model ?? 'scripted-model';
  let counter = 0;

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').replace(/\?.*$/, '');
    if (request.method === 'GET' && /\/models$/.test(path)) {
      modelList(response, options.models ?? [model]);
      return;
    }
    if (request.method !== 'POST' || !/\/chat\/completions$/.test(path)) {
      json(response, 404, { error: { message: `no route ${request.method} ${path}`, type: 'invalid_request_error' } });
      return;
    }
    const body = JSON.parse(await readBody(request)) as RecordedRequest['body'];
    requests.push({ body, headers: request.headers });
    if (options.rejectStreamOptions === true && body.stream_options !== undefined) {
      json(response, 400, {
        error: {
          message: 'Unrecognized request argument supplied: stream_options',
          type: 'invalid_request_error',
          param: 'stream_options',
        },
      });
      return;
    }
    const reply = queue.shift();
    if (reply === undefined) {
      json(response, 500, { error: { message: 'the scripted model has no more replies', type: 'server_error' } });
      return;
    }
    if (reply.delayMs !== undefined) await sleep(reply.delayMs, request);
    if (answeredWhole(response, reply)) return;
    const id = `chatcmpl-scripted-${++counter}`;
    const chunks = replyChunks(reply, id, model, body.stream_options?.include_usage === true);
    if (body.stream !== true) {
      json(response, 200, completion(reply, id, model));
      return;
    }
    await streamReply(response, reply, chunks, id, model);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => queue.length,
    push: (...more) => {
      queue.push(...more);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A scripted HTTP error, or a recorded stream sent as it is: answered in one piece. */
function answeredWhole(response: ServerResponse, reply: ScriptedReply): boolean {
  if (reply.error !== undefined) {
    scriptedError(response, reply.error);
    return true;
  }
  if (reply.rawStream === undefined) return false;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(reply.rawStream);
  return true;
}

function pieces(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size) parts.push(text.slice(index, index + size));
  return parts;
}

function argumentsText(call: { arguments: string | Record<string, unknown> }): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function replyChunks(
  reply: ScriptedReply,
  id: string,
  model: string,
  includeUsage: boolean,
): Record<string, unknown>[] {
  const size = reply.chunkSize ?? 7;
  const base = { id, object: 'chat.completion.chunk', created: 0, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: Record<string, unknown>[] = [chunk({ role: 'assistant', content: '' })];
  for (const part of pieces(reply.text ?? '', size)) chunks.push(chunk({ content: part }));
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id ?? `call_${id.slice(-4)}_${index}`,
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    );
    for (const part of pieces(argumentsText(call), size))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  }
  chunks.push(chunk({}, (reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop'));
  const usage = usageOf(reply);
  if (includeUsage && usage !== undefined && reply.endless !== true) chunks.push({ ...base, choices: [], usage });
  return chunks;
}

function usageOf(reply: ScriptedReply): Record<string, number> | undefined {
  if (reply.usage === undefined) return undefined;
  const { prompt_tokens, completion_tokens } = reply.usage;
  return { ...reply.usage, total_tokens: reply.usage.total_tokens ?? prompt_tokens + completion_tokens };
}

function completion(reply: ScriptedReply, id: string, model: string): Record<string, unknown> {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${id.slice(-4)}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: usageOf(reply) ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Between chunks: the next turn of the event loop, or the scripted delay. */
function pace(delayMs: number): Promise<void> {
  return new Promise((resolve) => (delayMs > 0 ? setTimeout(resolve, delayMs) : setImmediate(resolve)));
}

function untilClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (response.socket === null || response.socket.destroyed) resolve();
    else response.socket.once('close', () => resolve());
  });
}

/** The scripted chunks, then 1 KiB text chunks for as long as the client reads (waiting on backpressure). */
async function streamEndlessly(
  response: ServerResponse,
  head: readonly unknown[],
  delayMs: number,
  chunk: (content: string) => unknown,
): Promise<void> {
  for (const part of head) response.write(`data: ${JSON.stringify(part)}\n\n`);
  const line = `data: ${JSON.stringify(chunk('x'.repeat(1024)))}\n\n`;
  let open = true;
  response.socket?.once('close', () => {
    open = false;
  });
  while (open && !response.destroyed) {
    if (!response.write(line))
      await new Promise((resolve) => {
        response.once('drain', resolve);
        response.once('close', resolve);
      });
    else await pace(delayMs);
  }
}

function sleep(ms: number, request: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    request.socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function scriptedError(response: ServerResponse, error: NonNullable<ScriptedReply['error']>): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter);
  response.writeHead(error.status, headers);
  const message = error.message ?? `scripted error ${error.status}`;
  response.end(JSON.stringify({ error: { message, type: 'scripted_error', code: error.code ?? null } }));
}

/** The reply as server-sent events, with the faults it is scripted to have. */
async function streamReply(
  response: ServerResponse,
  reply: ScriptedReply,
  chunks: readonly unknown[],
  id: string,
  model: string,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  if (reply.endless === true) {
    await streamEndlessly(response, chunks.slice(0, -1), reply.chunkDelayMs ?? 0, (content) => ({
      id,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    }));
    return;
  }
  for (const [index, chunk] of chunks.entries()) {
    if (reply.cutAfterChunks !== undefined && index >= reply.cutAfterChunks) {
      // The connection drops mid-stream: no finish_reason, no [DONE].
      response.socket?.destroy();
      return;
    }
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    await pace(reply.chunkDelayMs ?? 0);
  }
  // A server that forgets `[DONE]`: the finish was sent, the connection stays open.
  if (reply.withoutDone === true) await untilClosed(response);
  else response.end('data: [DONE]\n\n');
}
