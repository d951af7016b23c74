import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers.js';

// Model servers that misbehave in ways the scripted server does not script: a chunk without
// `choices`, a chunk that is not JSON. The turn ends with a clear error about the endpoint —
// never an internal TypeError ("Cannot read properties of undefined") — and nothing runs.
let server: Server | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
});

async function rawServer(body: string): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

describe('a model server that misbehaves', () => {
  it('a chunk without choices is a reply that is not acted on, with a clear error', async () => {
    const baseURL = await rawServer('data: {"id":"x","object":"chat.completion.chunk"}\n\ndata: [DONE]\n\n');
    harness = await createHarness([], { baseURL });
    const outcome = await harness.turn('hello');
    expect(outcome.reason).toBe('error');
    const errors = harness.events
      .filter((event) => event.type === 'error')
      .map((event) => (event as { message: string }).message);
    expect(errors.join('\n')).not.toMatch(/Cannot read properties/);
    expect(errors.join('\n')).toMatch(/nothing in it was executed/);
  });

  it('a chunk that is not JSON is an error that names the endpoint, not a parser message', async () => {
    const baseURL = await rawServer('data: {not json\n\n');
    harness = await createHarness([], { baseURL });
    const outcome = await harness.turn('hello');
    expect(outcome.reason).toBe('error');
    const errors = harness.events
      .filter((event) => event.type === 'error')
      .map((event) => (event as { message: string }).message);
    expect(errors.join('\n')).toMatch(/sent a reply riskgate could not read/);
  });
});
