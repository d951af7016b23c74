import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatResponseForModel } from '../src/format-response.js';
import { performHttpRequest } from '../src/index.js';

/** Every method, with and without a body, reaches the server and comes back within the timeout. */
describe('performHttpRequest sends every method against a real server on 127.0.0.1', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        response.writeHead(200, {
          'content-type': 'application/json',
          allow: 'GET, HEAD, OPTIONS',
          'access-control-allow-methods': 'GET, POST',
          'set-cookie': 'session=s3cr3t-cookie-value',
        });
        // HEAD answers carry no body; the status is the evidence there.
        response.end(
          JSON.stringify({ method: request.method, body, userAgent: request.headers['user-agent'] ?? null }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (method: string, body?: string, headers: Record<string, string> = {}) =>
    performHttpRequest({
      method,
      url: `${base}/x`,
      headers,
      ...(body === undefined ? {} : { body }),
      timeoutMs: 3_000,
      signal: new AbortController().signal,
      maxBodyBytes: 10_000,
      maxRedirects: 0,
      resolve: async () => ['127.0.0.1'],
      policy: { allowLoopback: true, allowPrivate: false },
    });

  it.each([
    ['GET', undefined],
    ['OPTIONS', undefined],
    ['DELETE', undefined],
    ['POST', undefined],
    ['PUT', undefined],
    ['PATCH', undefined],
    ['delete', undefined],
    ['options', undefined],
    ['DELETE', '{"id":4}', '{"id":4}'],
    ['OPTIONS', 'probe', ''],
    ['POST', '{"a":1}', '{"a":1}'],
    ['PUT', 'x', 'x'],
    ['PATCH', '[]', '[]'],
  ] as [string, string | undefined, string?][])('%s with body %j', async (method, body, received) => {
    const result = await send(method, body);
    expect(result).toMatchObject({ status: 200 });
    if ('type' in result) return;
    // A body on OPTIONS is dropped: it is judged as a read (GET and HEAD likewise).
    expect(JSON.parse(result.body)).toMatchObject({ method: method.toUpperCase(), body: received ?? '' });
  });

  it.each([
    'OPTIONS',
    'HEAD',
  ])('%s keeps Allow and the CORS answer for the model and the person, never a cookie', async (method) => {
    const result = await send(method);
    if ('type' in result) throw new Error(result.message);
    expect(result.headers).toMatchObject({ allow: 'GET, HEAD, OPTIONS', 'access-control-allow-methods': 'GET, POST' });
    const text = await formatResponseForModel(result);
    expect(text).toContain('allow: GET, HEAD, OPTIONS');
    expect(text).toContain('access-control-allow-methods: GET, POST');
    expect(text).not.toContain('s3cr3t-cookie-value');
  });

  it('HEAD comes back', async () => {
    expect(await send('HEAD')).toMatchObject({ status: 200, body: '' });
  });

  it('says it is riskgate, not got; a User-Agent the model gave is kept', async () => {
    const plain = await send('GET');
    if ('type' in plain) throw new Error(plain.message);
    expect(JSON.parse(plain.body).userAgent).toMatch(/^riskgate \(Node.js v/);
    const given = await send('GET', undefined, { 'User-Agent': 'curl/8.5.0' });
    if ('type' in given) throw new Error(given.message);
    expect(JSON.parse(given.body).userAgent).toBe('curl/8.5.0');
  });
});
