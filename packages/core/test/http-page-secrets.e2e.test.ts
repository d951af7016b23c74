import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpRequestTool } from '@riskgate/tools-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatedExecutor } from '../src/index.js';

/**
 * A web page as the model reads it (html-to-text keeps links with their address): what the page
 * hides in a link's href is now in the text, and the output guard still withholds it; the body's
 * bound still cuts it. A real server on loopback, the real tool, the gated executor.
 */
const TOKEN_IN_HREF = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
const TOKEN_IN_TEXT = 'glpat-Zx9Qw8Er7Ty6Ui5Op4As';
const pages: Record<string, string> = {
  '/link': `<html><body><p>Install: <a href="https://example.org/setup?token=${TOKEN_IN_HREF}">the setup page</a>.</p></body></html>`,
  '/relative': `<p><a href="/hook?access_token=${TOKEN_IN_HREF}">hook</a></p>`,
  '/text': `<html><body><h1>Deploy</h1><p>Use the token <code>${TOKEN_IN_TEXT}</code> to push.</p></body></html>`,
  '/both': `<ul><li><a href="https://example.org/?key=${TOKEN_IN_HREF}">one</a></li><li>${TOKEN_IN_TEXT}</li></ul>`,
  '/long': `<p><a href="https://example.org/docs">docs</a></p><p>${'lorem ipsum '.repeat(20_000)}</p>`,
};
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    const page = pages[request.url ?? ''];
    response.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const network = { allowLoopback: true, allowPrivate: false };
const gate = () =>
  createGatedExecutor({
    tools: [createHttpRequestTool({ network, maxBodyBytes: 50_000 })],
    policy: { mode: 'smart', rules: [] },
    assess: { cwd: process.cwd(), network },
  });
const get = async (path: string) =>
  gate().run({ id: path, name: 'http_request', arguments: { method: 'GET', url: `${base}${path}` } });

describe('a web page read unasked', () => {
  it.each([
    [
      'a link whose href holds a token',
      '/link',
      [TOKEN_IN_HREF],
      /the setup page \[https:\/\/example\.org\/setup\?token=\[withheld:/,
    ],
    [
      'a relative link whose href holds a token',
      '/relative',
      [TOKEN_IN_HREF],
      /hook \[http:\/\/127\.0\.0\.1:\d+\/hook\?access_token=\[withheld:/,
    ],
    ['a token in the text', '/text', [TOKEN_IN_TEXT], /Use the token \[withheld: [^\]]+\] to push/],
    [
      'tokens in a link and in the text',
      '/both',
      [TOKEN_IN_HREF, TOKEN_IN_TEXT],
      /one \[https:\/\/example\.org\/\?key=\[withheld:/,
    ],
  ])('withholds %s from the model', async (_case, path, secrets, shape) => {
    const outcome = await get(path);
    expect(outcome.state).toBe('succeeded');
    for (const secret of secrets) expect(outcome.forModel).not.toContain(secret);
    expect(outcome.forModel).toMatch(shape);
    // The person sees what the page said.
    for (const secret of secrets) expect(outcome.forPerson ?? '').toContain(secret);
  });

  it('keeps links and cuts the body at its bound', async () => {
    const outcome = await get('/long');
    expect(outcome.state).toBe('succeeded');
    expect(outcome.forModel).toContain('docs [https://example.org/docs]');
    expect(outcome.forModel).toMatch(/\[body cut at 50,000 bytes\]$/);
    expect(outcome.forModel.length).toBeLessThan(55_000);
  });
});
