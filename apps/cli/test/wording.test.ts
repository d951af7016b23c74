import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog, runGatedToolCall } from '@riskgate/core';
import { disagreementText } from '@riskgate/risk';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '@riskgate/tools-sql';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ranUnasked } from '../src/ran-unasked.js';
import { auditText } from '../src/ui/commands.js';

/** One source of words: what the screen says of a call, what /audit says and what the model reads agree. */
describe('the screen, /audit and the model use the same words', () => {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-wording-'));
  const auditPath = join(directory, 'audit.jsonl');
  let connection: SqlConnection;
  let calls = 0;
  beforeAll(async () => {
    const databasePath = join(directory, 'shop.sqlite');
    const database = new Database(databasePath);
    database.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea');");
    database.close();
    const opened = await openSqlConnection(databasePath);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    connection = opened;
  });
  afterAll(async () => {
    await connection.close();
    rmSync(directory, { recursive: true, force: true });
  });
  const run = (
    sql: string,
    riskLevel: string | undefined,
    confirm?: Parameters<typeof runGatedToolCall>[1]['confirm'],
  ) =>
    runGatedToolCall(
      {
        id: `call-${++calls}`,
        name: 'execute_sql',
        arguments: { sql, ...(riskLevel === undefined ? {} : { risk_level: riskLevel }) },
      },
      {
        tools: [createExecuteSqlTool({ connection })],
        policy: { mode: 'smart', rules: [] },
        assess: { cwd: directory, dialect: 'sqlite' },
        audit: new AuditLog(auditPath),
        ...(confirm === undefined ? {} : { confirm }),
      },
    );

  it.each([
    ['DELETE FROM orders'],
    ["INSERT INTO orders (item) VALUES ('cake')"],
    ['DROP TABLE IF EXISTS nothing_here'],
  ])('a disagreement on %s names the same two levels on screen and in /audit', async (sql) => {
    const outcome = await run(sql, 'low');
    const decision = outcome.decision!;
    expect(decision.disagreement).toBe(true);
    const words = disagreementText(decision);
    expect(words).toBe(`the model rated it low, but the code rated it ${decision.codeLevel}`);
    expect(ranUnasked(decision)?.text).toContain(`ran without asking: ${words}`);
    expect(auditText(auditPath).split('\n').at(-1)).toContain(`(${words})`);
  });

  it('an INSERT the model rated low is medium to the code on screen and in /audit, never "high"', async () => {
    const outcome = await run("INSERT INTO orders (item) VALUES ('jam')", 'low');
    expect(outcome.decision?.codeLevel).toBe('medium');
    const line = auditText(auditPath).split('\n').at(-1)!;
    expect(line).toContain('the code rated it medium');
    expect(line).not.toContain('high');
    expect(ranUnasked(outcome.decision)?.text).toContain('the code rated it medium');
  });

  it("the person's note reaches the model and /audit as they wrote it, without a rule against it", async () => {
    const note = 'delete only the cancelled ones, with a WHERE';
    const outcome = await run('DELETE FROM orders', undefined, async () => ({ type: 'deny', note }));
    expect(outcome.forModel).toBe(
      `not run: the person declined this operation and left a note: "${note}". Do what their note asks.`,
    );
    expect(auditText(auditPath).split('\n').at(-1)).toContain(`→ denied · note: ${note}`);
  });

  it('a refusal without anyone to ask is called one by the model message and /audit, never a "no"', async () => {
    const refusal = 'riskgate ran without a terminal, so no one could be asked';
    const outcome = await run('DELETE FROM orders', undefined, async () => ({ type: 'deny', refusal }));
    expect(outcome.forModel).toContain(`refused for lack of consent (${refusal})`);
    expect(outcome.forModel).not.toContain('declined');
    const line = auditText(auditPath).split('\n').at(-1)!;
    expect(line).toContain(`refused for lack of consent: ${refusal}`);
    expect(line).not.toContain('note:');
  });
});
