import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { lexSql } from '../src/sql-lexer.js';
import {
  callTool,
  createTempMysql,
  createTempPostgres,
  createTempSqlite,
  judgeSql,
  type TempMysql,
  type TempPostgres,
} from './helpers.js';

// A routine's or trigger's body holds ';' of its own. The assessor split a PostgreSQL 15 script
// with a BEGIN ATOMIC body by PostgreSQL's grammar (2 statements) while the connection split it
// at every ';' (4 pieces) and the server answered "syntax error": one split for both now, read
// as psql and the mysql client read a script, and the engines run what riskgate sends.
const split = (sql: string, dialect: 'postgres' | 'sqlite' | 'mysql') =>
  lexSql(sql, { dialect }).statements.map((statement) => statement.text);

describe('the lexer keeps a body whole', () => {
  it.each([
    [
      'postgres',
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT CASE WHEN true THEN 2 END; END; SELECT f()',
      2,
    ],
    [
      'postgres',
      'CREATE OR REPLACE PROCEDURE p() LANGUAGE sql BEGIN ATOMIC INSERT INTO t VALUES (1); END; CALL p(); SELECT 1',
      3,
    ],
    ['postgres', 'BEGIN; SELECT 1; COMMIT', 3],
    ['postgres', 'CREATE TABLE begin_atomic (x int); SELECT 1', 2],
    [
      'sqlite',
      'CREATE TRIGGER t AFTER INSERT ON a BEGIN INSERT INTO b VALUES (1); UPDATE b SET x = CASE WHEN 1 THEN 2 END; END; SELECT 1',
      2,
    ],
    ['sqlite', "CREATE TEMP TRIGGER IF NOT EXISTS t BEFORE DELETE ON a BEGIN SELECT RAISE(ABORT, 'no'); END", 1],
    ['sqlite', 'BEGIN; DELETE FROM a; END', 3],
    [
      'mysql',
      'CREATE PROCEDURE p() BEGIN DECLARE x INT; IF x > 1 THEN SELECT 1; END IF; CASE x WHEN 1 THEN SELECT 2; END CASE; BEGIN SELECT 3; END; END; SELECT 4',
      2,
    ],
    [
      'mysql',
      'CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN WHILE 0 DO SET @x = 1; END WHILE; END; SELECT 1',
      2,
    ],
  ] as const)('%s: %s', (dialect, sql, pieces) => {
    expect(split(sql, dialect)).toHaveLength(pieces);
  });
});

describe('a body never hides a statement from the gate', () => {
  it.each([
    ['sqlite', 'SELECT 1; CREATE TRIGGER x AFTER INSERT ON customers BEGIN SELECT 1; DROP TABLE orders'],
    ['sqlite', 'CREATE TRIGGER x AFTER INSERT ON customers BEGIN DELETE FROM orders; END; SELECT 1'],
    [
      'postgres',
      'SELECT 1; CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END; DROP TABLE orders',
    ],
    ['postgres', 'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; DROP TABLE orders'],
    ['mysql', 'CREATE PROCEDURE p() BEGIN SELECT 1; END; DROP TABLE orders'],
    ['mysql', 'SELECT 1; CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO BEGIN DELETE FROM orders; END'],
  ] as const)('%s: %s is not whitelisted', async (dialect, sql) => {
    expect((await judgeSql(sql, { dialect })).whitelisted).toBe(false);
  });
});

describe('the engines run a script with a body as riskgate sends it', { timeout: 30_000 }, () => {
  let postgres: TempPostgres;
  let mysqlDatabase: TempMysql;
  const open = async (url: string): Promise<SqlConnection> => {
    const opened = await openSqlConnection(url);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    return opened;
  };
  beforeAll(async () => {
    postgres = await createTempPostgres();
    mysqlDatabase = await createTempMysql();
  });
  afterAll(async () => {
    await postgres.cleanup();
    await mysqlDatabase.cleanup();
  });

  it('PostgreSQL: a BEGIN ATOMIC function, confirmed, is created and answers', async () => {
    const connection = await open(postgres.url);
    try {
      const outcome = await callTool(
        createExecuteSqlTool({ connection }),
        {
          sql: 'CREATE FUNCTION paid_total() RETURNS bigint LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT CASE WHEN true THEN sum(total_cents) END FROM orders; END; SELECT paid_total() AS total',
        },
        'yes',
      );
      expect(outcome.asked).toBe(true);
      expect(outcome.ran && outcome.result.type).toBe('tool-success');
      const direct = await postgres.query(
        'SELECT paid_total() AS total, (SELECT sum(total_cents) FROM orders) AS expected',
      );
      expect(direct.rows[0].total).toBe(direct.rows[0].expected);
    } finally {
      await connection.close();
    }
  });

  it('SQLite: a trigger with two statements in its body, confirmed, fires', async () => {
    const shop = createTempSqlite();
    const connection = await open(shop.path);
    try {
      const outcome = await callTool(
        createExecuteSqlTool({ connection }),
        {
          sql: "CREATE TABLE log (what TEXT); CREATE TRIGGER logged AFTER INSERT ON customers BEGIN INSERT INTO log VALUES ('a'); INSERT INTO log VALUES ('b'); END; INSERT INTO customers (id, name) VALUES (90, 'z')",
        },
        'yes',
      );
      expect(outcome.ran && outcome.result.type).toBe('tool-success');
      const read = await callTool(createExecuteSqlTool({ connection }), { sql: 'SELECT count(*) AS n FROM log' });
      expect(read.ran && read.result.type === 'tool-success' && read.result.forModel).toMatch(/\n2\n/);
    } finally {
      await connection.close();
      shop.cleanup();
    }
  });

  it('MariaDB: a procedure with IF, CASE and a nested block, confirmed, is created and called', async () => {
    const connection = await open(mysqlDatabase.url);
    try {
      const outcome = await callTool(
        createExecuteSqlTool({ connection }),
        {
          sql: 'CREATE PROCEDURE bump() BEGIN DECLARE x INT DEFAULT 2; IF x > 1 THEN UPDATE orders SET total_cents = total_cents + 1; END IF; BEGIN SELECT 1; END; END; CALL bump()',
        },
        'yes',
      );
      expect(outcome.ran && outcome.result.type).toBe('tool-success');
      const routines = (await mysqlDatabase.query(
        `SELECT count(*) AS n FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = '${mysqlDatabase.name}' AND ROUTINE_NAME = 'bump'`,
      )) as { n: number }[];
      expect(Number(routines[0]!.n)).toBe(1);
    } finally {
      await connection.close();
    }
  });
});
