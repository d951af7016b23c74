import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { callTool } from './helpers.js';

// Attacks on what the SQLite side keeps between calls (sqlite-schema-snapshot.ts: the schema, the
// key/value keys, prepared statements, a statement's verdict and secret reads; the reader process's
// 64 prepared statements; secretColumnReads' last 128 texts). Every row warms the caches with a
// first call, changes something, and asserts the second call's safe outcome: asked, or the
// credential withheld from the model. A stale answer here hands a credential to the model.
const PASSWORD = 'Pw1-Zq7mW2xP9kL4';
/** A second credential, for rows where users.note (holding PASSWORD, not a credential by name) stays. */
const TOKEN = 'Tk9-Hb3vQ8nR5sW1';

/** What the model reads of a result that ran: the copy with the withheld values, when there is one. */
function forModel(result: unknown): string {
  const success = result as { forModel?: string; withheldForModel?: { text: string } };
  // A failure (the statement no longer prepares): what the model reads is its message.
  return success.withheldForModel?.text ?? success.forModel ?? JSON.stringify(result);
}

type Outcome = 'asked' | 'withheld' | 'safe';
type Run = (sql: string, answer?: 'yes' | 'no' | 'never-asked') => ReturnType<typeof callTool>;

/** The outcome a row asserts: asked (and refused here), or run with the password withheld. */
async function expectSafe(run: Run, sql: string, outcome: Outcome, secret = PASSWORD) {
  const call = await run(sql, 'no');
  if (outcome === 'asked') {
    expect(call.asked, `${sql} was not asked`).toBe(true);
    expect(call.decision.reasons.join(' ')).toMatch(/secret|credential/i);
    return;
  }
  if (call.asked) {
    expect(outcome, `${sql} was asked, the row expects it withheld`).toBe('safe');
    return;
  }
  const text = forModel(call.result);
  expect(text, `${sql} handed the credential to the model`).not.toContain(secret);
  if (outcome === 'withheld') expect(text).toMatch(/withheld/);
}

const BASE = `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
  INSERT INTO users VALUES (1, 'ada', '${PASSWORD}');
  CREATE TABLE accounts (id INTEGER PRIMARY KEY, pwd TEXT);
  INSERT INTO accounts VALUES (1, '${PASSWORD}');
  CREATE TABLE cfg (k TEXT PRIMARY KEY, v TEXT);
  INSERT INTO cfg VALUES ('theme', 'dark-blue-2');
  CREATE TABLE kvx (k TEXT, v TEXT);
  INSERT INTO kvx VALUES ('theme', 'dark-blue-2');
  CREATE VIEW v_users AS SELECT id, name FROM users;`;

interface FileRow {
  readonly name: string;
  readonly sql: string;
  /** Run before the connection opens (journal mode, extra objects). */
  readonly setup?: (database: Database.Database) => void;
  /** The change between the two calls, by another process (its own connection to the file). */
  readonly change: (database: Database.Database, path: string) => void;
  readonly outcome: Outcome;
  /** The value that must not reach the model (PASSWORD unless said). */
  readonly secret?: string;
}

const other = (sql: string) => (database: Database.Database) => database.exec(sql);

const FILE_ROWS: readonly FileRow[] = [
  // Columns: renamed, added, generated, rebuilt.
  {
    name: 'a column renamed to password',
    sql: 'SELECT * FROM users',
    change: other('ALTER TABLE users RENAME COLUMN note TO password'),
    outcome: 'withheld',
  },
  {
    name: 'a column renamed to "API_KEY" (quoted, upper case)',
    sql: 'SELECT * FROM users',
    change: other('ALTER TABLE users RENAME COLUMN note TO "API_KEY"'),
    outcome: 'withheld',
  },
  {
    name: 'a column added as secret_token',
    sql: 'SELECT * FROM users',
    change: other(`ALTER TABLE users ADD COLUMN secret_token TEXT; UPDATE users SET secret_token = '${TOKEN}'`),
    outcome: 'withheld',
    secret: TOKEN,
  },
  {
    name: 'a generated column api_key over note',
    sql: 'SELECT * FROM users',
    change: other("ALTER TABLE users ADD COLUMN api_key TEXT GENERATED ALWAYS AS (note || '-k') VIRTUAL"),
    outcome: 'withheld',
    secret: `${PASSWORD}-k`,
  },
  {
    name: 'the table rebuilt with a password column (drop, create, copy)',
    sql: 'SELECT * FROM users',
    change: other(
      `DROP TABLE users; CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, password TEXT); INSERT INTO users VALUES (1, 'ada', '${PASSWORD}')`,
    ),
    outcome: 'withheld',
  },
  {
    name: 'a dropped column (the password moved to another column name)',
    sql: 'SELECT * FROM users',
    setup: other(`ALTER TABLE users ADD COLUMN passwd TEXT; UPDATE users SET passwd = '${TOKEN}'`),
    change: other('ALTER TABLE users DROP COLUMN passwd'),
    outcome: 'safe',
    secret: TOKEN,
  },
  {
    name: 'a named column whose name only later says secret',
    sql: 'SELECT id, note FROM users',
    change: other('ALTER TABLE users RENAME COLUMN note TO password'),
    outcome: 'safe',
  },
  // Tables become views over credentials; views redefined.
  {
    name: 'the table replaced by a view handing out accounts.pwd',
    sql: 'SELECT * FROM users',
    change: other('DROP TABLE users; CREATE VIEW users AS SELECT id, pwd AS name, 1 AS note FROM accounts'),
    outcome: 'asked',
  },
  {
    name: 'a view redefined to read accounts.pwd',
    sql: 'SELECT * FROM v_users',
    change: other('DROP VIEW v_users; CREATE VIEW v_users AS SELECT id, pwd AS name FROM accounts'),
    outcome: 'asked',
  },
  {
    name: 'a view redefined through a view of a view',
    sql: 'SELECT name FROM v_users',
    change: other(
      'CREATE VIEW v_acc AS SELECT id, pwd AS p FROM accounts; DROP VIEW v_users; CREATE VIEW v_users AS SELECT id, p AS name FROM v_acc',
    ),
    outcome: 'asked',
  },
  {
    name: 'a view redefined over a column renamed to password',
    sql: 'SELECT * FROM v_users',
    change: other(
      'DROP VIEW v_users; ALTER TABLE users RENAME COLUMN note TO password; CREATE VIEW v_users AS SELECT id, password AS name FROM users',
    ),
    outcome: 'asked',
  },
  // Key/value data.
  {
    name: 'a credential key inserted',
    sql: 'SELECT v FROM cfg',
    change: other(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`),
    outcome: 'asked',
  },
  {
    name: 'a key updated to a credential key',
    sql: 'SELECT v FROM cfg',
    change: other(`UPDATE cfg SET k = 'stripe.secret', v = '${PASSWORD}'`),
    outcome: 'asked',
  },
  {
    name: 'a credential key through a repeated statement with a comment',
    sql: 'SELECT v FROM cfg /* list */',
    change: other(`INSERT INTO cfg VALUES ('db_password', '${PASSWORD}')`),
    outcome: 'asked',
  },
  {
    name: 'a credential key, WAL journal',
    sql: 'SELECT v FROM cfg',
    setup: (db) => db.pragma('journal_mode = WAL'),
    change: other(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`),
    outcome: 'asked',
  },
  {
    name: 'a column renamed to password, WAL journal',
    sql: 'SELECT * FROM users',
    setup: (db) => db.pragma('journal_mode = WAL'),
    change: other('ALTER TABLE users RENAME COLUMN note TO password'),
    outcome: 'withheld',
  },
  {
    name: 'a credential key, TRUNCATE journal',
    sql: 'SELECT v FROM cfg',
    setup: (db) => db.pragma('journal_mode = TRUNCATE'),
    change: other(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`),
    outcome: 'asked',
  },
  {
    name: 'a credential key, in a transaction by the other process',
    sql: 'SELECT group_concat(v) FROM cfg',
    change: other(`BEGIN IMMEDIATE; INSERT INTO cfg VALUES ('api_token', '${PASSWORD}'); COMMIT`),
    outcome: 'asked',
  },
  {
    name: 'a key/value table replaced by an fts5 virtual table with a credential key',
    sql: 'SELECT v FROM kvx',
    change: other(
      `DROP TABLE kvx; CREATE VIRTUAL TABLE kvx USING fts5(k, v); INSERT INTO kvx VALUES ('smtp_password', '${PASSWORD}')`,
    ),
    outcome: 'asked',
  },
  {
    name: 'a trigger that copies a credential key in on an unrelated insert',
    sql: 'SELECT v FROM cfg',
    change: other(
      `CREATE TRIGGER t AFTER INSERT ON users BEGIN INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}'); END; INSERT INTO users (name) VALUES ('ben')`,
    ),
    outcome: 'asked',
  },
  {
    name: 'writable_schema: a view rewritten in sqlite_schema',
    sql: 'SELECT * FROM v_users',
    change: (db) => {
      db.unsafeMode(true);
      db.pragma('writable_schema = ON');
      db.exec(
        "UPDATE sqlite_schema SET sql = 'CREATE VIEW v_users AS SELECT id, pwd AS name FROM accounts' WHERE name = 'v_users'",
      );
      db.pragma('writable_schema = OFF');
      db.exec('PRAGMA schema_version = 1000');
    },
    outcome: 'safe',
  },
  {
    name: 'writable_schema: a view rewritten, schema_version set back to its old value',
    sql: 'SELECT * FROM v_users',
    change: (db) => {
      const version = db.pragma('schema_version', { simple: true }) as number;
      db.unsafeMode(true);
      db.pragma('writable_schema = ON');
      db.exec(
        "UPDATE sqlite_schema SET sql = 'CREATE VIEW v_users AS SELECT id, pwd AS name FROM accounts' WHERE name = 'v_users'",
      );
      db.pragma('writable_schema = OFF');
      db.exec(`PRAGMA schema_version = ${version}`);
    },
    outcome: 'safe',
  },
  {
    name: 'a column renamed to password and renamed back to note and to password again (same shape)',
    sql: 'SELECT * FROM users',
    change: other(
      'ALTER TABLE users RENAME COLUMN note TO password; ALTER TABLE users RENAME COLUMN password TO note; ALTER TABLE users RENAME COLUMN note TO password',
    ),
    outcome: 'withheld',
  },
  {
    name: 'a credential key, the read second in a two-statement text',
    sql: 'SELECT 1 AS n; SELECT v FROM cfg',
    change: other(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`),
    outcome: 'asked',
  },
  {
    name: 'a column renamed to password, the read second in a two-statement text',
    sql: 'SELECT 1 AS n; SELECT * FROM users',
    change: other('ALTER TABLE users RENAME COLUMN note TO password'),
    outcome: 'withheld',
  },
  // The file itself replaced or rewritten.
  {
    name: 'the file replaced by rename (a new inode) with a credential key',
    sql: 'SELECT v FROM cfg',
    change: (_db, path) => replaceByRename(path),
    outcome: 'safe',
  },
  {
    name: 'the file truncated and rewritten in place with a credential key',
    sql: 'SELECT v FROM cfg',
    change: (_db, path) => rewriteInPlace(path),
    outcome: 'safe',
  },
];

/** A copy of the file with a credential key added, moved over it (the open handles keep the old inode). */
function replaceByRename(path: string) {
  const next = `${path}.next`;
  copyFileSync(path, next);
  const database = new Database(next);
  database.exec(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`);
  database.close();
  renameSync(next, path);
}

/** The same, written over the file's bytes (same inode). */
function rewriteInPlace(path: string) {
  const next = `${path}.next`;
  copyFileSync(path, next);
  const database = new Database(next);
  database.exec(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`);
  database.close();
  writeFileSync(path, readFileSync(next));
}

describe('a file database changed by another process between two calls', () => {
  let directory = '';
  let path = '';
  let connection: SqlConnection | undefined;
  let database: Database.Database | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-cache-attacks-'));
    path = join(directory, 'app.sqlite');
  });
  afterEach(async () => {
    await connection?.close();
    database?.close();
    connection = undefined;
    database = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  const open = async (row: { setup?: (database: Database.Database) => void }) => {
    database = new Database(path);
    database.exec(BASE);
    row.setup?.(database);
    const opened = await openSqlConnection(path);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    connection = opened;
    const tool = createExecuteSqlTool({ connection: opened });
    return ((sql, answer = 'never-asked') => callTool(tool, { sql }, answer)) as Run;
  };

  it.each(FILE_ROWS)('$name: $sql is $outcome', async (row) => {
    const run = await open(row);
    // The first call runs unasked (users.note is not a credential by its name yet).
    expect((await run(row.sql)).asked).toBe(false);
    row.change(database!, path);
    await expectSafe(run, row.sql, row.outcome, row.secret);
    // A third call, with every cache warm on the new state.
    await expectSafe(run, row.sql, row.outcome, row.secret);
  });

  it.each([
    {
      name: 'a column renamed to password',
      write: 'ALTER TABLE users RENAME COLUMN note TO password',
      sql: 'SELECT * FROM users',
      outcome: 'withheld' as const,
    },
    {
      name: 'a view redefined over accounts.pwd',
      write: 'DROP VIEW v_users; CREATE VIEW v_users AS SELECT id, pwd AS name FROM accounts',
      sql: 'SELECT * FROM v_users',
      outcome: 'asked' as const,
    },
    {
      name: 'a credential key updated in',
      write: "UPDATE cfg SET k = 'smtp_password'",
      sql: 'SELECT v FROM cfg',
      outcome: 'asked' as const,
    },
    {
      name: 'a TEMP view (in the writer process only: gone after it)',
      write: `UPDATE accounts SET pwd = '${TOKEN}'; CREATE TEMP VIEW users AS SELECT id, pwd AS name FROM accounts`,
      sql: 'SELECT * FROM users',
      outcome: 'safe' as const,
      secret: TOKEN,
    },
  ])("riskgate's own confirmed write on the file — $name: $sql is $outcome", async (row) => {
    const run = await open({});
    expect((await run(row.sql)).asked).toBe(false);
    const write = await run(row.write, 'yes');
    expect(write.ran).toBe(true);
    await expectSafe(run, row.sql, row.outcome, 'secret' in row ? row.secret : PASSWORD);
    await expectSafe(run, row.sql, row.outcome, 'secret' in row ? row.secret : PASSWORD);
  });

  const beforeFirstRead = async (row: FileRow) => {
    const run = await open(row);
    row.change(database!, path);
    await expectSafe(run, row.sql, row.outcome, row.secret);
    await expectSafe(run, row.sql, row.outcome, row.secret);
  };
  const rewritten = FILE_ROWS.filter((row) => row.name.startsWith('the file truncated'));
  const renamed = FILE_ROWS.filter((row) => row.name.startsWith('the file replaced'));
  // The assessor's connection keeps the old inode; the reader process starts at the first read: it
  // opened the new file, unjudged, and handed out its credential key (not of the cache: it failed
  // without it too). The reader now refuses a file other than the one riskgate opened.
  it.each([...rewritten, ...renamed])(
    '$name before the first read (the reader process not started): $sql is $outcome',
    beforeFirstRead,
  );
});

interface MemoryRow {
  readonly name: string;
  readonly sql: string;
  /** Confirmed calls (riskgate's own connection: `:memory:` reads and writes through the assessor's). */
  readonly change: readonly string[];
  readonly outcome: Outcome;
  readonly secret?: string;
  /** Confirmed calls before the first read. */
  readonly before?: readonly string[];
}

const MEMORY_ROWS: readonly MemoryRow[] = [
  {
    name: 'a column renamed to password',
    sql: 'SELECT * FROM users',
    change: ['ALTER TABLE users RENAME COLUMN note TO password'],
    outcome: 'withheld',
  },
  {
    name: 'a credential key inserted',
    sql: 'SELECT v FROM cfg',
    change: [`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`],
    outcome: 'asked',
  },
  {
    name: 'a TEMP view shadowing the table with accounts.pwd',
    sql: 'SELECT * FROM users',
    change: ['CREATE TEMP VIEW users AS SELECT id, pwd AS name, 1 AS note FROM accounts'],
    outcome: 'asked',
  },
  {
    name: 'a TEMP table shadowing the table with a password column',
    sql: 'SELECT * FROM users',
    change: [`CREATE TEMP TABLE users (id, name, password); INSERT INTO temp.users VALUES (1, 'ada', '${TOKEN}')`],
    outcome: 'withheld',
    secret: TOKEN,
  },
  {
    name: 'a TEMP key/value table shadowing cfg with a credential key',
    sql: 'SELECT v FROM cfg',
    change: [`CREATE TEMP TABLE cfg (k TEXT, v TEXT); INSERT INTO temp.cfg VALUES ('smtp_password', '${TOKEN}')`],
    outcome: 'asked',
    secret: TOKEN,
  },
  {
    name: 'a TEMP trigger that adds a credential key on an insert',
    sql: 'SELECT v FROM cfg',
    change: [
      `CREATE TEMP TRIGGER tt AFTER INSERT ON users BEGIN INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}'); END`,
      "INSERT INTO users (name) VALUES ('ben')",
    ],
    outcome: 'asked',
  },
  {
    name: 'a credential key deleted in an open transaction, then rolled back',
    sql: 'SELECT v FROM cfg',
    before: [
      `INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`,
      "BEGIN; DELETE FROM cfg WHERE k = 'smtp_password'",
    ],
    change: ['ROLLBACK'],
    outcome: 'asked',
  },
  {
    name: 'a credential key deleted after a savepoint, rolled back to it',
    sql: 'SELECT v FROM cfg',
    before: [
      `INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`,
      "SAVEPOINT s; DELETE FROM cfg WHERE k = 'smtp_password'",
    ],
    change: ['ROLLBACK TO s', 'RELEASE s'],
    outcome: 'asked',
  },
  {
    name: 'a credential key updated away in a transaction, then rolled back',
    sql: 'SELECT v FROM cfg',
    before: [
      `INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`,
      "BEGIN; UPDATE cfg SET k = 'smtp' WHERE k = 'smtp_password'",
    ],
    change: ['ROLLBACK'],
    outcome: 'asked',
  },
  {
    name: 'a password column renamed away in a transaction, then rolled back',
    sql: 'SELECT * FROM users',
    before: [
      'ALTER TABLE users RENAME COLUMN note TO password',
      'BEGIN',
      'ALTER TABLE users RENAME COLUMN password TO note',
    ],
    change: ['ROLLBACK'],
    outcome: 'withheld',
  },
];

describe("an in-memory database changed through riskgate's own connection between two calls", () => {
  let connection: SqlConnection | undefined;
  let directory = '';
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-cache-attacks-'));
  });
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  const open = async () => {
    const opened = await openSqlConnection(':memory:');
    if (isSqlFailure(opened)) throw new Error(opened.message);
    connection = opened;
    const tool = createExecuteSqlTool({ connection: opened });
    const run = ((sql, answer = 'never-asked') => callTool(tool, { sql }, answer)) as Run;
    const confirmed = async (sql: string) => {
      const call = await run(sql, 'yes');
      expect(call.ran, sql).toBe(true);
      expect(isSqlFailure((call.result as { data?: unknown }).data ?? {}), sql).toBe(false);
    };
    for (const statement of BASE.split(';')
      .map((text) => text.trim())
      .filter((text) => text !== ''))
      await confirmed(statement);
    return { run, confirmed };
  };

  it.each(MEMORY_ROWS)('$name: $sql is $outcome', async (row) => {
    const { run, confirmed } = await open();
    for (const sql of row.before ?? []) await confirmed(sql);
    expect((await run(row.sql)).asked).toBe(false);
    for (const sql of row.change) await confirmed(sql);
    await expectSafe(run, row.sql, row.outcome, row.secret);
    await expectSafe(run, row.sql, row.outcome, row.secret);
  });

  /** Two files made by the same statements: the same schema_version and data_version once attached. */
  const twin = (name: string, key: string) => {
    const file = join(directory, name);
    const database = new Database(file);
    database.exec("CREATE TABLE settings (k TEXT, v TEXT); INSERT INTO settings VALUES ('theme', 'dark-blue-2')");
    database.prepare('UPDATE settings SET k = ?, v = ?').run(key, PASSWORD);
    database.close();
    return file;
  };

  it.each([
    {
      name: 'DETACH, then ATTACH another file under the same name (two calls)',
      swap: (b: string) => ['DETACH x', `ATTACH '${b}' AS x`],
    },
    {
      name: 'DETACH and ATTACH another file under the same name (one call)',
      swap: (b: string) => [`DETACH x; ATTACH '${b}' AS x`],
    },
    {
      name: 'DETACH, then ATTACH another file as "X" (the name in another case)',
      swap: (b: string) => ['DETACH x', `ATTACH '${b}' AS "X"`],
    },
  ])('$name: SELECT v FROM x.settings is asked', async ({ swap }) => {
    const { run, confirmed } = await open();
    const a = twin('a.sqlite', 'theme');
    const b = twin('b.sqlite', 'smtp_password');
    await confirmed(`ATTACH '${a}' AS x`);
    for (const sql of ['SELECT v FROM x.settings', 'SELECT v FROM settings'])
      expect((await run(sql)).asked).toBe(false);
    for (const sql of swap(b)) await confirmed(sql);
    for (const sql of ['SELECT v FROM x.settings', 'SELECT v FROM settings']) {
      await expectSafe(run, sql, 'asked');
      await expectSafe(run, sql, 'asked');
    }
  });

  const attachedRows = [
    {
      name: 'a credential key inserted',
      change: `INSERT INTO settings VALUES ('smtp_password', '${PASSWORD}')`,
      sql: 'SELECT v FROM x.settings',
      outcome: 'asked' as const,
    },
    {
      name: 'a credential key inserted (unqualified read)',
      change: `INSERT INTO settings VALUES ('api_key', '${PASSWORD}')`,
      sql: 'SELECT v FROM settings',
      outcome: 'asked' as const,
    },
    {
      name: 'a view added over a credential table, read by name',
      change: `CREATE TABLE acc (id, pwd); INSERT INTO acc VALUES (1, '${PASSWORD}'); CREATE VIEW plain AS SELECT pwd AS v FROM acc`,
      sql: 'SELECT * FROM settings, plain',
      outcome: 'asked' as const,
      // Not of the cache (it failed without it too): only main's and temp's views were read.
      noFirst: true,
    },
    {
      name: 'a credential key in an attached cfg beside main.cfg, read qualified',
      change: `CREATE TABLE cfg (k TEXT, v TEXT); INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`,
      sql: 'SELECT v FROM x.cfg',
      outcome: 'asked' as const,
      // Not of the cache either: the key/value check read main.cfg's keys for `x.cfg`.
      noFirst: true,
    },
    {
      name: 'a column renamed to password',
      change: 'ALTER TABLE settings RENAME COLUMN v TO password',
      sql: 'SELECT * FROM x.settings',
      outcome: 'withheld' as const,
    },
  ];
  const attachedChanged = async (row: (typeof attachedRows)[number]) => {
    const { run, confirmed } = await open();
    const a = twin('a.sqlite', 'theme');
    await confirmed(`ATTACH '${a}' AS x`);
    if (!('noFirst' in row)) expect((await run(row.sql)).asked).toBe(false);
    const writer = new Database(a);
    writer.exec(row.change);
    writer.close();
    await expectSafe(run, row.sql, row.outcome);
    await expectSafe(run, row.sql, row.outcome);
  };
  it.each(attachedRows)('an attached file changed by another process — $name: $sql is $outcome', attachedChanged);
});

describe('the bounds of what is kept: past them an answer is read again, never wrong', () => {
  let directory = '';
  let connection: SqlConnection | undefined;
  let database: Database.Database | undefined;
  let run: Run;
  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-cache-bounds-'));
    const path = join(directory, 'app.sqlite');
    database = new Database(path);
    database.exec(BASE);
    const opened = await openSqlConnection(path);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    connection = opened;
    const tool = createExecuteSqlTool({ connection: opened });
    run = ((sql, answer = 'never-asked') => callTool(tool, { sql }, answer)) as Run;
  });
  afterEach(async () => {
    await connection?.close();
    database?.close();
    connection = undefined;
    database = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  /** Distinct statements, each judged, prepared, run (reader process) and its text kept. */
  const others = async (count: number, tag: string) => {
    for (let index = 0; index < count; index++) await run(`SELECT ${index} AS ${tag}${index} FROM users LIMIT 1`);
  };

  it.each([
    { name: '70 statements (past the 64 prepared) after the change', order: 'change-first' },
    { name: '70 statements (past the 64 prepared) before the change', order: 'others-first' },
  ])('the reader process and the snapshot, $name: SELECT * FROM users is withheld', async ({ order }) => {
    await run('SELECT * FROM users');
    if (order === 'others-first') await others(70, 'n');
    database!.exec('ALTER TABLE users RENAME COLUMN note TO password');
    if (order === 'change-first') await others(70, 'n');
    await expectSafe(run, 'SELECT * FROM users', 'withheld');
    await expectSafe(run, 'SELECT * FROM users', 'withheld');
  });

  it('a key/value read after 140 distinct statements (past 128 kept verdicts) and a credential key', async () => {
    await run('SELECT v FROM cfg');
    await others(140, 'm');
    database!.exec(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`);
    await expectSafe(run, 'SELECT v FROM cfg', 'asked');
    await others(140, 'k');
    await expectSafe(run, 'SELECT v FROM cfg', 'asked');
  });

  it('a statement naming 4,200 words (past the 4,096 kept answers) is judged whole, before and after a change', async () => {
    // Three subqueries of 1,400 columns (SQLite's bound is 2,000 per result): 4,200 distinct words.
    const part = (from: number) =>
      `EXISTS (SELECT ${Array.from({ length: 1_400 }, (_, index) => `1 AS w${from + index}`).join(', ')})`;
    const aliases = `0 AS first FROM cfg WHERE ${[0, 1_400, 2_800].map(part).join(' AND ')}`;
    const sql = `SELECT v, ${aliases}`;
    expect((await run(sql)).asked).toBe(false);
    database!.exec(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`);
    await expectSafe(run, sql, 'asked');
    // The same with the credential key there from the start of a snapshot.
    await expectSafe(run, `SELECT v, 2 AS tail, ${aliases}`, 'asked');
  });

  const spellings = [
    'SELECT pwd FROM accounts',
    'select   pwd   from accounts',
    'SELECT\n\tpwd\nFROM accounts',
    'SELECT/**/pwd/**/FROM accounts',
    'SELECT "PWD" FROM accounts',
    'SELECT [pwd] FROM accounts',
    'SELECT `pwd` FROM accounts',
    'SELECT pwd FROM accounts -- a comment',
    'SELECT pwd FROM accounts /* a comment */',
    `SELECT pwd FROM accounts -- ${'x'.repeat(9_000)}`,
    `SELECT pwd FROM accounts /* ${'y'.repeat(9_000)} */`,
    `SELECT ${'1 + '.repeat(3_000)}1 AS n, pwd FROM accounts`,
  ];
  it.each(
    spellings.map((sql) => ({ sql, label: sql.length > 60 ? `${sql.slice(0, 40)}… (${sql.length} chars)` : sql })),
  )('a credential column read, twice, around 130 other texts (past the 128 kept texts): $label is asked', async ({
    sql,
  }) => {
    await expectSafe(run, sql, 'asked');
    await others(130, 'q');
    await expectSafe(run, sql, 'asked');
    await expectSafe(run, sql, 'asked');
  });

  it.each([
    { name: 'a long comment (past the 8 KB kept-text bound)', sql: `SELECT * FROM users -- ${'z'.repeat(9_000)}` },
    { name: 'a long whitespace run', sql: `SELECT *${' '.repeat(9_000)}FROM users` },
    { name: 'the short text', sql: 'SELECT * FROM users' },
  ])('the same text meaning something else after a rename, $name: withheld', async ({ sql }) => {
    expect((await run(sql)).asked).toBe(false);
    database!.exec('ALTER TABLE users RENAME COLUMN note TO password');
    await expectSafe(run, sql, 'withheld');
    await expectSafe(run, sql, 'withheld');
  });

  it.each([
    {
      name: 'a table becoming a view over accounts.pwd',
      change: 'DROP TABLE users; CREATE VIEW users AS SELECT id, pwd AS name, 1 AS note FROM accounts',
      outcome: 'asked' as const,
    },
    {
      name: 'a table becoming a view with a password column',
      change:
        'ALTER TABLE accounts RENAME COLUMN pwd TO password; DROP TABLE users; CREATE VIEW users AS SELECT id, password FROM accounts',
      outcome: 'asked' as const,
    },
  ])('the same text after $name', async ({ change, outcome }) => {
    for (const sql of ['SELECT * FROM users', 'SELECT * FROM users /* c */'])
      expect((await run(sql)).asked).toBe(false);
    database!.exec(change);
    for (const sql of ['SELECT * FROM users', 'SELECT * FROM users /* c */']) await expectSafe(run, sql, outcome);
  });
});
