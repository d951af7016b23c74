import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeAll, connectMcp, type McpTransportKind, text } from './mcp-client.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-mcp-tools-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(closeAll);
let index = 0;
let directory: string;
let workspace: string;
let databasePath: string;

const ORDERS =
  "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea'), ('cake');";

beforeEach(() => {
  directory = join(root, `case-${index++}`);
  workspace = join(directory, 'workspace');
  mkdirSync(workspace, { recursive: true });
  databasePath = join(directory, 'shop.sqlite');
  const database = new Database(databasePath);
  database.exec(ORDERS);
  database.close();
});

const tableExists = () => {
  const database = new Database(databasePath, { readonly: true });
  try {
    return database.prepare("SELECT 1 FROM sqlite_master WHERE name = 'orders'").get() !== undefined;
  } finally {
    database.close();
  }
};
const recreate = () => {
  const database = new Database(databasePath);
  database.exec(`DROP TABLE IF EXISTS orders; ${ORDERS}`);
  database.close();
};
const connect = (args: readonly string[], options: { transport?: McpTransportKind; answers?: ElicitResult[] } = {}) =>
  connectMcp(args, { cwd: directory, home: directory, ...options });

describe('riskgate mcp: tools/list', () => {
  // Honest about the worst one call may do, whatever the gate decides for a given call.
  it.each([
    [
      'execute_sql',
      'Run SQL',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    ],
    [
      'describe_schema',
      'Describe the database schema',
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ],
    [
      'execute_command',
      'Run a shell command',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    ],
    [
      'file_operations',
      'Read and write files',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    ],
    [
      'http_request',
      'Send an HTTP request',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    ],
  ])('lists %s with its title, honest annotations and an output schema', async (name, title, annotations) => {
    const { client } = await connect(['--db', databasePath, '--commands', '--files', '--http']);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(5);
    const tool = tools.find((candidate) => candidate.name === name)!;
    expect(tool.title).toBe(title);
    expect(tool.annotations).toEqual({ title, ...annotations });
    expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['state', 'text'] });
    expect(Object.keys(tool.outputSchema!.properties!)).toEqual(['state', 'text', 'decision']);
  });

  it.each([
    [[], /guarded mode 'low' runs at once only what riskgate's own checks find no side effect/],
    [['--mode', 'strict'], /strict mode your rating is not taken/],
    [['--mode', 'smart'], /'low' = safe, executes automatically/],
  ])("tells the client model what risk_level does in the server's mode (%j)", async (flags, meaning) => {
    const { client } = await connect(['--db', databasePath, ...flags]);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const property = (tool.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>)
        .risk_level!;
      expect(property.enum).toEqual(['low', 'medium', 'high']);
      expect(property.description).toMatch(meaning);
      if (flags.length === 0) expect(property.description).not.toMatch(/executes automatically/);
    }
  });
});

describe('riskgate mcp: structuredContent', () => {
  it('carries the state, the decision and the same text as the content (validated by the SDK client)', async () => {
    const { client } = await connect(['--db', databasePath]);
    await client.listTools(); // the client validates structuredContent against the listed outputSchema
    const result = (await client.callTool({
      name: 'execute_sql',
      arguments: { sql: 'SELECT item FROM orders' },
    })) as CallToolResult;
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      state: 'succeeded',
      text: text(result),
      decision: expect.objectContaining({ action: 'execute', source: 'whitelist' }),
    });
    expect(text(result)).toMatch(/tea[\s\S]*cake/);
    const refused = (await client.callTool({
      name: 'execute_sql',
      arguments: { sql: 'DELETE FROM orders' },
    })) as CallToolResult;
    expect(refused.structuredContent).toMatchObject({ state: 'denied', text: text(refused) });
  });

  const SECRET = 'hunter2-correct-horse-battery-staple';
  const TOKEN = 'k7Qm2vX9pL4wR8tZ3nB6';

  it('withholds a credential column from structuredContent as from the text', async () => {
    const database = new Database(databasePath);
    database.exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY, login TEXT, password TEXT);
      INSERT INTO accounts (login, password) VALUES ('ada', '${SECRET}');`);
    database.close();
    const { client } = await connect(['--db', databasePath]);
    await client.listTools();
    for (const query of [
      'SELECT * FROM accounts',
      'SELECT password FROM accounts',
      'SELECT login || password FROM accounts',
    ]) {
      const result = (await client.callTool({ name: 'execute_sql', arguments: { sql: query } })) as CallToolResult;
      expect(JSON.stringify(result), query).not.toContain(SECRET);
      expect(JSON.stringify(result.structuredContent), query).not.toContain('hunter2');
    }
  });

  it.each([
    ['cat', { name: 'execute_command', arguments: { command: 'cat notes.txt' } }],
    ['file_operations read', { name: 'file_operations', arguments: { operation: 'read', path: 'notes.txt' } }],
  ])('withholds a secret in a file read by %s from structuredContent as from the text', async (_name, call) => {
    // A file whose secret the assessor cannot see (a bare value), so the read runs unasked and only
    // the output guard catches it: the value of a secret-named variable of riskgate's environment.
    writeFileSync(join(workspace, 'notes.txt'), `deploy notes\nthe build came from ${TOKEN} yesterday\n`);
    const { client } = await connectMcp(['--commands', '--files', '--cwd', workspace], {
      cwd: directory,
      home: directory,
      env: { DEPLOY_API_TOKEN: TOKEN },
    });
    await client.listTools();
    const result = (await client.callTool(call)) as CallToolResult;
    expect(result.isError, text(result)).toBe(false);
    expect(text(result)).toContain('deploy notes');
    expect(text(result)).toMatch(/withheld: the value of DEPLOY_API_TOKEN/);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect((result.structuredContent as { text: string }).text).toBe(text(result));
  });
});

// A client's model rating its own DROP "low" never runs it unasked (guarded, decision 0011):
// asked through elicitation (yes runs, no/decline/cancel keep the table) or refused without it.
const DROPS = [
  'DROP TABLE orders',
  'drop table orders',
  'DrOp TaBlE "orders"',
  'DROP TABLE IF EXISTS orders',
  'DROP TABLE main.orders',
  'DROP TABLE `orders`',
  'DROP TABLE [orders]',
  '/* tidy up */ DROP TABLE orders',
  '-- comment\nDROP\tTABLE\norders;',
  'SELECT 1; DROP TABLE orders',
  "SELECT 'DROP'; DROP TABLE orders; SELECT 2",
  'DROP TABLE orders -- low risk, just a temp table',
];

describe.each(['stdio', 'http'] as const)('riskgate mcp over %s: DROP TABLE rated low by the client', (transport) => {
  it('is refused without elicitation, in every spelling, and the table stays', async () => {
    const { client } = await connect(['--db', databasePath], { transport });
    for (const statement of DROPS) {
      const result = await client.callTool({ name: 'execute_sql', arguments: { sql: statement, risk_level: 'low' } });
      expect(result.isError, statement).toBe(true);
      expect(text(result), statement).toMatch(/needs the person's confirmation, and there is no way to ask them here/);
      expect(tableExists(), statement).toBe(true);
    }
  });

  it.each([
    ['no', { action: 'accept', content: { approve: false } } as ElicitResult],
    ['decline', { action: 'decline' } as ElicitResult],
    ['cancel', { action: 'cancel' } as ElicitResult],
  ])('is asked about, and the answer %s keeps the table, in every spelling', async (_name, answer) => {
    const { client, asked } = await connect(['--db', databasePath], {
      transport,
      answers: DROPS.map(() => answer),
    });
    for (const [at, statement] of DROPS.entries()) {
      const result = await client.callTool({ name: 'execute_sql', arguments: { sql: statement, risk_level: 'low' } });
      expect(asked, statement).toHaveLength(at + 1);
      expect(asked[at], statement).toContain(statement.includes('\n') ? 'TABLE' : statement);
      expect(result.isError, statement).toBe(true);
      expect(tableExists(), statement).toBe(true);
    }
  });

  it('is asked about, and yes runs it, in every spelling', async () => {
    const { client, asked } = await connect(['--db', databasePath], {
      transport,
      answers: DROPS.map(() => ({ action: 'accept', content: { approve: true } }) as ElicitResult),
    });
    for (const [at, statement] of DROPS.entries()) {
      const result = await client.callTool({ name: 'execute_sql', arguments: { sql: statement, risk_level: 'low' } });
      expect(asked, statement).toHaveLength(at + 1);
      expect(result.isError, `${statement}: ${text(result)}`).toBe(false);
      expect(tableExists(), statement).toBe(false);
      recreate();
    }
    const audit = readFileSync(join(directory, 'state', 'riskgate', 'audit.jsonl'), 'utf8');
    expect(audit.match(/"answer":"approve".*"outcome":"succeeded"/g)).toHaveLength(DROPS.length);
  });
});
