import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { evaluateToolCall, type NetworkPolicy } from '@riskgate/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedResolver, createHttpRequestTool, type Resolver } from '../src/index.js';
import { executeAssessed } from './execute-assessed.js';

/** Redirects judged against what was approved, and DNS that never stalls the gate: real servers on 127.0.0.1. */
const tool = createHttpRequestTool({ resolve: async () => ['93.184.216.34'] });

describe('DNS never stalls the gate', () => {
  it('a resolver that takes 10 s is cut at the bound; the call is not whitelisted; the late answer is cached', async () => {
    let calls = 0;
    const slow: Resolver = (hostname) =>
      new Promise((resolve) => {
        calls++;
        setTimeout(() => resolve(hostname === 'slow.example' ? ['93.184.216.34'] : []), 600);
      });
    const slowTool = createHttpRequestTool({ resolve: slow, resolveTimeoutMs: 200 });
    const started = Date.now();
    const first = await evaluateToolCall(
      slowTool,
      { method: 'GET', url: 'https://slow.example/' },
      { cwd: '.' },
      { mode: 'smart', rules: [] },
    );
    expect(Date.now() - started).toBeLessThan(500);
    expect(first.decision).toMatchObject({ action: 'confirm', whitelisted: false });
    expect(first.decision.reasons.join('\n')).toMatch(/not resolved|took longer/);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const second = await evaluateToolCall(
      slowTool,
      { method: 'GET', url: 'https://slow.example/' },
      { cwd: '.' },
      { mode: 'smart', rules: [] },
    );
    expect(second.decision).toMatchObject({ action: 'execute', whitelisted: true });
    expect(calls).toBe(1);
  });

  it('the default bound is about 1.5 s, and answers expire', async () => {
    let now = 0;
    let calls = 0;
    const never: Resolver = () => new Promise(() => undefined);
    const started = Date.now();
    await expect(boundedResolver(never)('x.example')).rejects.toMatchObject({ code: 'EAI_AGAIN' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(Date.now() - started).toBeLessThan(2_500);
    const counting = boundedResolver(async () => [`10.0.0.${++calls}`], { now: () => now, ttlMs: 1_000 });
    expect(await counting('a.example')).toEqual(['10.0.0.1']);
    expect(await counting('A.EXAMPLE')).toEqual(['10.0.0.1']);
    now = 1_001;
    expect(await counting('a.example')).toEqual(['10.0.0.2']);
  });
});

describe('redirects against real servers on 127.0.0.1: judged against what was approved', () => {
  let a: Server;
  let b: Server;
  let baseA: string;
  let baseB: string;
  const seenA: string[] = [];
  const seenB: string[] = [];
  beforeAll(async () => {
    b = createServer((request: IncomingMessage, response: ServerResponse) => {
      seenB.push(`${request.method} ${request.url}`);
      response.end('admin panel');
    });
    await new Promise<void>((resolve) => b.listen(0, '127.0.0.1', resolve));
    baseB = `http://127.0.0.1:${(b.address() as AddressInfo).port}`;
    a = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        seenA.push(`${request.method} ${request.url} ${body}`.trim());
        const path = request.url ?? '/';
        const redirect = (status: number, location: string) => {
          response.writeHead(status, { location });
          response.end();
        };
        if (path === '/to-b') redirect(302, `${baseB}/admin`);
        else if (path === '/to-localhost-b')
          redirect(302, `http://localhost:${(b.address() as AddressInfo).port}/admin`);
        else if (path === '/to-https') redirect(301, `https://127.0.0.1:${(a.address() as AddressInfo).port}/x`);
        else if (path === '/post-307') redirect(307, '/sink');
        else if (path === '/post-308') redirect(308, '/sink');
        else if (path === '/put-302') redirect(302, '/sink');
        else if (path === '/same') redirect(302, '/final');
        else if (path === '/final') response.end('final');
        else response.end(`sink ${body}`);
      });
    });
    await new Promise<void>((resolve) => a.listen(0, '127.0.0.1', resolve));
    baseA = `http://127.0.0.1:${(a.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const server of [a, b]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const loopback: NetworkPolicy = { allowLoopback: true, allowPrivate: false };
  const run = (args: Record<string, unknown>, readOnly: boolean) =>
    executeAssessed(tool, args as never, {
      cwd: '.',
      network: loopback,
      signal: new AbortController().signal,
      readOnly,
    });

  it.each([
    ['a whitelisted GET, 302 to another port', '/to-b', true],
    ['a confirmed GET, 302 to another port', '/to-b', false],
    ['a whitelisted GET, 302 to another host name on another port', '/to-localhost-b', true],
  ])('%s is not followed, and the model is told where it leads', async (_name, path, readOnly) => {
    const before = seenB.length;
    const result = await run({ method: 'GET', url: `${baseA}${path}` }, readOnly);
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.status).toBe(302);
    expect(result.data.redirectStopped?.to).toMatch(/\/admin$/);
    expect(result.forModel).toMatch(
      /redirected to .*\/admin, not followed: it leads to another (port|host).*new http_request call/,
    );
    expect(seenB.length).toBe(before);
  });

  it('a GET redirected to https on the same host is not followed (another scheme and port)', async () => {
    const result = await run({ method: 'GET', url: `${baseA}/to-https` }, true);
    expect(result.type === 'tool-success' && result.data.redirectStopped?.reason).toMatch(/another port|scheme/);
  });

  it.each([
    ['POST', '/post-307'],
    ['POST', '/post-308'],
    ['PUT', '/put-302'],
    ['DELETE', '/put-302'],
    ['PATCH', '/post-307'],
  ])('a %s redirected (%s) to another path is not re-sent with its body', async (method, path) => {
    const before = seenA.length;
    const result = await run({ method, url: `${baseA}${path}`, body: 'payload' }, false);
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.redirectStopped).toMatchObject({
      to: `${baseA}/sink`,
      reason: `a redirect of a ${method} is a new request`,
    });
    expect(seenA.slice(before)).toEqual([`${method} ${path} payload`]);
  });

  it.each([['GET'], ['HEAD'], ['OPTIONS']])('a %s never sends a body, even when the call has one', async (method) => {
    const before = seenA.length;
    await run({ method, url: `${baseA}/sink`, body: 'smuggled' }, true);
    expect(seenA.slice(before)).toEqual([`${method} /sink`]);
  });

  it.each([['OPTIONS'], ['DELETE'], ['POST']])('a %s without a body is sent and answered', async (method) => {
    const result = await run({ method, url: `${baseA}/sink`, timeout_ms: 3_000 }, false);
    expect(result).toMatchObject({ type: 'tool-success', data: { status: 200 } });
  });

  it('a GET redirected on the same host and port is followed hop by hop', async () => {
    const result = await run({ method: 'GET', url: `${baseA}/same` }, true);
    expect(result).toMatchObject({
      type: 'tool-success',
      data: { status: 200, body: 'final', redirects: [`${baseA}/final`] },
    });
  });
});
