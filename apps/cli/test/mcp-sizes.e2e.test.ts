import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from './run-cli.js';

const MB = 1024 * 1024;
let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** `riskgate mcp` on a SQLite file, spoken to line by line as a client's stdio would. */
function startServer(): {
  child: ChildProcessWithoutNullStreams;
  responses: Map<unknown, Record<string, unknown>>;
  stderr: () => string;
  next: (id: number) => Promise<Record<string, unknown>>;
} {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-mcp-sizes-'));
  const database = new Database(join(directory, 'shop.sqlite'));
  database.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea');");
  database.close();
  const child = spawn(process.execPath, [BIN, 'mcp', '--db', join(directory, 'shop.sqlite')], {
    env: { ...process.env, XDG_STATE_HOME: join(directory, 'state'), XDG_CONFIG_HOME: join(directory, 'config') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanup = () => {
    child.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  };
  const responses = new Map<unknown, Record<string, unknown>>();
  let pending = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const message = JSON.parse(pending.slice(0, end)) as Record<string, unknown>;
      responses.set(message.id, message);
      pending = pending.slice(end + 1);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.stdin.on('error', () => undefined);
  const next = async (id: number) => {
    const deadline = Date.now() + 20_000;
    while (!responses.has(id)) {
      if (child.exitCode !== null) throw new Error(`riskgate mcp exited ${child.exitCode}: ${errors}`);
      if (Date.now() > deadline) throw new Error(`no answer to request ${id}; stderr: ${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return responses.get(id)!;
  };
  return { child, responses, stderr: () => errors, next };
}

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const call = (id: number, sql: string) =>
  line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'execute_sql', arguments: { sql } } });

describe('riskgate mcp: request sizes', () => {
  it.each([
    ['10 MB', 10 * MB],
    ['20 MB', 20 * MB],
    ['just over the 2 MB limit', 2 * MB + 100],
  ])(
    'a %s request gets a clear error, and the server keeps serving',
    async (_name, bytes) => {
      const server = startServer();
      server.child.stdin.write(
        line({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      );
      await server.next(1);
      server.child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const started = Date.now();
      server.child.stdin.write(call(2, `SELECT '${'x'.repeat(bytes)}'`));
      const refused = await server.next(2);
      expect(refused.error).toMatchObject({
        code: -32600,
        message: expect.stringMatching(
          /^the request is [\d,]+ bytes; riskgate mcp takes at most 2,097,152 bytes per request; nothing was run$/,
        ),
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.stderr()).toMatch(/riskgate mcp: the request is [\d,]+ bytes/);
      expect(server.stderr().length).toBeLessThan(2_000);
      // Still serving: the next request is answered.
      server.child.stdin.write(call(3, 'SELECT item FROM orders'));
      const answered = await server.next(3);
      expect(JSON.stringify(answered.result)).toContain('tea');
      expect(server.child.exitCode).toBeNull();
    },
    60_000,
  );

  it('a request under the limit still runs, and a line that is not JSON gets a parse error', async () => {
    const server = startServer();
    server.child.stdin.write(
      line({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    await server.next(1);
    server.child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    server.child.stdin.write(call(2, `SELECT length('${'x'.repeat(400_000)}') AS n`));
    expect(JSON.stringify((await server.next(2)).result)).toContain('400000');
    server.child.stdin.write('{"jsonrpc":"2.0","id":3,"method":\n');
    expect((await server.next(3)).error).toMatchObject({ code: -32700 });
    server.child.stdin.write(call(4, 'SELECT 1 AS one'));
    expect((await server.next(4)).result).toBeDefined();
  }, 60_000);
});
