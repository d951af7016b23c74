import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MAX_MCP_REQUEST_BYTES } from './bounded-stdio.js';
import { isLoopback, type ListenAddress } from './listen-address.js';

/** The one path the server answers on. */
export const MCP_HTTP_PATH = '/mcp';
/** Open sessions at once: a client that opens sessions without end cannot exhaust the server. */
export const MAX_MCP_SESSIONS = 64;
/** A token from RISKGATE_MCP_TOKEN shorter than this is refused: it could be guessed. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * The bearer token every request must carry: RISKGATE_MCP_TOKEN, or a new random one written
 * to `file` (mode 0600, replaced at each start) so only the person's own account can read it.
 */
export function mcpToken(env: NodeJS.ProcessEnv, file: string): { token: string; source: string } | { error: string } {
  const given = env.RISKGATE_MCP_TOKEN;
  if (given !== undefined) {
    if (given.trim().length < MIN_TOKEN_LENGTH)
      return { error: `RISKGATE_MCP_TOKEN is shorter than ${MIN_TOKEN_LENGTH} characters; use a long random token` };
    return { token: given.trim(), source: 'RISKGATE_MCP_TOKEN' };
  }
  const token = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  // A file left by an earlier start keeps its mode on write: make it private all the same.
  chmodSync(file, 0o600);
  return { token, source: file };
}

export interface McpHttpOptions {
  readonly address: ListenAddress;
  readonly token: string;
  /** A new server for each session: each client its own executor, roots and untrusted-content state. */
  readonly createServer: () => Server;
  readonly notice: (message: string) => void;
}

export interface McpHttpListener {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `riskgate mcp --listen`: the same server over the SDK's Streamable HTTP transport, one session
 * per client. Every request passes three checks before the SDK reads it: the Host header names
 * the address it was sent to and an Origin (if any) matches it (a web page cannot reach it
 * through DNS rebinding), and it carries the token (compared in constant time; 401 otherwise).
 * Bodies over MAX_MCP_REQUEST_BYTES are answered 413 unread.
 */
export async function listenMcpHttp(options: McpHttpOptions): Promise<McpHttpListener> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  const expected = digest(options.token);
  let allowedHosts: (host: string) => boolean = () => false;
  const http = createServer((request, response) => {
    void handle(request, response).catch((error: Error) => {
      options.notice(`an HTTP request failed: ${error.message}`);
      if (!response.headersSent) reply(response, 500, 'internal error');
      else response.end();
    });
  });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = refuse(request, allowedHosts, expected);
    if (refusal !== undefined) return reply(response, refusal.status, refusal.message, refusal.headers);
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (session === undefined) return reply(response, 404, 'no such session; initialize a new one');
      return session.transport.handleRequest(request, response);
    }
    if (request.method !== 'POST') return reply(response, 400, 'no session: send initialize first');
    if (sessions.size >= MAX_MCP_SESSIONS)
      return reply(response, 503, `${MAX_MCP_SESSIONS} sessions are open; close one (DELETE) first`);
    const server = options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_MCP_REQUEST_BYTES,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    // A first request that was no initialize opened no session: nothing is kept for it.
    if (transport.sessionId === undefined) await server.close();
  };
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.address.port, options.address.host, () => resolve());
  });
  const port = (http.address() as { port: number }).port;
  allowedHosts = hostCheck(options.address.host, port);
  const shown = options.address.host.includes(':') ? `[${options.address.host}]` : options.address.host;
  return {
    url: `http://${shown}:${port}${MCP_HTTP_PATH}`,
    close: async () => {
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Why a request is refused before the SDK sees it, or undefined when it may go on. */
function refuse(
  request: IncomingMessage,
  allowedHost: (host: string) => boolean,
  expected: Buffer,
): { status: number; message: string; headers?: Record<string, string> } | undefined {
  const path = (request.url ?? '').split('?')[0];
  if (path !== MCP_HTTP_PATH) return { status: 404, message: `not found; the MCP endpoint is ${MCP_HTTP_PATH}` };
  const host = request.headers.host ?? '';
  if (!allowedHost(host.toLowerCase())) return { status: 403, message: `Host ${JSON.stringify(host)} is not served` };
  const origin = request.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`)
    return { status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed` };
  const header = request.headers.authorization ?? '';
  const match = /^Bearer +(\S+) *$/i.exec(header);
  // Both sides are hashed first: equal lengths for timingSafeEqual, and no early exit on a prefix.
  if (match === null || !timingSafeEqual(digest(match[1]!), expected))
    return {
      status: 401,
      message: match === null ? 'a bearer token is required' : 'the bearer token is wrong',
      headers: { 'WWW-Authenticate': 'Bearer realm="riskgate mcp"' },
    };
  return undefined;
}

/**
 * Which Host headers name this server: for a loopback address, its loopback names with the
 * port; for another address, that address. A wildcard address (0.0.0.0, ::) can be reached
 * under any name, so there only the token guards it (documented; the person chose it).
 */
function hostCheck(bound: string, port: number): (host: string) => boolean {
  if (bound === '0.0.0.0' || bound === '::') return () => true;
  const names = isLoopback(bound) ? ['127.0.0.1', 'localhost', '[::1]', bound] : [bound];
  const allowed = new Set(
    names.map((name) => `${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`),
  );
  return (host) => allowed.has(host);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function reply(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
