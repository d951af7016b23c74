import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '@riskgate/tools-sql';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalAnswer, type GateContext, runGatedToolCall } from '../src/index.js';

// The SQL assessor runs once per call (issue 23): its plan — the statements with their spans —
// goes to describe (the panel's preview) and execute (what is sent). describe used to assess
// the SQL again, and the connections split it again.
const directory = mkdtempSync(join(tmpdir(), 'riskgate-assessed-once-'));
const path = join(directory, 'shop.sqlite');
let connection: SqlConnection;
let assessed: string[];

beforeAll(async () => {
  const database = new Database(path);
  database.exec(
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea'), ('jam');",
  );
  database.close();
  const opened = await openSqlConnection(path);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  // Count the assessments: every one of the tool's goes through its connection's assess.
  const assess = opened.assess.bind(opened);
  opened.assess = (sql: string) => {
    assessed.push(sql);
    return assess(sql);
  };
  connection = opened;
});
afterAll(async () => {
  await connection.close();
  rmSync(directory, { recursive: true, force: true });
});

const gate = (...answers: ApprovalAnswer[]): GateContext => ({
  tools: [createExecuteSqlTool({ connection })],
  policy: { mode: 'smart', rules: [] },
  assess: { cwd: directory, dialect: 'sqlite' },
  confirm: async () => answers.shift() ?? { type: 'deny' },
});
const call = (sql: string) => ({ id: 'call-1', name: 'execute_sql', arguments: { sql } });

describe('the SQL assessor runs once per call through the gated executor', () => {
  it.each([
    ['a whitelisted SELECT', 'SELECT item FROM orders ORDER BY id', []],
    ['a confirmed DELETE, previewed on the panel', 'DELETE FROM orders WHERE id = 1', [{ type: 'approve' }]],
    [
      'a confirmed script of several statements',
      "INSERT INTO orders (item) VALUES ('cake'); SELECT count(*) FROM orders",
      [{ type: 'approve' }],
    ],
  ] as const)('%s', async (_name, sql, answers) => {
    assessed = [];
    const outcome = await runGatedToolCall(call(sql), gate(...answers));
    expect(outcome.state).toBe('succeeded');
    expect(assessed).toEqual([sql]);
  });

  it("assesses the person's edit once more, for its own plan", async () => {
    assessed = [];
    const edit = 'DELETE FROM orders WHERE id = 2';
    const outcome = await runGatedToolCall(
      call('DELETE FROM orders'),
      gate({ type: 'edit', args: { sql: edit } }, { type: 'approve' }),
    );
    expect(outcome.state).toBe('succeeded');
    expect(assessed).toEqual(['DELETE FROM orders', edit]);
  });
});
