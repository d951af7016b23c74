import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_HELP, parseMcpArgs } from '../src/mcp/mcp-command.js';
import { BIN, runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-mcp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let index = 0;
let directory: string;
let databasePath: string;
const clients: Client[] = [];

beforeEach(() => {
  directory = join(root, `case-${index++}`);
  mkdirSync(join(directory, 'workspace'), { recursive: true });
  databasePath = join(directory, 'shop.sqlite');
  const database = new Database(databasePath);
  database.exec(
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea'), ('cake'), ('jam');",
  );
  database.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

const orderCount = () => {
  const database = new Database(databasePath, { readonly: true });
  try {
    return (database.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
  } finally {
    database.close();
  }
};

interface Connected {
  readonly client: Client;
  /** The messages of every elicitation the server sent. */
  readonly asked: string[];
}

/** The SDK's own client, speaking to `riskgate mcp` over stdio; `answers` answer elicitations in order (none: no elicitation capability). */
async function connect(args: readonly string[], answers?: ElicitResult[]): Promise<Connected> {
  const asked: string[] = [];
  const client = new Client(
    { name: 'riskgate-test', version: '1.0.0' },
    answers === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (answers !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected elicitation: ${request.params.message}`);
      return answer;
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: directory,
    env: {
      ...(process.env as Record<string, string>),
      XDG_STATE_HOME: join(directory, 'state'),
      XDG_CONFIG_HOME: join(directory, 'config'),
    },
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  return { client, asked };
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const sql = (client: Client, query: string, extra: Record<string, unknown> = {}) =>
  client.callTool({ name: 'execute_sql', arguments: { sql: query, ...extra } });

describe('riskgate mcp', () => {
  it('lists the SQL tools with risk_level in their input schema', async () => {
    const { client } = await connect(['--db', databasePath]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['describe_schema', 'execute_sql']);
    const executeSql = tools.find((tool) => tool.name === 'execute_sql')!;
    expect(executeSql.inputSchema.properties).toHaveProperty('sql');
    expect(executeSql.inputSchema.properties).toHaveProperty('risk_level');
    expect(JSON.stringify(executeSql.inputSchema.properties!.risk_level)).toMatch(/low.*medium.*high/);
  });

  it('runs a whitelisted SELECT without asking', async () => {
    const { client, asked } = await connect(['--db', databasePath], []);
    const result = await sql(client, 'SELECT item FROM orders ORDER BY id');
    expect(result.isError).toBe(false);
    expect(text(result)).toMatch(/tea[\s\S]*cake[\s\S]*jam/);
    expect(asked).toEqual([]);
  });

  // The per-call caches (the schema snapshot, the reader's prepared statements) against the schema
  // changing between two calls, through the real client and server.
  it('withholds a column renamed to password by another process between two calls', async () => {
    const { client } = await connect(['--db', databasePath]);
    expect(text(await sql(client, 'SELECT * FROM orders WHERE id = 1'))).toContain('tea');
    const other = new Database(databasePath);
    other.exec('ALTER TABLE orders RENAME COLUMN item TO password');
    other.close();
    const result = await sql(client, 'SELECT * FROM orders WHERE id = 1');
    expect(result.isError).toBe(false);
    expect(text(result)).not.toContain('tea');
    expect(text(result)).toMatch(/withheld: the values of the column password/);
  });

  // Containment stays what it was: an endless whitelisted read runs in the reader process and is
  // killed at the statement timeout; the next read gets a fresh reader.
  it('stops an endless whitelisted SELECT at the statement timeout, and serves the next call', async () => {
    mkdirSync(join(directory, 'config', 'riskgate'), { recursive: true });
    writeFileSync(join(directory, 'config', 'riskgate', 'config.json'), '{"sql":{"statementTimeoutMs":800}}');
    const other = new Database(databasePath);
    other.exec(
      "WITH RECURSIVE g(n) AS (SELECT 4 UNION ALL SELECT n + 1 FROM g WHERE n < 3000) INSERT INTO orders SELECT n, 'x' FROM g",
    );
    other.close();
    const { client } = await connect(['--db', databasePath]);
    await sql(client, 'SELECT item FROM orders WHERE id = 1');
    const started = performance.now();
    // Whitelisted (a read of orders), and 27 billion rows to count.
    const endless = await sql(client, 'SELECT count(*) FROM orders a, orders b, orders c');
    const elapsed = performance.now() - started;
    expect(endless.isError).toBe(true);
    expect(text(endless)).toMatch(/sql-timeout/);
    expect(elapsed).toBeGreaterThanOrEqual(700);
    expect(elapsed).toBeLessThan(10_000);
    expect(text(await sql(client, 'SELECT item FROM orders WHERE id < 4 ORDER BY id'))).toMatch(
      /tea[\s\S]*cake[\s\S]*jam/,
    );
  });

  it('refuses a DELETE with the reason when the client cannot ask, and the rows stay', async () => {
    const { client } = await connect(['--db', databasePath]);
    const result = await sql(client, 'DELETE FROM orders');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/needs the person's confirmation, and there is no way to ask them here/);
    expect(text(result)).toMatch(/DELETE without WHERE/);
    expect(orderCount()).toBe(3);
  });

  it('asks through elicitation and keeps the rows when the answer is no', async () => {
    const { client, asked } = await connect(
      ['--db', databasePath],
      [{ action: 'accept', content: { approve: false } }],
    );
    const result = await sql(client, 'DELETE FROM orders WHERE id > 1');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('DELETE FROM orders WHERE id > 1');
    expect(asked[0]).toContain('would delete 2 rows of orders');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/the person declined/);
    expect(orderCount()).toBe(3);
  });

  it.each([
    ['declined', { action: 'decline' } as ElicitResult],
    ['cancelled', { action: 'cancel' } as ElicitResult],
  ])('keeps the rows when the elicitation is %s', async (_name, answer) => {
    const { client } = await connect(['--db', databasePath], [answer]);
    const result = await sql(client, 'DROP TABLE orders');
    expect(result.isError).toBe(true);
    expect(orderCount()).toBe(3);
  });

  it('runs the DELETE when the answer is yes, and audits the call', async () => {
    const { client, asked } = await connect(['--db', databasePath], [{ action: 'accept', content: { approve: true } }]);
    const result = await sql(client, 'DELETE FROM orders WHERE id > 1');
    expect(asked).toHaveLength(1);
    expect(result.isError).toBe(false);
    expect(orderCount()).toBe(1);
    const audit = readFileSync(join(directory, 'state', 'riskgate', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(audit.at(-1)).toMatchObject({
      tool: 'execute_sql',
      answer: 'approve',
      outcome: 'succeeded',
      decision: { action: 'confirm' },
    });
  });

  // The client's model rates its own calls: by default its "low" never runs what the code found
  // a side effect in (guarded). On the old default (smart) each of these ran unasked.
  it.each([
    ['DROP TABLE orders'],
    ['DELETE FROM orders'],
    ['UPDATE orders SET item = NULL'],
    ["INSERT INTO orders (item) VALUES ('x'); DROP TABLE orders"],
    ['PRAGMA writable_schema = 1'],
  ])('by default a client model\'s "low" does not run %s', async (statement) => {
    const { client } = await connect(['--db', databasePath]);
    const result = await sql(client, statement, { risk_level: 'low' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/needs the person's confirmation, and there is no way to ask them here/);
    expect(orderCount()).toBe(3);
    expect(readFileSync(join(directory, 'state', 'riskgate', 'audit.jsonl'), 'utf8')).not.toMatch(
      /"outcome":"succeeded"/,
    );
  });

  it('a client model\'s "low" still decides what the code found no effect in, and --mode smart takes it for side effects as the assistant does', async () => {
    const guarded = await connect(['--db', databasePath]);
    expect((await sql(guarded.client, 'SELECT item FROM orders', { risk_level: 'low' })).isError).toBe(false);
    const smart = await connect(['--db', databasePath, '--mode', 'smart']);
    expect((await sql(smart.client, 'DELETE FROM orders WHERE id = 3', { risk_level: 'low' })).isError).toBe(false);
    expect(orderCount()).toBe(2);
  });

  it('refuses what a --deny rule forbids without asking', async () => {
    const { client, asked } = await connect(
      ['--db', databasePath, '--deny', 'execute_sql(DELETE *)'],
      [{ action: 'accept', content: { approve: true } }],
    );
    const result = await sql(client, 'DELETE FROM orders', { risk_level: 'low' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/denied by rule execute_sql\(DELETE \*\)/);
    expect(asked).toEqual([]);
    expect(orderCount()).toBe(3);
  });

  it('asks even about a SELECT in strict mode', async () => {
    const { client, asked } = await connect(
      ['--db', databasePath, '--mode', 'strict'],
      [{ action: 'accept', content: { approve: true } }],
    );
    const result = await sql(client, 'SELECT count(*) FROM orders');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/strict mode confirms every operation/);
    expect(result.isError).toBe(false);
  });

  it('serves the chosen chat tools: ls runs, rm is refused and the file stays', async () => {
    const workspace = join(directory, 'workspace');
    const { client } = await connect(['--commands', '--cwd', workspace]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['execute_command']);
    mkdirSync(join(workspace, 'keep-me'));
    const listed = await client.callTool({ name: 'execute_command', arguments: { command: 'ls' } });
    expect(text(listed)).toContain('keep-me');
    const removed = await client.callTool({ name: 'execute_command', arguments: { command: 'rm -rf keep-me' } });
    expect(removed.isError).toBe(true);
    expect(text(removed)).toMatch(/needs the person's confirmation/);
    expect(existsSync(join(workspace, 'keep-me'))).toBe(true);
  });

  it('tells a tool that does not exist, and invalid arguments, back to the client', async () => {
    const { client } = await connect(['--db', databasePath]);
    expect(text(await client.callTool({ name: 'format_disk', arguments: {} }))).toMatch(
      /there is no tool named "format_disk"/,
    );
    expect(text(await client.callTool({ name: 'execute_sql', arguments: { query: 'SELECT 1' } }))).toMatch(
      /invalid arguments: sql/,
    );
  });
});

describe('riskgate mcp --help', () => {
  it('prints the help, and every option it names is accepted', async () => {
    const { code, stdout } = await runCli(['mcp', '--help']);
    expect(code).toBe(0);
    expect(stdout).toBe(MCP_HELP);
    const options = [...MCP_HELP.matchAll(/^ {2}(--[a-z-]+)( <[^>]+>)?/gm)].map(
      (match) => [match[1]!, match[2] === undefined ? undefined : 'x'] as const,
    );
    expect(options.map(([option]) => option)).toEqual([
      '--db',
      '--commands',
      '--files',
      '--http',
      '--cwd',
      '--mode',
      '--yolo',
      '--allow',
      '--ask',
      '--deny',
      '--listen',
    ]);
    for (const [option, value] of options) {
      const argv =
        value === undefined
          ? [option]
          : [
              option,
              option === '--mode'
                ? 'strict'
                : option === '--listen'
                  ? '127.0.0.1:8765'
                  : option.endsWith('allow') || option.endsWith('ask') || option.endsWith('deny')
                    ? 'execute_sql(SELECT *)'
                    : value,
            ];
      expect(parseMcpArgs(argv), option).not.toHaveProperty('error');
    }
  });

  it('refuses an unknown option, and a database that does not exist, with a clear error', async () => {
    expect(await runCli(['mcp', '--bogus'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Unknown option '--bogus'/),
    });
    const missing = await runCli(['mcp', '--db', join(root, 'nope.sqlite')]);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/no SQLite database at .*nope\.sqlite/) });
  });

  it('without tool flags serves commands, files and HTTP', () => {
    expect(parseMcpArgs([])).toMatchObject({ chatTools: ['commands', 'files', 'http'] });
    expect(parseMcpArgs(['--db', 'x.sqlite'])).toMatchObject({ chatTools: [], database: 'x.sqlite' });
  });
});
