import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpRequestTool, performHttpRequest } from '../src/index.js';
import { executeAssessed } from './execute-assessed.js';

// A write whose connection drops or stalls after it was sent may have been carried out (issue 19):
// the model must hear "outcome unknown — check before retrying", never a plain failure it retries.

describe('the outcome of a request that was sent and never answered', { timeout: 20_000 }, () => {
  let server: Server;
  let base: string;
  const received: string[] = [];
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push(`${request.method} ${request.url} ${body}`);
        // The server acts on the request, then its answer is lost.
        if (request.url === '/drop') request.socket.destroy();
        else if (request.url === '/answered-then-drop') {
          response.writeHead(201, { 'content-type': 'text/plain' });
          response.write('part');
          setTimeout(() => request.socket.destroy(), 50);
        }
        // '/stall': never answers.
      });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (
    method: string,
    path: string,
    options: { timeoutMs?: number; signal?: AbortSignal; url?: string } = {},
  ) =>
    performHttpRequest({
      method,
      url: options.url ?? `${base}${path}`,
      headers: {},
      ...(method === 'GET' ? {} : { body: '{"amount":100}' }),
      timeoutMs: options.timeoutMs ?? 5_000,
      signal: options.signal ?? new AbortController().signal,
      maxBodyBytes: 10_000,
      maxRedirects: 0,
      resolve: async () => ['127.0.0.1'],
      policy: { allowLoopback: true, allowPrivate: false },
    });

  it.each([
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
  ])('a %s whose connection drops after it was sent is "outcome unknown"', async (method) => {
    const before = received.length;
    const result = await send(method, '/drop');
    expect(received.length).toBe(before + 1);
    expect(result).toMatchObject({ type: 'http-error', code: 'http-outcome-unknown' });
    expect((result as { message: string }).message).toMatch(
      new RegExp(
        `^outcome unknown: the ${method} to 127\\.0\\.0\\.1:\\d+ was sent and the connection failed .*may have acted on it\\. Check before retrying`,
      ),
    );
  });

  it('a POST that gets no answer within its timeout is "outcome unknown", not a timeout', async () => {
    const result = await send('POST', '/stall', { timeoutMs: 800 });
    expect(result).toMatchObject({ code: 'http-outcome-unknown' });
    expect((result as { message: string }).message).toContain('no answer came within 800 ms');
  });

  it('a POST cancelled while it waits for its answer is "outcome unknown", not "cancelled"', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const result = await send('POST', '/stall', { signal: controller.signal });
    expect(result).toMatchObject({ code: 'http-outcome-unknown' });
    expect((result as { message: string }).message).toContain('it was cancelled');
  });

  it('a POST answered before its body was cut says what the server answered', async () => {
    const result = await send('POST', '/answered-then-drop');
    expect(result).toMatchObject({ code: 'http-error' });
    expect((result as { message: string }).message).toMatch(/answered 201, then .* the server received it/);
  });

  it('a GET that drops is a plain failure (a read changed nothing), and a refused POST was never sent', async () => {
    expect(await send('GET', '/drop')).toMatchObject({ code: 'http-error' });
    expect(await send('GET', '/stall', { timeoutMs: 500 })).toMatchObject({ code: 'http-timeout' });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await send('POST', '/x', { url: `http://127.0.0.1:${port}/x` })).toMatchObject({
      code: 'http-connection-refused',
    });
  });

  it('a POST over TLS whose handshake never completes sent nothing: a plain timeout, not "outcome unknown"', async () => {
    const silent = createNetServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const result = await send('POST', '/x', { url: `https://127.0.0.1:${port}/x`, timeoutMs: 800 });
      expect(result).toMatchObject({ code: 'http-timeout' });
    } finally {
      silent.close();
    }
  });

  it('the tool marks the failure outcomeUnknown, so the gate audits it as unknown', async () => {
    const tool = createHttpRequestTool({
      resolve: async () => ['127.0.0.1'],
      network: { allowLoopback: true, allowPrivate: false },
    });
    const result = await executeAssessed(
      tool,
      { method: 'POST', url: `${base}/drop`, body: '{}' },
      { cwd: process.cwd(), signal: new AbortController().signal, readOnly: false },
    );
    expect(result).toMatchObject({ type: 'tool-error', code: 'http-outcome-unknown', outcomeUnknown: true });
  });
});
