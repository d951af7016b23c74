import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { evaluateToolCall, type GatePolicy, judgeEffects, type NetworkPolicy, parseRule } from '@riskgate/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assessHttpRequest,
  createHttpRequestTool,
  htmlToText,
  performHttpRequest,
  type Resolver,
} from '../src/index.js';
import { executeAssessed } from './execute-assessed.js';

/** Names tests use, and where they lead; nothing here leaves the machine. */
const names: Record<string, string[]> = {
  'example.com': ['93.184.216.34'],
  'api.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'evil.example': ['127.0.0.1'],
  'split.example': ['93.184.216.34', '10.1.2.3'],
  'meta.example': ['169.254.169.254'],
};
const resolver: Resolver = async (hostname) => {
  const found = names[hostname];
  if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};
const strict: NetworkPolicy = { allowLoopback: false, allowPrivate: false };
const assess = async (
  method: string,
  url: string,
  extra: { headers?: Record<string, string>; body?: string } = {},
  network = strict,
) =>
  judgeEffects((await assessHttpRequest({ method, url, ...extra }, resolver)).effects, { cwd: process.cwd(), network });

describe('spec 000 / 003: HTTP request risk assessment', () => {
  it.each(['GET', 'HEAD', 'OPTIONS', 'get'])('%s to a public host is whitelisted', async (method) => {
    const assessment = await assess(method, 'https://example.com/index.html');
    expect(assessment).toMatchObject({ whitelisted: true, level: 'low' });
  });

  it.each([
    ['POST', 'medium', /sends POST to https:\/\/example.com/],
    ['PUT', 'medium', /sends PUT/],
    ['PATCH', 'medium', /sends PATCH/],
    ['DELETE', 'high', /sends DELETE to https:\/\/example.com:443 \(asks the server to remove a resource\)/],
  ])('%s requires confirmation', async (method, level, reason) => {
    const assessment = await assess(method, 'https://example.com/items/1');
    expect(assessment.whitelisted).toBe(false);
    expect(assessment.level).toBe(level);
    expect(assessment.reasons.join('\n')).toMatch(reason);
  });

  it('goes through the gate: GET runs, POST asks, risk_level low runs a POST, high asks about a GET', async () => {
    const tool = createHttpRequestTool({ resolve: resolver });
    const gate = (args: unknown) => evaluateToolCall(tool, args, { cwd: '.' }, { mode: 'smart', rules: [] });
    expect((await gate({ method: 'GET', url: 'https://example.com/' })).decision).toMatchObject({
      action: 'execute',
      source: 'whitelist',
    });
    expect((await gate({ method: 'POST', url: 'https://example.com/', body: '{}' })).decision).toMatchObject({
      action: 'confirm',
      source: 'default',
    });
    expect((await gate({ method: 'POST', url: 'https://example.com/', risk_level: 'low' })).decision).toMatchObject({
      action: 'execute',
      source: 'llm',
    });
    expect((await gate({ method: 'GET', url: 'https://example.com/', risk_level: 'high' })).decision).toMatchObject({
      action: 'confirm',
      source: 'llm',
    });
    expect((await gate({ method: 'TRACE', url: 'https://example.com/' })).decision).toMatchObject({
      action: 'deny',
      source: 'invalid',
    });
    expect((await gate({ method: 'GET', url: 'not a url' })).decision).toMatchObject({
      action: 'deny',
      source: 'invalid',
    });
  });
});

describe('attacks: addresses that are not public, by name and by IP form', () => {
  it.each([
    ['http://127.0.0.1/', /loopback/],
    ['http://0x7f.1/', /loopback/],
    ['http://2130706433/', /loopback/],
    ['http://017700000001/', /loopback/],
    ['http://127.1/', /loopback/],
    ['http://[::1]/', /loopback/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', /loopback/],
    ['http://localhost:8080/', /loopback/],
    ['http://app.localhost/', /loopback/],
    ['http://LOCALHOST./', /loopback/],
    ['http://0.0.0.0/', /loopback/],
    ['http://[::]/', /loopback/],
    ['http://10.0.0.1/', /private network/],
    ['http://172.16.5.4/', /private network/],
    ['http://192.168.1.1/', /private network/],
    ['http://100.64.0.1/', /private network/],
    ['http://[fc00::1]/', /private network/],
    ['http://[fe80::1]/', /private network/],
    ['http://169.254.169.254/latest/meta-data/', /metadata/],
    ['http://0xa9fea9fe/', /metadata/],
    ['http://2852039166/', /metadata/],
    ['http://[::ffff:169.254.169.254]/', /metadata/],
    ['http://[fd00:ec2::254]/', /metadata/],
    ['http://metadata.google.internal/computeMetadata/v1/', /metadata/],
    ['http://100.100.100.200/', /metadata/],
    ['http://evil.example/', /resolves to 127.0.0.1/],
    ['http://split.example/', /resolves to 10.1.2.3/],
    ['http://meta.example/', /resolves to 169.254.169.254.*metadata/],
    ['http://nowhere.invalid/', /does not resolve|not resolved/],
    ['https://example.com@127.0.0.1/', /user name in the URL/],
    ['http://[2002:7f00:1::]/', /loopback/],
    ['http://[64:ff9b::7f00:1]/', /loopback/],
    ['file:///etc/shadow', /password hashes/],
    ['ftp://example.com/x', /not HTTP/],
    ['gopher://127.0.0.1:6379/_FLUSHALL', /not HTTP/],
  ])('GET %s is not whitelisted', async (url, reason) => {
    const assessment = await assess('GET', url);
    expect(assessment.whitelisted).toBe(false);
    expect(assessment.reasons.join('\n')).toMatch(reason);
  });

  it('rates metadata high and loopback medium', async () => {
    expect((await assess('GET', 'http://169.254.169.254/')).level).toBe('high');
    expect((await assess('GET', 'http://127.0.0.1/')).level).toBe('medium');
  });

  it('allows loopback and private ranges only when configured, and metadata never', async () => {
    const open = { allowLoopback: true, allowPrivate: true };
    expect((await assess('GET', 'http://127.0.0.1:3000/', {}, open)).whitelisted).toBe(true);
    expect((await assess('GET', 'http://10.0.0.1/', {}, open)).whitelisted).toBe(true);
    expect((await assess('GET', 'http://169.254.169.254/', {}, open)).whitelisted).toBe(false);
    expect((await assess('GET', 'http://[fd00:ec2::254]/', {}, open)).whitelisted).toBe(false);
  });
});

describe('attacks: secrets carried to a host', () => {
  it.each([
    [
      { url: 'https://example.com/?access_token=abcdef0123456789' },
      /access token in the query parameter "access_token"/,
    ],
    [{ url: 'https://example.com/?key=AKIAIOSFODNN7EXAMPLE' }, /AWS access key/],
    [{ url: 'https://user:hunter2@example.com/' }, /password in the URL/],
    [
      { url: 'https://example.com/', headers: { Authorization: 'Bearer abc' } },
      /HTTP authentication in the Authorization header/,
    ],
    [{ url: 'https://example.com/', headers: { Cookie: 'session=1' } }, /session cookies in the Cookie header/],
    [
      { url: 'https://example.com/', headers: { 'X-Note': 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' } },
      /GitHub token in the X-Note header/,
    ],
    [{ url: 'https://example.com/', body: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc' }, /private key/],
    [{ url: 'https://example.com/?q=-----BEGIN%20RSA%20PRIVATE%20KEY-----' }, /private key/],
  ] as [
    { url: string; headers?: Record<string, string>; body?: string },
    RegExp,
  ][])('GET %j asks', async (request, reason) => {
    const assessment = await assess('GET', request.url, request);
    expect(assessment.whitelisted).toBe(false);
    expect(assessment.reasons.join('\n')).toMatch(reason);
  });

  it('names the rule subject without the user info, so a rule cannot be fooled by it', async () => {
    const tool = createHttpRequestTool({ resolve: resolver });
    const rule = parseRule('http_request(GET https://example.com/*)', 'allow');
    const policy: GatePolicy = { mode: 'smart', rules: rule.ok ? [rule.rule] : [] };
    const fooled = await evaluateToolCall(
      tool,
      { method: 'POST', url: 'https://example.com@evil.example/' },
      { cwd: '.' },
      policy,
    );
    expect(fooled.decision.action).toBe('confirm');
    const allowed = await evaluateToolCall(
      tool,
      { method: 'GET', url: 'https://example.com/a?b=1', headers: { Authorization: 'Bearer x' } },
      { cwd: '.' },
      policy,
    );
    expect(allowed.decision).toMatchObject({ action: 'execute', source: 'rule' });
  });
});

describe('describe: what the panel shows', () => {
  it('shows the request line, headers with credentials hidden, and a body preview', () => {
    const tool = createHttpRequestTool({ resolve: resolver });
    const description = tool.describe(
      {
        method: 'POST',
        url: 'https://example.com/api',
        headers: { Authorization: 'Bearer sk-secret-token-value', 'Content-Type': 'application/json' },
        body: '{"a":1}',
      },
      { cwd: '.' },
      { hostClass: 'public' },
    );
    expect(description).toEqual({
      kind: 'http',
      requestLine: 'POST https://example.com/api',
      headers: [
        `Authorization: Bearer *** (${'Bearer sk-secret-token-value'.length} characters, hidden)`,
        'Content-Type: application/json',
      ],
      bodyPreview: '{"a":1}',
      details: [],
    });
  });
});

describe('requests against a real server on 127.0.0.1', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      seen.push(`${request.method} ${request.url}`);
      const path = request.url ?? '/';
      if (path === '/json') {
        response.writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'x-internal': 'hidden' });
        response.end('{"name":"riskgate","tools":["sql","command"]}');
      } else if (path === '/html') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          '<html><head><title>t</title><style>p{}</style></head><body><h1>Hello &amp; welcome</h1><script>alert(1)</script><p>First<br>second</p><ul><li>one</li><li>two</li></ul></body></html>',
        );
      } else if (path === '/huge') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 80 && response.write(chunk)) sent++;
          if (sent < 80) response.once('drain', pump);
          else response.end();
        };
        pump();
      } else if (path === '/to-metadata') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' });
        response.end();
      } else if (path === '/to-private') {
        response.writeHead(301, { location: 'http://10.0.0.1/admin' });
        response.end();
      } else if (path === '/to-json') {
        response.writeHead(302, { location: '/json' });
        response.end();
      } else if (path === '/see-other') {
        response.writeHead(303, { location: '/echo' });
        response.end();
      } else if (path === '/loop') {
        response.writeHead(302, { location: '/loop' });
        response.end();
      } else if (path === '/slow') {
        setTimeout(() => response.end('late'), 5_000);
      } else if (path === '/echo') {
        let body = '';
        request.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({ method: request.method, body, authorization: request.headers.authorization ?? null }),
          );
        });
      } else if (path === '/binary') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.from([0, 1, 2, 0, 255]));
      } else {
        response.writeHead(404);
        response.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const loopbackTool = createHttpRequestTool({
    resolve: resolver,
    network: { allowLoopback: true },
    maxBodyBytes: 100_000,
  });
  const run = (
    args: Parameters<typeof loopbackTool.execute>[0],
    readOnly = true,
    signal = new AbortController().signal,
  ) => executeAssessed(loopbackTool, args, { cwd: '.', signal, readOnly });

  it('returns status, selected headers and pretty-printed JSON', async () => {
    const result = await run({ method: 'GET', url: `${base}/json` });
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.status).toBe(200);
    expect(result.data.headers).toMatchObject({ 'content-type': 'application/json', etag: '"v1"' });
    expect(result.data.headers).not.toHaveProperty('x-internal');
    expect(result.forModel).toContain('HTTP 200 OK');
    expect(result.forModel).toContain('{\n  "name": "riskgate",');
  });

  it('reduces HTML to text', async () => {
    const result = await run({ method: 'GET', url: `${base}/html` });
    expect(result.type === 'tool-success' && result.forModel.split('\n\n').slice(1).join('\n\n')).toBe(
      'Hello & welcome\n\nFirst\nsecond\n\n * one\n * two',
    );
  });

  it('stops reading a huge body at the cap', async () => {
    const result = await run({ method: 'GET', url: `${base}/huge` });
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.truncated).toBe(true);
    expect(result.data.body.length).toBe(100_000);
    expect(result.forModel).toMatch(/body cut at 100,000 bytes/);
  });

  it('detects a binary body', async () => {
    const result = await run({ method: 'GET', url: `${base}/binary` });
    expect(result.type === 'tool-success' && result.forModel).toMatch(/binary body, 5 bytes, not shown/);
  });

  it('follows a redirect that stays safe', async () => {
    const result = await run({ method: 'GET', url: `${base}/to-json` });
    expect(result).toMatchObject({ type: 'tool-success', data: { status: 200, redirects: [`${base}/json`] } });
  });

  it('assesses redirects hop by hop: a GET redirected to a metadata address stops there', async () => {
    const started = Date.now();
    const result = await run({ method: 'GET', url: `${base}/to-metadata` });
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.status).toBe(302);
    expect(result.data.redirectStopped).toMatchObject({
      to: 'http://169.254.169.254/latest/meta-data/iam/',
      reason: expect.stringMatching(/metadata/),
    });
    expect(result.forModel).toMatch(/not followed: .*metadata/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('does not follow a whitelisted GET into a private network', async () => {
    const result = await run({ method: 'GET', url: `${base}/to-private` });
    expect(result.type === 'tool-success' && result.data.redirectStopped?.reason).toMatch(/private network/);
  });

  it('does not follow a confirmed request to a metadata address either', async () => {
    const result = await run({ method: 'POST', url: `${base}/to-metadata`, body: 'x' }, false);
    expect(result.type === 'tool-success' && result.data.redirectStopped?.reason).toMatch(/new request/);
  });

  it('does not follow a redirect of a POST, even a 303 on the same host: it says where it leads', async () => {
    const before = seen.length;
    const result = await run({ method: 'POST', url: `${base}/see-other`, body: 'payload' }, false);
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.status).toBe(303);
    expect(result.data.redirectStopped).toMatchObject({
      to: `${base}/echo`,
      reason: 'a redirect of a POST is a new request',
    });
    expect(result.forModel).toMatch(/make a new http_request call/);
    expect(seen.slice(before)).toEqual(['POST /see-other']);
  });

  it('sends a confirmed POST with its body and headers', async () => {
    const result = await run(
      { method: 'POST', url: `${base}/echo`, body: '{"a":1}', headers: { Authorization: 'Bearer t' } },
      false,
    );
    expect(result.type === 'tool-success' && JSON.parse(result.data.body)).toEqual({
      method: 'POST',
      body: '{"a":1}',
      authorization: 'Bearer t',
    });
  });

  it('does not follow a redirect to another port of the same host, so credentials never reach it', async () => {
    const reached: string[] = [];
    const other = createServer((request, response) => {
      reached.push(`${request.method} ${request.url}`);
      response.end('admin');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const redirector = createServer((_request, response) => {
      response.writeHead(302, { location: `${otherBase}/admin` });
      response.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const redirectorBase = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    try {
      const crossed = await run(
        { method: 'GET', url: `${redirectorBase}/away`, headers: { Authorization: 'Bearer secret-token' } },
        false,
      );
      expect(crossed).toMatchObject({
        type: 'tool-success',
        data: {
          status: 302,
          redirectStopped: { to: `${otherBase}/admin`, reason: expect.stringMatching(/another port/) },
        },
      });
      expect(reached).toEqual([]);
      const same = await run(
        { method: 'GET', url: `${base}/to-json`, headers: { Authorization: 'Bearer secret-token' } },
        false,
      );
      expect(same).toMatchObject({ type: 'tool-success', data: { status: 200 } });
    } finally {
      redirector.closeAllConnections();
      other.closeAllConnections();
      await new Promise((resolve) => redirector.close(resolve));
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('stops redirect loops', async () => {
    const result = await run({ method: 'GET', url: `${base}/loop` });
    expect(result.type === 'tool-success' && result.data.redirectStopped?.reason).toMatch(/more than 5 redirects/);
  });

  it('lets a person-confirmed request reach loopback even when whitelisted requests may not', async () => {
    const strictTool = createHttpRequestTool({ resolve: resolver });
    const refused = await executeAssessed(
      strictTool,
      { method: 'GET', url: `${base}/json` },
      { cwd: '.', signal: new AbortController().signal, readOnly: true },
    );
    expect(refused).toMatchObject({ type: 'tool-error', code: 'http-blocked-address' });
    const confirmed = await executeAssessed(
      strictTool,
      { method: 'GET', url: `${base}/json` },
      { cwd: '.', signal: new AbortController().signal, readOnly: false },
    );
    expect(confirmed).toMatchObject({ type: 'tool-success', data: { status: 200 } });
  });

  it('checks the address it connects to: a name that resolves publicly when judged and to 127.0.0.1 at connect time is refused', async () => {
    // The first lookup (the hop check) sees a public address; the next one, made by the
    // connection itself, sees loopback — DNS rebinding.
    let lookups = 0;
    const rebinding: Resolver = async () => (++lookups <= 1 ? ['93.184.216.34'] : ['127.0.0.1']);
    const before = seen.length;
    const port = (server.address() as AddressInfo).port;
    const result = await performHttpRequest({
      method: 'GET',
      url: `http://rebind.example:${port}/json`,
      headers: {},
      timeoutMs: 5_000,
      signal: new AbortController().signal,
      maxBodyBytes: 1_000,
      maxRedirects: 5,
      resolve: rebinding,
      policy: { allowLoopback: false, allowPrivate: false },
    });
    expect(result).toMatchObject({
      type: 'http-error',
      code: 'http-blocked-address',
      message: expect.stringMatching(/resolved to 127.0.0.1/),
    });
    expect(lookups).toBe(2);
    expect(seen.length).toBe(before);
  });

  it('an approved request reaches only the kind of host the panel showed: a name public when judged, loopback when run, is refused', async () => {
    // The assessment (and the panel) saw a public address; by the time the person said yes (later
    // than the resolver's cache keeps an answer) the name points at 127.0.0.1. The approval was
    // for a public host, not for loopback.
    let lookups = 0;
    const rebinding: Resolver = async () => (++lookups <= 1 ? ['93.184.216.34'] : ['127.0.0.1']);
    const tool = createHttpRequestTool({ resolve: rebinding, resolveCacheMs: 0 });
    const port = (server.address() as AddressInfo).port;
    const args = { method: 'POST', url: `http://rebind.example:${port}/json`, body: '{}' } as const;
    const assessed = await tool.assess(args, { cwd: '.' });
    expect(assessed.plan).toEqual({ hostClass: 'public' });
    const before = seen.length;
    const result = await tool.execute(
      args,
      { cwd: '.', signal: new AbortController().signal, readOnly: false },
      assessed.plan,
    );
    expect(result).toMatchObject({ type: 'tool-error', code: 'http-blocked-address' });
    expect(seen.length).toBe(before);
    expect(lookups).toBe(2);
  });

  it('a POST run without its plan (a plain JavaScript caller) sends nothing', async () => {
    const before = seen.length;
    const tool = createHttpRequestTool({ resolve: resolver });
    const context = { cwd: '.', signal: new AbortController().signal, readOnly: false };
    const execute = tool.execute as (args: unknown, context: unknown) => Promise<unknown>;
    expect(await execute({ method: 'POST', url: `${base}/json`, body: '{}' }, context)).toMatchObject({
      type: 'tool-error',
      code: 'http-not-assessed',
    });
    expect(seen.length).toBe(before);
  });

  it('reports timeouts, cancellation, refused connections, DNS and TLS failures as values', async () => {
    expect(await run({ method: 'GET', url: `${base}/slow`, timeout_ms: 200 })).toMatchObject({
      type: 'tool-error',
      code: 'http-timeout',
    });

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    expect(await run({ method: 'GET', url: `${base}/slow` }, true, controller.signal)).toMatchObject({
      type: 'tool-error',
      code: 'http-cancelled',
    });
    expect(Date.now() - started).toBeLessThan(3_000);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await run({ method: 'GET', url: `http://127.0.0.1:${closedPort}/` })).toMatchObject({
      type: 'tool-error',
      code: 'http-connection-refused',
    });

    expect(await run({ method: 'GET', url: 'http://nowhere.invalid/' }, false)).toMatchObject({
      type: 'tool-error',
      code: 'http-dns-failed',
    });
    expect(await run({ method: 'GET', url: base.replace('http:', 'https:') })).toMatchObject({
      type: 'tool-error',
      code: 'http-tls-error',
    });
  });
});

describe('htmlToText (html-to-text)', () => {
  const page = 'https://example.com/docs/page.html';
  it.each([
    ['entities decoded', '<p>a&nbsp;&lt;b&gt; &#x41;&#66; &amp; &mdash;</p>', 'a <b> AB & —'],
    [
      'a link keeps its address',
      '<p>Read <a href="https://example.org/guide">the guide</a>.</p>',
      'Read the guide [https://example.org/guide].',
    ],
    [
      'a relative link is resolved against the page',
      '<a href="other.html#top">next</a>',
      'next [https://example.com/docs/other.html#top]',
    ],
    ['a root-relative link too', '<a href="/api?x=1">api</a>', 'api [https://example.com/api?x=1]'],
    [
      'a link whose text is its address is written once',
      '<a href="https://example.org/">https://example.org/</a>',
      'https://example.org/',
    ],
    ['a mailto link stays as it is', '<a href="mailto:ops@example.org">mail us</a>', 'mail us [ops@example.org]'],
    ['scripts are dropped', '<p>a</p><script>evil()</script><p>b</p>', 'a\n\nb'],
    [
      'styles, noscript, svg, template and comments are dropped',
      '<style>.a{}</style><noscript>js!</noscript><svg><text>s</text></svg><template>t</template><!-- c -->x',
      'x',
    ],
    ['the head (its title) is dropped', '<html><head><title>T</title></head><body>body</body></html>', 'body'],
    ['images are dropped', '<p>see <img src="a.png" alt="chart"></p>', 'see'],
    ['headings keep their case', '<h1>Orders &amp; more</h1><h2>Sub</h2>', 'Orders & more\n\n\nSub'],
    ['list items on their own lines', '<ul><li>one</li><li>two</li></ul>', ' * one\n * two'],
    [
      'a table in columns',
      '<table><tr><th>id</th><th>item</th></tr><tr><td>1</td><td>tea</td></tr><tr><td>22</td><td>cake</td></tr></table>',
      'id   item\n1    tea\n22   cake',
    ],
    ['line breaks and preformatted text kept', '<p>a<br>b</p><pre>  x\n  y</pre>', 'a\nb\n\n  x\n  y'],
  ])('%s', async (_case, html, text) => {
    expect(await htmlToText(html, page)).toBe(text);
  });

  it('stays within bounds on deeply nested markup', async () => {
    const deep = `${'<div>'.repeat(50_000)}deep text${'</div>'.repeat(50_000)}<p>after</p>`;
    const text = await htmlToText(deep, page);
    expect(text).toMatch(/after$/);
  });
});
