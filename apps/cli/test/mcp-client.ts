import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './run-cli.js';

export type McpTransportKind = 'stdio' | 'http';

export interface McpSession {
  readonly client: Client;
  /** The messages of every elicitation the server sent. */
  readonly asked: string[];
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** The roots the client declares; change them, then `client.sendRootsListChanged()`. */
  roots: Root[];
}

export interface ConnectOptions {
  readonly transport?: McpTransportKind;
  /** Answers to elicitations, in order; absent: the client has no elicitation capability. */
  readonly answers?: ElicitResult[];
  /** The client declares the roots capability with these roots. */
  readonly roots?: Root[];
  readonly cwd: string;
  /** XDG_STATE_HOME and XDG_CONFIG_HOME go under this directory. */
  readonly home: string;
  readonly env?: Record<string, string>;
}

/** A long enough token for every HTTP test. */
export const TEST_TOKEN = 'riskgate-test-token-0123456789abcdef';

/** Everything started here, ended by `closeAll` (afterEach). */
const open: { client: Client; child?: ChildProcess }[] = [];

export async function closeAll(): Promise<void> {
  await Promise.all(
    open.splice(0).map(async ({ client, child }) => {
      await client.close().catch(() => undefined);
      if (child !== undefined && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }),
  );
}

export function testEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
    ...extra,
  };
}

/** The SDK's own client, speaking to `riskgate mcp` over stdio or over Streamable HTTP (with TEST_TOKEN). */
export async function connectMcp(args: readonly string[], options: ConnectOptions): Promise<McpSession> {
  const asked: string[] = [];
  const capabilities = {
    ...(options.answers === undefined ? {} : { elicitation: { form: {} } }),
    ...(options.roots === undefined ? {} : { roots: { listChanged: true } }),
  };
  const client = new Client({ name: 'riskgate-test', version: '1.0.0' }, { capabilities });
  const session: McpSession = { client, asked, stderr: () => '', roots: options.roots ?? [] };
  const { answers } = options;
  if (answers !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected elicitation: ${request.params.message}`);
      return answer;
    });
  }
  if (options.roots !== undefined)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: session.roots }));
  const env = testEnv(options.home, options.env);
  if ((options.transport ?? 'stdio') === 'stdio') {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      cwd: options.cwd,
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    session.stderr = () => stderr;
    await client.connect(transport);
    open.push({ client });
    return session;
  }
  const server = await startHttpServer(args, options.cwd, { RISKGATE_MCP_TOKEN: TEST_TOKEN, ...env });
  session.stderr = server.stderr;
  open.push({ client, child: server.child });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${TEST_TOKEN}` } },
    }),
  );
  return session;
}

export interface HttpServer {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
}

/** `riskgate mcp … --listen 127.0.0.1:0` (or `listen`), once it says where it listens. */
export async function startHttpServer(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  listen = '127.0.0.1:0',
): Promise<HttpServer> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args, '--listen', listen], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = / at (http:\/\/[^\s/]+:\d+\/mcp)\n/.exec(stderr);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`riskgate mcp --listen exited ${code}: ${stderr}`)));
  });
  const server = { child, url, stderr: () => stderr };
  return server;
}

/** Registers a server started by a test itself, so closeAll ends it. */
export function track(child: ChildProcess, client?: Client): void {
  open.push({ client: client ?? new Client({ name: 'unused', version: '0' }), child });
}

export const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** Waits for a condition, polling; fails with `what` after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
