import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoopback, parseListen } from '../src/mcp/listen-address.js';
import { closeAll, startHttpServer, TEST_TOKEN, testEnv, text, track } from './mcp-client.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-mcp-http-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(closeAll);
let index = 0;
let directory: string;
let databasePath: string;

beforeEach(() => {
  directory = join(root, `case-${index++}`);
  mkdirSync(directory, { recursive: true });
  databasePath = join(directory, 'shop.sqlite');
  const database = new Database(databasePath);
  database.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea');");
  database.close();
});

async function start(env: Record<string, string> = { RISKGATE_MCP_TOKEN: TEST_TOKEN }) {
  const server = await startHttpServer(['--db', databasePath], directory, testEnv(directory, env));
  track(server.child);
  return server;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** One raw POST, headers as given (Host and Origin too): status and body. */
function post(
  url: string,
  headers: Record<string, string>,
  body = INITIALIZE,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Host: target.host,
          ...headers,
        },
      },
      (response) => {
        let received = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          received += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: received, headers: response.headers }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('riskgate mcp --listen: who may connect', () => {
  it('serves the SDK client that carries the token, each client in its own session', async () => {
    const server = await start();
    const clients = [1, 2].map(() => new Client({ name: 'riskgate-test', version: '1' }));
    const transports = clients.map(
      () => new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: bearer(TEST_TOKEN) } }),
    );
    for (const [at, client] of clients.entries()) {
      await client.connect(transports[at]!);
      track(server.child, client);
    }
    expect(transports[0]!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(transports[0]!.sessionId).not.toBe(transports[1]!.sessionId);
    for (const client of clients) {
      const result = await client.callTool({ name: 'execute_sql', arguments: { sql: 'SELECT item FROM orders' } });
      expect(text(result)).toContain('tea');
    }
    expect(server.stderr()).toMatch(
      /serving execute_sql, describe_schema in guarded mode at http:\/\/127\.0\.0\.1:\d+\/mcp/,
    );
    expect(server.stderr()).toMatch(/the bearer token is RISKGATE_MCP_TOKEN/);
  });

  it.each([
    ['no Authorization header', {}, /a bearer token is required/],
    ['an empty bearer', { Authorization: 'Bearer ' }, /a bearer token is required/],
    ['another scheme', { Authorization: `Basic ${Buffer.from(`x:${TEST_TOKEN}`).toString('base64')}` }, /required/],
    ['a wrong token', bearer('riskgate-test-token-0123456789abcdeX'), /the bearer token is wrong/],
    ['a prefix of the token', bearer(TEST_TOKEN.slice(0, -1)), /the bearer token is wrong/],
    ['the token and more', bearer(`${TEST_TOKEN}0`), /the bearer token is wrong/],
    ['the token in another case', bearer(TEST_TOKEN.toUpperCase()), /the bearer token is wrong/],
    ['the token twice', { Authorization: `Bearer ${TEST_TOKEN} ${TEST_TOKEN}` }, /required/],
  ])('answers 401 to %s, and opens no session', async (_name, headers, message) => {
    const server = await start();
    const response = await post(server.url, headers as Record<string, string>);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(response.body).error.message).toMatch(message);
  });

  it('refuses the SDK client without the token or with a wrong one', async () => {
    const server = await start();
    for (const headers of [{}, bearer('not-the-token-at-all-0000')]) {
      const client = new Client({ name: 'riskgate-test', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
      const error = await client.connect(transport).then(
        () => undefined,
        (thrown: Error) => thrown,
      );
      expect(String(error?.message)).toMatch(/bearer token is (required|wrong)/);
    }
  });

  // DNS rebinding: a web page at evil.example resolving to 127.0.0.1 sends its own Host and Origin.
  it.each([
    ['Host evil.example', { Host: 'evil.example:80' }],
    ['Host with the port but another name', { Host: 'evil.example:PORT' }],
    ['Host 127.0.0.1 on another port', { Host: '127.0.0.1:1' }],
    ['no Host port', { Host: '127.0.0.1' }],
    ['Origin evil.example', { Origin: 'http://evil.example' }],
    ['Origin evil.example with the port', { Origin: 'http://evil.example:PORT' }],
    ['Origin https of localhost', { Origin: 'https://127.0.0.1:PORT' }],
    ['Origin null', { Origin: 'null' }],
  ])('answers 403 to %s even with the token', async (_name, headers) => {
    const server = await start();
    const port = new URL(server.url).port;
    const filled = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key, value.replace('PORT', port)]),
    );
    const response = await post(server.url, { ...bearer(TEST_TOKEN), ...filled });
    expect(response.status).toBe(403);
    expect(response.headers['mcp-session-id']).toBeUndefined();
  });

  it('takes the loopback names of its address as Host, with a matching Origin', async () => {
    const server = await start();
    const port = new URL(server.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const response = await post(server.url, { ...bearer(TEST_TOKEN), Host: host, Origin: `http://${host}` });
      expect(response.status, host).toBe(200);
      expect(response.headers['mcp-session-id'], host).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers 404 to another path and to a session it does not know, 413 to an oversized body', async () => {
    const server = await start();
    expect((await post(server.url.replace('/mcp', '/other'), bearer(TEST_TOKEN))).status).toBe(404);
    const unknown = await post(server.url, { ...bearer(TEST_TOKEN), 'Mcp-Session-Id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(3 * 1024 * 1024) },
    });
    expect((await post(server.url, bearer(TEST_TOKEN), huge)).status).toBe(413);
    // and goes on serving
    expect((await post(server.url, bearer(TEST_TOKEN))).status).toBe(200);
  });

  it('without RISKGATE_MCP_TOKEN writes a new token to a 0600 file under the state directory', async () => {
    const server = await start({});
    const file = join(directory, 'state', 'riskgate', 'mcp-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.stderr()).toContain(`the bearer token is in ${file} (0600)`);
    expect(server.stderr()).not.toContain(token);
    expect((await post(server.url, bearer(token))).status).toBe(200);
    expect((await post(server.url, bearer(TEST_TOKEN))).status).toBe(401);
  });

  // Binds every interface for the test's life; the test talks to it over 127.0.0.1 only.
  it('warns when the named host is not loopback; there any Host is taken, and the token still guards', async () => {
    const server = await startHttpServer(
      ['--db', databasePath],
      directory,
      testEnv(directory, { RISKGATE_MCP_TOKEN: TEST_TOKEN }),
      '0.0.0.0:0',
    );
    track(server.child);
    expect(server.stderr()).toMatch(/0\.0\.0\.0 is not a loopback address: other machines can reach this server/);
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    const port = new URL(url).port;
    expect((await post(url, { ...bearer(TEST_TOKEN), Host: `riskgate.lan:${port}` })).status).toBe(200);
    expect((await post(url, { Host: `riskgate.lan:${port}` })).status).toBe(401);
  });

  it('refuses a short RISKGATE_MCP_TOKEN and a --listen that does not parse, with a clear error', async () => {
    const env = testEnv(directory, { RISKGATE_MCP_TOKEN: 'short' });
    const short = await runCli(['mcp', '--db', databasePath, '--listen', '127.0.0.1:0'], { env });
    expect(short).toMatchObject({ code: 1, stderr: expect.stringMatching(/RISKGATE_MCP_TOKEN is shorter than 16/) });
    for (const listen of ['', 'abc', '127.0.0.1:', '70000', 'host:port', '[::zz]:80', '1.2.3.4:5:6']) {
      const bad = await runCli(['mcp', '--listen', listen], { env });
      expect(bad, listen).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/--listen .*expected \[host:\]port|not an IPv6/),
      });
    }
  });
});

describe('--listen addresses', () => {
  it.each([
    ['8765', { host: '127.0.0.1', port: 8765, explicitHost: false }],
    ['0', { host: '127.0.0.1', port: 0, explicitHost: false }],
    ['127.0.0.1:80', { host: '127.0.0.1', port: 80, explicitHost: true }],
    ['localhost:80', { host: 'localhost', port: 80, explicitHost: true }],
    ['[::1]:80', { host: '::1', port: 80, explicitHost: true }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80, explicitHost: true }],
    ['192.168.1.5:80', { host: '192.168.1.5', port: 80, explicitHost: true }],
  ])('reads %s', (text, address) => {
    expect(parseListen(text)).toEqual(address);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.5', false],
    ['127.0.0.1.evil.example', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});
