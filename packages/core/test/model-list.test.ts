import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { listModels } from '../src/model-list.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A real HTTP server on loopback; the real SDK talks to it. */
async function endpoint(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const client = (baseURL: string) => new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries: 0 });

describe('listModels', () => {
  it('lists the endpoint models, sorted and without repeats', async () => {
    const baseURL = await endpoint((request, response) => {
      expect(request.url).toBe('/v1/models');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: ['b', 'a', 'b'].map((id) => ({ id, object: 'model' })) }));
    });
    expect(await listModels(client(baseURL), { baseURL })).toEqual({ models: ['a', 'b'] });
  });

  it('says the endpoint has no /models when it answers 404', async () => {
    const baseURL = await endpoint((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Not Found' } }));
    });
    const listed = await listModels(client(baseURL), { baseURL });
    expect(listed).toEqual({
      error: `${baseURL} does not list its models (no /models route); /model <name> switches by name`,
    });
  });

  it('gives up on an endpoint that never answers within the wait', async () => {
    const baseURL = await endpoint(() => {
      // Never answers.
    });
    const started = Date.now();
    const listed = await listModels(client(baseURL), { baseURL, timeoutMs: 400 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(listed).toEqual({
      error: `${baseURL} did not list its models within 0.4 s; /model <name> switches by name`,
    });
  });

  it('says when the endpoint cannot be reached', async () => {
    const baseURL = await endpoint(() => {});
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const listed = await listModels(client(baseURL), { baseURL });
    expect('error' in listed && listed.error).toMatch(
      /^could not list the models: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
  });
});
