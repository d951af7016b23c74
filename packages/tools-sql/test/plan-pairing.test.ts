import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isSqlFailure, openSqlConnection, type SqlConnection, type SqlPlan } from '../src/index.js';
import { createTempMysql, createTempPostgres, createTempSqlite, type TempMysql, type TempPostgres } from './helpers.js';
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.js';

// Every statement the assessor judged is what the server received, one for one: the
// connections send the plan's statements and never split the text again (issue 23: a
// PostgreSQL 15 script with a BEGIN ATOMIC body was judged as 2 statements and sent as 4).
// PostgreSQL and MariaDB: a loopback proxy reads the Query/Parse and COM_QUERY messages off the
// wire. SQLite: the texts handed to the reader and writer processes, each of which SQLite
// prepares as one statement (better-sqlite3 refuses a text holding two).

const handed = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:child_process')>();
  const spawn = ((...args: Parameters<typeof actual.spawn>) => {
    const child = actual.spawn(...args);
    // The reader takes its statements over IPC, the writer as one JSON job on stdin.
    const send = child.send?.bind(child);
    if (send !== undefined)
      child.send = ((message: { statements?: { text: string }[] }, ...rest: unknown[]) => {
        handed.texts.push(...(message.statements ?? []).map((statement) => statement.text));
        return (send as (...all: unknown[]) => boolean)(message, ...rest);
      }) as typeof child.send;
    const stdin = child.stdin;
    if (stdin !== null) {
      const end = stdin.end.bind(stdin);
      stdin.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk === 'string' && chunk.startsWith('{'))
          handed.texts.push(...(JSON.parse(chunk) as { statements: { text: string }[] }).statements.map((s) => s.text));
        return (end as (...all: unknown[]) => typeof stdin)(chunk, ...rest);
      }) as typeof stdin.end;
    }
    return child;
  }) as typeof actual.spawn;
  return { ...actual, spawn, default: { ...actual, spawn } };
});

/** Riskgate's own statements around a run (its transaction, timeouts, type names): not the script's. */
const FRAMING =
  /^(BEGIN READ ONLY|SET (LOCAL |SESSION )?(statement_timeout|max_statement_time|max_execution_time) = [\d.]+|RESET statement_timeout|SELECT txid_current\(\)::text AS xid|SELECT CASE WHEN current_setting\('is_superuser'\)|SELECT oid::int AS oid, typname FROM pg_type|START TRANSACTION READ ONLY)/;

const run = (connection: SqlConnection, plan: SqlPlan, readOnly: boolean) =>
  connection.run(plan, { readOnly, signal: new AbortController().signal, timeoutMs: 10_000, maxRows: 100 });

/** The plan's statements are exact spans of the text, and as many as the engine's own reading. */
async function planOf(connection: SqlConnection, sql: string, statements: number): Promise<SqlPlan> {
  const { plan } = await connection.assess(sql);
  expect(plan.statements.map((statement) => statement.text)).toEqual(
    plan.statements.map((statement) => sql.slice(statement.start, statement.end)),
  );
  expect(plan.statements).toHaveLength(statements);
  return plan;
}

async function openThrough(url: string, port: number): Promise<SqlConnection> {
  const target = new URL(url);
  target.port = String(port);
  const opened = await openSqlConnection(target.toString());
  if (isSqlFailure(opened)) throw new Error(opened.message);
  return opened;
}

type Row = readonly [name: string, sql: string, statements: number, readOnly: boolean, wrapped: boolean];

describe('PostgreSQL receives the statements as assessed', { timeout: 30_000 }, () => {
  let database: TempPostgres;
  let proxy: RecordingProxy;
  let connection: SqlConnection;
  beforeAll(async () => {
    database = await createTempPostgres();
    const target = new URL(database.url);
    proxy = await startRecordingProxy({ host: target.hostname, port: Number(target.port || 5432) }, 'postgres');
    connection = await openThrough(database.url, proxy.port);
  });
  afterAll(async () => {
    await connection.close();
    await proxy.close();
    await database.cleanup();
  });

  it.each<Row>([
    [
      'a BEGIN ATOMIC function body (PostgreSQL 15)',
      'CREATE FUNCTION paid_total() RETURNS bigint LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT CASE WHEN true THEN sum(total_cents) END FROM orders; END; SELECT paid_total() AS total',
      2,
      false,
      true,
    ],
    [
      'dollar-quoted bodies, a trigger, a procedure, nested comments',
      "CREATE TABLE audit (what text); CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN INSERT INTO audit VALUES ('x;y'); RETURN NEW; END; $fn$; CREATE TRIGGER noted AFTER INSERT ON customers FOR EACH ROW EXECUTE FUNCTION note(); CREATE PROCEDURE add_one() LANGUAGE plpgsql AS $$ BEGIN INSERT INTO customers (id, name) VALUES (50, 'Zoë; -- x'); END $$; CALL add_one(); /* nested /* ; */ comment */ SELECT count(*) FROM audit -- done;",
      6,
      false,
      true,
    ],
    ['text after non-ASCII characters (spans in bytes)', "SELECT 'é;è' AS a; SELECT 'ü' AS b; SELECT 3", 3, true, true],
    [
      "the script's own transaction control",
      'BEGIN; UPDATE orders SET total_cents = 1 WHERE id = 1; SAVEPOINT s; COMMIT',
      4,
      false,
      false,
    ],
  ])('%s', async (_name, sql, statements, readOnly, wrapped) => {
    const plan = await planOf(connection, sql, statements);
    proxy.clear();
    const result = await run(connection, plan, readOnly);
    expect(isSqlFailure(result) ? result.message : 'ran').toBe('ran');
    const texts = plan.statements.map((statement) => statement.text);
    const framed = wrapped ? [...(readOnly ? [] : ['BEGIN']), ...texts, readOnly ? 'ROLLBACK' : 'COMMIT'] : texts;
    expect(proxy.sent.filter((text) => !FRAMING.test(text))).toEqual(framed);
  });
});

describe('MariaDB receives the statements as assessed', { timeout: 30_000 }, () => {
  let database: TempMysql;
  let proxy: RecordingProxy;
  let connection: SqlConnection;
  beforeAll(async () => {
    database = await createTempMysql();
    const target = new URL(database.url);
    proxy = await startRecordingProxy({ host: target.hostname, port: Number(target.port || 3306) }, 'mysql');
    connection = await openThrough(database.url, proxy.port);
  });
  afterAll(async () => {
    await connection.close();
    await proxy.close();
    await database.cleanup();
  });

  it.each<Row>([
    [
      'a procedure with IF, CASE and a nested block (no DELIMITER)',
      'CREATE PROCEDURE bump() BEGIN DECLARE x INT DEFAULT 2; IF x > 1 THEN UPDATE orders SET total_cents = total_cents + 1; END IF; CASE x WHEN 2 THEN SELECT 2; ELSE BEGIN END; END CASE; BEGIN SELECT 1; END; END; CALL bump()',
      2,
      false,
      false,
    ],
    [
      'a function, a trigger, strings and # comments holding ;',
      "CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC BEGIN DECLARE y INT; SET y = x * 2; RETURN y; END; CREATE TABLE audit (what TEXT); CREATE TRIGGER noted AFTER INSERT ON customers FOR EACH ROW BEGIN INSERT INTO audit VALUES ('a;b'); END; INSERT INTO customers (id, name) VALUES (60, 'Zoë; # not a comment'); # a comment;\nSELECT twice(2) AS four, (SELECT count(*) FROM audit) AS n",
      5,
      false,
      false,
    ],
    [
      'an event whose body has statements of its own',
      "CREATE EVENT nightly ON SCHEDULE EVERY 1 DAY DISABLE DO BEGIN UPDATE orders SET status = 'x;y' WHERE id = 0; DELETE FROM orders WHERE id = 0; END; SELECT 1",
      2,
      false,
      false,
    ],
    ['a whitelisted read of several statements', "SELECT 'é;è' AS a; SELECT 2 /* ; */; SELECT 3 -- ;\n", 3, true, true],
  ])('%s', async (_name, sql, statements, readOnly, wrapped) => {
    const plan = await planOf(connection, sql, statements);
    proxy.clear();
    const result = await run(connection, plan, readOnly);
    expect(isSqlFailure(result) ? result.message : 'ran').toBe('ran');
    const texts = plan.statements.map((statement) => statement.text);
    expect(proxy.sent.filter((text) => !FRAMING.test(text))).toEqual(wrapped ? [...texts, 'ROLLBACK'] : texts);
  });
});

describe('SQLite prepares the statements as assessed', { timeout: 30_000 }, () => {
  const shop = createTempSqlite();
  let connection: SqlConnection;
  beforeAll(async () => {
    const opened = await openSqlConnection(shop.path);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    connection = opened;
  });
  afterAll(async () => {
    await connection.close();
    shop.cleanup();
  });

  it.each<readonly [string, string, number, boolean]>([
    [
      'a trigger body with CASE … END, strings and comments holding ;',
      "CREATE TABLE log (what TEXT); CREATE TRIGGER logged AFTER INSERT ON customers BEGIN INSERT INTO log VALUES ('a;b'); UPDATE log SET what = CASE WHEN what = 'x' THEN 'y' ELSE what END; END; INSERT INTO customers (id, name) VALUES (90, 'Zoë; -- not a comment'); /* a ; comment */ SELECT count(*) FROM log -- trailing ;",
      4,
      false,
    ],
    ["the script's own transaction control", 'BEGIN; UPDATE orders SET total_cents = 2 WHERE id = 2; END', 3, false],
    ['a whitelisted read of several statements (the reader process)', "SELECT 'é;è' AS a; SELECT 2 /* ; */", 2, true],
  ])('%s', async (_name, sql, statements, readOnly) => {
    const plan = await planOf(connection, sql, statements);
    handed.texts.length = 0;
    const result = await run(connection, plan, readOnly);
    expect(isSqlFailure(result) ? result.message : 'ran').toBe('ran');
    expect(handed.texts).toEqual(plan.statements.map((statement) => statement.text));
  });
});
