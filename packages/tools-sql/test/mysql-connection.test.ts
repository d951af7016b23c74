import { judgeEffects } from '@riskgate/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assessAndRun,
  createDescribeSchemaTool,
  createExecuteSqlTool,
  isSqlFailure,
  openSqlConnection,
  type SqlConnection,
} from '../src/index.js';
import { MARIADB_SQL_FUNCTIONS, MYSQL_FUNCTION_EFFECTS, MYSQL_HARMLESS_FUNCTIONS } from '../src/mysql-knowledge.js';
import { callTool, createTempMysql, type TempMysql, describeCall, executeCall } from './helpers.js';

let server: TempMysql;
let connection: SqlConnection;
beforeAll(async () => {
  server = await createTempMysql(`
    CREATE TABLE customers (id INT PRIMARY KEY, name TEXT NOT NULL) ENGINE=InnoDB;
    CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, status VARCHAR(20) NOT NULL, total_cents INT NOT NULL,
      FOREIGN KEY (customer_id) REFERENCES customers(id), INDEX orders_status (status)) ENGINE=InnoDB;
    INSERT INTO customers VALUES (1, 'Ada'), (2, 'Ben'), (3, 'Chloé');
    INSERT INTO orders VALUES (1, 1, 'paid', 1200), (2, 1, 'pending', 800), (3, 2, 'paid', 4500), (4, 3, 'cancelled', 300), (5, 3, 'paid', 999);
    CREATE TABLE legacy (id INT) ENGINE=MyISAM;
    INSERT INTO legacy VALUES (1), (2);
    CREATE TABLE audited (id INT) ENGINE=InnoDB;
    INSERT INTO audited VALUES (1);
    CREATE TABLE audit_log (n INT) ENGINE=MyISAM;
    CREATE TRIGGER audit BEFORE DELETE ON audited FOR EACH ROW INSERT INTO audit_log VALUES (1);
    CREATE FUNCTION evil() RETURNS INT DETERMINISTIC RETURN 1;
    CREATE VIEW sleepy AS SELECT SLEEP(1) AS s;
    CREATE VIEW locker AS SELECT GET_LOCK('riskgate', 0) AS l;
    CREATE VIEW secrets AS SELECT User, authentication_string FROM mysql.user;
    CREATE VIEW nested AS SELECT * FROM sleepy;
    CREATE VIEW uses_evil AS SELECT evil() AS e;
    CREATE VIEW fine AS SELECT id, UPPER(status) AS status FROM orders;
  `);
  const opened = await openSqlConnection(server.url);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  connection = opened;
}, 30_000);
afterAll(async () => {
  await connection.close();
  await server.cleanup();
});

const judged = async (sql: string) => judgeEffects((await connection.assess(sql)).effects, { cwd: process.cwd() });

describe('MySQL/MariaDB: what is not a plain read', () => {
  it.each([
    ["SELECT LOAD_FILE('/etc/passwd')", /LOAD_FILE/],
    ["SELECT load_file('/etc/shadow')", /shadow|LOAD_FILE/],
    ['SELECT SLEEP(10)', /SLEEP/],
    ['SELECT sleep (10)', /SLEEP/],
    ['SELECT BENCHMARK(100000000, MD5(1))', /BENCHMARK/],
    ["SELECT GET_LOCK('x', 10)", /GET_LOCK/],
    ["SELECT RELEASE_LOCK('x')", /RELEASE_LOCK/],
    ['SELECT * FROM mysql.user', /account password hashes/],
    ['SELECT authentication_string FROM `mysql`.`user`', /account password hashes/],
    ['SELECT * FROM mysql . global_priv', /account password hashes/],
    ["SELECT Priv FROM mysql.global_priv WHERE User = 'root'", /account password hashes/],
    ['SELECT * FROM mysql.servers', /federated/],
    ["SHOW CREATE USER 'root'@'localhost'", /password hashes/],
    ['SHOW GRANTS', /password hashes/],
    ["SHOW GRANTS FOR 'root'@'localhost'", /password hashes/],
    ["SELECT * FROM orders INTO OUTFILE '/tmp/riskgate-out'", /riskgate-out/],
    ["SELECT 'x' INTO DUMPFILE '/tmp/riskgate-dump'", /riskgate-dump/],
    ['SELECT id INTO @x FROM orders LIMIT 1', /variables/],
    ['SELECT @x := 1', /assigns a user variable/],
    ['SELECT * FROM orders FOR UPDATE', /locks rows/],
    ['SELECT * FROM orders LOCK IN SHARE MODE', /locks rows/],
    ['SELECT evil()', /EVIL/],
    ['SELECT `evil`()', /evil/],
    [`SELECT ${'`'}sleep${'`'}(1)`, /sleep/],
    ['SELECT test.evil()', /evil/],
    ['DO SLEEP(1)', /SLEEP|not on the whitelist/],
    ['SHOW TABLES WHERE SLEEP(1)', /SLEEP/],
    ['SELECT NEXTVAL(s)', /sequence/],
    ['SELECT LAST_INSERT_ID(5)', /last insert id/],
    ["SELECT MASTER_POS_WAIT('f', 4)", /waits/],
    ['DELETE FROM orders', /DELETE without WHERE removes every row of orders/],
    ['TRUNCATE TABLE orders', /TRUNCATE removes every row of orders/],
    ["UPDATE orders SET status = 'x' WHERE id = 1", /UPDATE changes the rows of orders/],
    ['SET GLOBAL max_connections = 1', /SET changes/],
    ["SET @@session.sql_mode = 'NO_BACKSLASH_ESCAPES'", /SET changes/],
    ['USE mysql', /USE changes/],
    ['KILL 1', /KILL/],
    ['LOCK TABLES orders WRITE', /LOCK TABLES/],
    ["LOAD DATA INFILE '/etc/passwd' INTO TABLE orders", /passwd/],
    ['CALL p()', /stored procedure/],
    ['HANDLER orders OPEN', /HANDLER|not on the whitelist/],
    ['ANALYZE TABLE orders', /statistics/],
    ['EXPLAIN ANALYZE DELETE FROM orders', /EXPLAIN/],
    ['SELECT * FROM orders PROCEDURE ANALYSE()', /PROCEDURE|ANALYSE/],
    ["SELECT spider_direct_sql('DROP TABLE t', 'tmp', '')", /SPIDER_DIRECT_SQL/],
    ['SELECT * FROM sleepy', /SLEEP/],
    ['SELECT s FROM orders JOIN sleepy', /SLEEP/],
    ['SELECT * FROM locker', /GET_LOCK/],
    ['SELECT * FROM secrets', /account password hashes/],
    ['SELECT * FROM nested', /SLEEP/],
    ['SELECT * FROM uses_evil', /evil/i],
  ])('%s', async (sql, reason) => {
    const judgement = await judged(sql);
    expect(judgement.whitelisted).toBe(false);
    expect(judgement.reasons.join('\n')).toMatch(reason);
  });

  it('with `mysql` as the current database, `user` is mysql.user', async () => {
    const mysqlDb = await openSqlConnection(server.url.replace(/\/[^/]*$/, '/mysql'));
    if (isSqlFailure(mysqlDb)) throw new Error(mysqlDb.message);
    const judgement = judgeEffects((await mysqlDb.assess('SELECT User, authentication_string FROM user')).effects, {
      cwd: '/',
    });
    expect(judgement.whitelisted).toBe(false);
    await mysqlDb.close();
  });

  it('every function MariaDB lists in information_schema.SQL_FUNCTIONS is classified (vouched for, or an effect)', async () => {
    const rows = (await server.query('SELECT FUNCTION AS name FROM information_schema.SQL_FUNCTIONS')) as {
      name: string;
    }[];
    const unclassified = rows
      .map((row) => row.name)
      .filter((name) => !MYSQL_HARMLESS_FUNCTIONS.has(name) && MYSQL_FUNCTION_EFFECTS[name] === undefined);
    expect(unclassified).toEqual([]);
    const shipped = new Set(MARIADB_SQL_FUNCTIONS.split(/\s+/));
    expect(rows.filter((row) => !shipped.has(row.name) && MYSQL_FUNCTION_EFFECTS[row.name] === undefined)).toEqual([]);
  });
});

describe('SHOW and DESCRIBE and plain reads stay whitelisted, and MariaDB agrees they are reads', () => {
  const reads = [
    'SHOW TABLES',
    'SHOW FULL TABLES',
    'SHOW CREATE TABLE orders',
    'SHOW COLUMNS FROM orders',
    'SHOW INDEX FROM orders',
    "SHOW VARIABLES LIKE 'max_connections'",
    'SHOW DATABASES',
    'DESCRIBE orders',
    'DESC orders',
    "EXPLAIN SELECT * FROM orders WHERE status = 'paid'",
    'SELECT * FROM orders',
    'SELECT * FROM fine',
    "SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'paid' ORDER BY o.id LIMIT 2",
    'SELECT status, COUNT(*), SUM(total_cents), AVG(total_cents) FROM orders GROUP BY status HAVING COUNT(*) > 0',
    "SELECT CONCAT(name, '!'), UPPER(name), LEFT(name, 1), IF(id > 1, 'a', 'b'), DATE_FORMAT(NOW(), '%Y') FROM customers",
    "SELECT JSON_OBJECT('id', id), JSON_EXTRACT('{\"a\": 1}', '$.a'), COALESCE(NULL, 1), CAST(id AS CHAR(10)) FROM orders",
    'SELECT * FROM orders LIMIT 1, 2',
    'SELECT id FROM orders WHERE id IN (SELECT customer_id FROM orders) AND EXISTS (SELECT 1 FROM customers)',
    "WITH paid AS (SELECT * FROM orders WHERE status = 'paid') SELECT COUNT(*) FROM paid",
    'SELECT ROW_NUMBER() OVER (PARTITION BY status ORDER BY id) FROM orders',
    'SELECT 1 # a comment',
    'SELECT 1 -- a comment',
    "SELECT _utf8mb4'x' COLLATE utf8mb4_bin",
    'SELECT @@version, @@sql_mode',
    'SELECT GRANTEE FROM information_schema.USER_PRIVILEGES LIMIT 1',
  ];
  it.each(reads)('%s', async (sql) => {
    expect((await judged(sql)).whitelisted).toBe(true);
    const tool = createExecuteSqlTool({ connection });
    // The engine as the oracle: it runs inside START TRANSACTION READ ONLY.
    const result = await executeCall(tool, { sql }, { cwd: '.', signal: new AbortController().signal, readOnly: true });
    if (result.type !== 'tool-success') throw new Error(result.message);
  });

  it.each([
    "INSERT INTO customers VALUES (50, 'x')",
    "UPDATE orders SET status = 'x' WHERE id = 1",
    'DELETE FROM orders WHERE id = 1',
    'CREATE TEMPORARY TABLE tt (x INT)',
  ])('MariaDB itself refuses %s in the read-only transaction, and riskgate does not whitelist it', async (sql) => {
    expect((await judged(sql)).whitelisted).toBe(false);
    const result = await assessAndRun(connection, sql, {
      readOnly: true,
      signal: new AbortController().signal,
      timeoutMs: 5_000,
      maxRows: 10,
    });
    expect(isSqlFailure(result) && result.code).toMatch(/sql-read-only|sql-error/);
    expect(await server.count('orders')).toBe(5);
  });
});

describe('a real connection', () => {
  it('the demo flow: SELECT runs unasked, DELETE is asked with its row count, and "no" changes nothing', async () => {
    const tool = createExecuteSqlTool({ connection });
    const select = await callTool(tool, { sql: "SELECT COUNT(*) FROM orders WHERE status = 'paid'" });
    expect(select.asked).toBe(false);
    expect(select.ran && select.result.type === 'tool-success' && select.result.data.statements[0]!.rows[0]).toEqual([
      3,
    ]);
    const del = await callTool(tool, { sql: "DELETE FROM orders WHERE status = 'cancelled'" }, 'no');
    expect(del.asked).toBe(true);
    expect((del.description as { details: readonly string[] }).details.join('\n')).toMatch(
      /would delete 1 row of orders/,
    );
    expect(await server.count('orders')).toBe(5);
  });

  it('previews are rolled back; a MyISAM table or a trigger means no preview run at all', async () => {
    const tool = createExecuteSqlTool({ connection });
    const details = async (sql: string) =>
      ((await describeCall(tool, { sql }, { cwd: '.' })) as { details: readonly string[] }).details.join('\n');
    expect(await details("UPDATE orders SET status = 'x' WHERE status = 'paid'")).toMatch(
      /would change 3 rows of orders/,
    );
    expect(await server.count("orders WHERE status = 'paid'")).toBe(3);
    expect(await details('DELETE FROM legacy WHERE id = 1')).toMatch(
      /preview skipped: legacy uses the MyISAM engine, which cannot roll back/,
    );
    expect(await server.count('legacy')).toBe(2);
    expect(await details('DELETE FROM audited WHERE id = 1')).toMatch(/preview skipped: audited has the trigger audit/);
    expect(await server.count('audit_log')).toBe(0);
    expect(await details('DELETE FROM orders WHERE id = 1 AND SLEEP(5) = 0')).toMatch(/preview skipped: calls SLEEP/);
  });

  it('describe_schema reads tables, columns, keys and indexes', async () => {
    const tool = createDescribeSchemaTool({ connection });
    const result = await executeCall(
      tool,
      { table: 'orders' },
      { cwd: '.', signal: new AbortController().signal, readOnly: true },
    );
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.forModel).toMatch(/table orders/);
    expect(result.forModel).toMatch(/customer_id int.* NOT NULL/);
    expect(result.forModel).toMatch(/FOREIGN KEY \(customer_id\) REFERENCES customers\(id\)/);
    expect(result.forModel).toMatch(/INDEX orders_status \(status\)/);
  });

  it('a statement that runs too long is stopped on the server', async () => {
    const { plan } = await connection.assess('SELECT SLEEP(5)');
    const started = performance.now();
    const result = await connection.run(plan, {
      readOnly: false,
      signal: new AbortController().signal,
      timeoutMs: 400,
      maxRows: 10,
    });
    expect(isSqlFailure(result) && result.code).toBe('sql-timeout');
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('cancellation sends KILL QUERY: nothing keeps running on the server', async () => {
    const controller = new AbortController();
    const { plan } = await connection.assess('SELECT SLEEP(20), 1 AS riskgate_cancel_probe');
    setTimeout(() => controller.abort(), 300);
    const result = await connection.run(plan, {
      readOnly: false,
      signal: controller.signal,
      timeoutMs: 60_000,
      maxRows: 10,
    });
    expect(isSqlFailure(result) && result.code).toBe('sql-cancelled');
    const running = (await server.query(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%riskgate_cancel_probe%' AND INFO NOT LIKE '%PROCESSLIST%'",
    )) as { n: number }[];
    expect(Number(running[0]!.n)).toBe(0);
  });

  it('a SET on a confirmed call does not reach a later whitelisted read', async () => {
    for (let round = 0; round < 6; round++) {
      await assessAndRun(connection, "SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES,ANSI_QUOTES'; SET @leak = 1", {
        readOnly: false,
        signal: new AbortController().signal,
        timeoutMs: 5_000,
        maxRows: 10,
      });
      const read = await assessAndRun(connection, 'SELECT @@SESSION.sql_mode, @leak', {
        readOnly: true,
        signal: new AbortController().signal,
        timeoutMs: 5_000,
        maxRows: 10,
      });
      if (isSqlFailure(read)) throw new Error(read.message);
      expect(String(read.statements[0]!.rows[0]![0])).not.toMatch(/NO_BACKSLASH_ESCAPES/);
      expect(read.statements[0]!.rows[0]![1]).toBeNull();
    }
  });

  it('tells the model the true row count', async () => {
    const tool = createExecuteSqlTool({ connection, limits: { maxRows: 3, modelRows: 2 } });
    const result = await executeCall(
      tool,
      { sql: 'SELECT seq FROM seq_1_to_10000' },
      { cwd: '.', signal: new AbortController().signal, readOnly: true },
    );
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.statements[0]!.rows).toHaveLength(3);
    expect(result.forModel).toContain('(showing 2 of 10,000 rows)');
  });

  it.each([
    ['mysql://root@127.0.0.1:1/test', /cannot connect to mysql:\/\/root@127\.0\.0\.1:1\/test: connection refused/],
    ['mysql://root@127.0.0.1:3306/riskgate_no_such_database', /there is no database riskgate_no_such_database/],
    ['mariadb://root@127.0.0.1:3306/', /./],
  ])('opening %s', async (url, expected) => {
    const opened = await openSqlConnection(url);
    if (isSqlFailure(opened)) expect(opened.message).toMatch(expected);
    else {
      expect(url).toMatch(/^mariadb/);
      await opened.close();
    }
  });
});
