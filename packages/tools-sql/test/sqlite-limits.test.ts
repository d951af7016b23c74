import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { createTempSqlite, judgeSql, type TempSqlite, executeCall } from './helpers.js';

let shop: TempSqlite;
let connection: SqlConnection;
beforeAll(async () => {
  shop = createTempSqlite();
  const opened = await openSqlConnection(shop.path);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  connection = opened;
});
afterAll(async () => {
  await connection.close();
  shop.cleanup();
});

const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

describe('SQLite reads that cannot hang or exhaust riskgate', () => {
  it('an endless WITH RECURSIVE is stopped at the statement timeout, and riskgate stays responsive', async () => {
    const tool = createExecuteSqlTool({ connection, limits: { statementTimeoutMs: 500 } });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = performance.now();
    const result = await executeCall(
      tool,
      { sql: ENDLESS },
      { cwd: '.', signal: new AbortController().signal, readOnly: true },
    );
    clearInterval(ticker);
    const elapsed = performance.now() - started;
    expect(result.type).toBe('tool-error');
    if (result.type === 'tool-error') expect(result.code).toBe('sql-timeout');
    expect(elapsed).toBeLessThan(3_000);
    // The event loop kept running while SQLite counted (the read ran on another thread).
    expect(ticks).toBeGreaterThan(3);
    // And the next read works.
    const next = await executeCall(
      tool,
      { sql: 'SELECT count(*) FROM orders' },
      { cwd: '.', signal: new AbortController().signal, readOnly: true },
    );
    expect(next.type).toBe('tool-success');
  });

  it('cancellation stops it too', async () => {
    const tool = createExecuteSqlTool({ connection, limits: { statementTimeoutMs: 60_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await executeCall(tool, { sql: ENDLESS }, { cwd: '.', signal: controller.signal, readOnly: true });
    expect(result.type === 'tool-error' && result.code).toBe('sql-cancelled');
  });

  it('another writer is not blocked after the stopped read', async () => {
    const tool = createExecuteSqlTool({ connection, limits: { statementTimeoutMs: 300 } });
    await executeCall(tool, { sql: ENDLESS }, { cwd: '.', signal: new AbortController().signal, readOnly: true });
    const writer = new Database(shop.path);
    writer.pragma('busy_timeout = 1000');
    expect(() =>
      writer.exec("INSERT INTO customers (id, name) VALUES (77, 'w'); DELETE FROM customers WHERE id = 77"),
    ).not.toThrow();
    writer.close();
  });

  it.each([
    ['SELECT zeroblob(1000000000)'],
    ['SELECT length(zeroblob(1e9))'],
    ['SELECT randomblob(2000000000)'],
    ['SELECT hex(randomblob(id * 100000000)) FROM orders'],
    ['SELECT zeroblob((SELECT 1000000000))'],
    ["SELECT printf('%.*c', 1000000000, 'x')"],
    ["SELECT format('%2000000000d', 1)"],
  ])('%s is an unbounded-memory effect, not whitelisted', async (sql) => {
    for (const options of [
      { dialect: 'sqlite' as const },
      { dialect: 'sqlite' as const, sqlite: new Database(shop.path, { readonly: true }) },
    ]) {
      const judged = await judgeSql(sql, options);
      expect(judged.whitelisted).toBe(false);
      expect(judged.effects.some((entry) => entry.effect.kind === 'unbounded')).toBe(true);
    }
  });

  it.each([
    [ENDLESS],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x FROM c) SELECT max(x) FROM c'],
    ['with recursive n(i) as (values(1) union all select i + 1 from n) select sum(i) from n'],
    ['WITH RECURSIVE r AS (SELECT 1 AS v UNION SELECT v * 2 FROM r) SELECT * FROM r'],
  ])('a recursive query that nothing ends is unbounded time, never whitelisted: %s', async (sql) => {
    for (const judged of [
      await judgeSql(sql, { dialect: 'sqlite' }),
      await judgeSql(sql, { dialect: 'sqlite', sqlite: new Database(shop.path, { readonly: true }) }),
    ]) {
      expect(judged.whitelisted).toBe(false);
      expect(judged.effects.some((entry) => entry.effect.kind === 'unbounded')).toBe(true);
    }
  });

  it.each([
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10) SELECT * FROM c'],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT * FROM c LIMIT 5'],
    [
      'WITH RECURSIVE t(id) AS (SELECT id FROM customers WHERE id = 1 UNION ALL SELECT o.id FROM orders o JOIN t ON o.customer_id = t.id) SELECT * FROM t',
    ],
  ])('a recursive query with a condition or a LIMIT stays whitelisted: %s', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'sqlite' })).whitelisted).toBe(true);
  });

  it.each([
    ['SELECT zeroblob(16)'],
    ['SELECT hex(randomblob(16))'],
    ["SELECT printf('%5.2f', 3.14159)"],
  ])('small literal sizes stay whitelisted: %s', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'sqlite' })).whitelisted).toBe(true);
  });

  it('long cells are cut before they reach riskgate, and the model is told', async () => {
    const tool = createExecuteSqlTool({ connection });
    const result = await executeCall(
      tool,
      { sql: "SELECT replace(hex(zeroblob(50000)), '0', 'ab') AS big" },
      { cwd: '.', signal: new AbortController().signal, readOnly: true },
    );
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(String(result.data.statements[0]!.rows[0]![0]).length).toBeLessThanOrEqual(64 * 1024 + 1);
    expect(result.forModel).toMatch(/1 cell cut at 200 characters/);
  });
});

describe("without a database, SQLite text is read by SQLite's rules", () => {
  const attacks = [
    '/* /* */ ; DROP TABLE t; -- */',
    'SELECT 1 /* /* */ ; DROP TABLE t; -- */',
    "SELECT 1 /* /* */, load_extension('/tmp/x.so') -- */",
    "SELECT 1 /* /* */, writefile('/tmp/x', 'y') -- */",
    'SELECT 1 /* /* */ ; DELETE FROM orders; /* */',
    'SELECT $a$; DROP TABLE t; $a$',
    "SELECT E'\\'; DROP TABLE t; --'",
    'SELECT [a;b]; DROP TABLE t',
  ];
  it.each(attacks)('not whitelisted: %s', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'sqlite' })).whitelisted).toBe(false);
  });

  // SQLite itself is the oracle: what riskgate whitelists without a database, SQLite runs as reads only.
  it.each(attacks)('SQLite agrees: %s does not run as reads only', async (sql) => {
    const memory = new Database(':memory:');
    memory.exec('CREATE TABLE t (x); CREATE TABLE orders (x); CREATE TABLE "a;b" (x)');
    let allRead = true;
    try {
      let rest = sql;
      while (rest.trim() !== '') {
        const statement = memory.prepare(rest.split(';')[0]!);
        allRead &&= statement.readonly;
        rest = rest.slice(rest.split(';')[0]!.length + 1);
      }
    } catch {
      allRead = false;
    }
    const judged = await judgeSql(sql, { dialect: 'sqlite' });
    if (judged.whitelisted) expect(allRead).toBe(true);
    memory.close();
  });

  it.each([
    ['SELECT 1 /* a comment */'],
    ['SELECT * FROM orders -- trailing'],
    ["SELECT 'a /* not a comment */' AS x"],
    ["SELECT count(*) FROM orders WHERE status = 'paid'"],
    ["SELECT json_extract('{\"a\":1}', '$.a')"],
  ])('still whitelisted: %s', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'sqlite' })).whitelisted).toBe(true);
  });

  it.each([
    ["SELECT readfile('/etc/passwd')"],
    ["SELECT * FROM fsdir('/')"],
    ["SELECT edit('x', 'vi')"],
    ["SELECT eval('DELETE FROM orders')"],
    ['SELECT sqlar_uncompress(data, sz) FROM sqlar'],
    ['SELECT my_udf(1)'],
    ["SELECT fts3_tokenizer('simple', x'00')"],
  ])('functions SQLite does not vouch for are never whitelisted: %s', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'sqlite' })).whitelisted).toBe(false);
  });
});

describe('describe_schema does not count every row at start-up', () => {
  it('counts up to a cap and says "more than"', async () => {
    const big = createTempSqlite(
      'CREATE TABLE big (x); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 150000) INSERT INTO big SELECT i FROM c;',
    );
    const opened = await openSqlConnection(big.path);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    const schema = await opened.describeSchema();
    if (isSqlFailure(schema)) throw new Error(schema.message);
    expect(schema.tables[0]).toMatchObject({ name: 'big', rowEstimate: 100_000, rowCountCapped: true });
    await opened.close();
    big.cleanup();
  });
});

describe('the model is told the true row count', () => {
  it.each([
    ['SELECT id FROM orders ORDER BY id'],
    ['SELECT id FROM orders -- a trailing comment'],
    ['SELECT id FROM orders /* an unterminated comment'],
    ['PRAGMA table_info(orders)'],
  ])('%s', async (sql) => {
    const tool = createExecuteSqlTool({ connection, limits: { maxRows: 2, modelRows: 1 } });
    const result = await executeCall(tool, { sql }, { cwd: '.', signal: new AbortController().signal, readOnly: true });
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.statements[0]!.rows).toHaveLength(2);
    expect(result.data.statements[0]!.totalRows).toBe(sql.startsWith('PRAGMA') ? 4 : 5);
  });
});

describe('confirmed reads run where they can be stopped too', () => {
  it('a confirmed endless WITH RECURSIVE stops at the timeout', async () => {
    const tool = createExecuteSqlTool({ connection, limits: { statementTimeoutMs: 400 } });
    const result = await executeCall(
      tool,
      { sql: ENDLESS },
      { cwd: '.', signal: new AbortController().signal, readOnly: false },
    );
    expect(result.type === 'tool-error' && result.code).toBe('sql-timeout');
  });

  // An endless read that holds the table's read lock (it reads orders): a worker thread could not
  // be stopped inside SQLite, so it spun on at 100% CPU and every write failed "database is locked".
  it.each([
    ['whitelisted', true],
    ['confirmed', false],
  ])('a %s read stopped at the timeout leaves nothing running and no lock held', async (_name, readOnly) => {
    const locking = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM orders, c';
    const tool = createExecuteSqlTool({ connection, limits: { statementTimeoutMs: 400 } });
    const result = await executeCall(
      tool,
      { sql: locking },
      { cwd: '.', signal: new AbortController().signal, readOnly },
    );
    expect(result.type === 'tool-error' && result.code).toBe('sql-timeout');
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = process.cpuUsage(before);
    expect(used.user + used.system).toBeLessThan(150_000);
    const writer = new Database(shop.path);
    writer.pragma('busy_timeout = 0');
    expect(() =>
      writer.exec("INSERT INTO customers (id, name) VALUES (78, 'w'); DELETE FROM customers WHERE id = 78"),
    ).not.toThrow();
    writer.close();
    const own = await executeCall(
      tool,
      { sql: 'UPDATE customers SET name = name WHERE id = 1' },
      { cwd: '.', signal: new AbortController().signal, readOnly: false },
    );
    expect(own.type).toBe('tool-success');
  });

  it('a confirmed write still writes', async () => {
    const tool = createExecuteSqlTool({ connection });
    const result = await executeCall(
      tool,
      { sql: "INSERT INTO customers (id, name) VALUES (90, 'w')" },
      { cwd: '.', signal: new AbortController().signal, readOnly: false },
    );
    expect(result.type).toBe('tool-success');
    expect(shop.count('customers WHERE id = 90')).toBe(1);
  });
});
