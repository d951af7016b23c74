import { judgeEffects } from '@riskgate/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessSql } from '../src/index.js';
import { createTempMysql, type TempMysql } from './helpers.js';

/**
 * MariaDB 10.11 as the oracle for MySQL lexing: each text runs as a plain client sends it
 * (multi-statements on) in a fresh database holding table t. Whatever riskgate whitelists must
 * run there as exactly the statements riskgate saw, and leave t in place.
 */
let server: TempMysql;
beforeAll(async () => {
  server = await createTempMysql('');
}, 30_000);
afterAll(async () => {
  await server.cleanup();
});

async function oracle(sql: string): Promise<{ statements: number | 'error'; tableSurvived: boolean }> {
  await server.query('DROP TABLE IF EXISTS t; CREATE TABLE t (x int) ENGINE=InnoDB; INSERT INTO t VALUES (1)');
  let statements: number | 'error';
  try {
    const mysql = (await import('mysql2/promise')).default;
    const url = new URL(server.url);
    const client = await mysql.createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: 'root',
      database: server.name,
      multipleStatements: true,
    });
    try {
      const [rows, fields] = await client.query(sql);
      const multi = Array.isArray(fields) && fields.length > 0 && (fields[0] === undefined || Array.isArray(fields[0]));
      statements = multi ? (rows as unknown[]).length : 1;
    } finally {
      await client.end();
    }
  } catch {
    statements = 'error';
  }
  const remaining = (await server.query(
    `SELECT count(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${server.name}' AND TABLE_NAME = 't'`,
  )) as { n: number }[];
  return { statements, tableSurvived: Number(remaining[0]!.n) === 1 };
}

async function verdict(sql: string) {
  const assessment = await assessSql(sql, { dialect: 'mysql' });
  return {
    statements: assessment.statements.length,
    whitelisted: judgeEffects(assessment.effects, { cwd: process.cwd() }).whitelisted,
  };
}

const DROP_PAYLOADS = [
  "SELECT 1 # '\n; DROP TABLE t; -- '",
  "SELECT 'a\\''; DROP TABLE t; -- '",
  'SELECT "a\\""; DROP TABLE t; -- "',
  "SELECT _utf8mb4'a\\''; DROP TABLE t; -- '",
  "SELECT x FROM t WHERE x = 'a\\\\'; DROP TABLE t; -- '",
  'SELECT 1 -- x\n; DROP TABLE t',
  'SELECT 1 #\n; DROP TABLE t',
  'SELECT 1 /* /* */ ; DROP TABLE t; -- */',
  'SELECT 1; DROP TABLE t',
  'SELECT `a;b` FROM (SELECT 1 AS `a;b`) d; DROP TABLE t',
  'SELECT 1 /*!, 2 */ ; DROP TABLE t',
  'SELECT 1\n#\\\n; DROP TABLE t',
  "SELECT N'x\\''; DROP TABLE t; -- '",
];

describe("the issue's payloads and their spellings, against MariaDB", () => {
  it.each(DROP_PAYLOADS)('%j drops t on MariaDB and is not whitelisted', async (sql) => {
    const server_ = await oracle(sql);
    expect(server_.tableSurvived).toBe(false);
    expect((await verdict(sql)).whitelisted).toBe(false);
  });
});

const ONE_READ = [
  "SELECT 1 --'\n; DROP TABLE t; -- '",
  "SELECT 'a'';DROP TABLE t;--'",
  "SELECT '\\\\'",
  'SELECT "x;y" AS z',
  'SELECT 1 /*!99999 , 2 */',
  'SELECT 1 # ; DROP TABLE t',
  'SELECT 1 -- ; DROP TABLE t',
  'SELECT `a``b` FROM (SELECT 1 AS `a``b`) d',
  "SELECT _utf8mb4'abc', X'41', B'1', N'n'",
  'SELECT x FROM t WHERE x = 1 /* ; DROP TABLE t */',
  'SELECT 1/*+ MAX_EXECUTION_TIME(1000) */',
  'SELECT --1',
];

/** Executable comments: MariaDB runs their content, so riskgate judges it. */
const EXECUTABLE = [
  'SELECT 1 /*! ; DROP TABLE t */',
  'SELECT 1 /*M! ; DROP TABLE t */',
  'SELECT 1 /*!100000 ; DROP TABLE t */',
  'SELECT 1 /*!, SLEEP(0.01) */',
  'SELECT 1 /*M!, SLEEP(0.01) */',
  "SELECT 1 /*!50000 , LOAD_FILE('/etc/passwd') */",
  "SELECT 1 /*M!100000 , GET_LOCK('x', 0) */",
  'SELECT 1 /*! FOR UPDATE */',
  'SELECT 1 /*!INTO @leak */',
  "SELECT * FROM t /*! INTO OUTFILE '/tmp/riskgate-leak' */",
];

describe('executable comments are SQL', () => {
  it.each(EXECUTABLE)('%j is not whitelisted', async (sql) => {
    expect((await verdict(sql)).whitelisted).toBe(false);
  });

  it('MariaDB does execute what is inside /*! … */ (SLEEP runs)', async () => {
    const rows = (await server.query('SELECT 1 AS a /*!, SLEEP(0) AS slept */')) as Record<string, unknown>[];
    expect(Object.keys(rows[0]!)).toEqual(['a', 'slept']);
  });
});

describe('texts MariaDB runs as one read', () => {
  it.each(ONE_READ)('%j: riskgate sees what MariaDB runs', async (sql) => {
    const server_ = await oracle(sql);
    const ours = await verdict(sql);
    expect(server_.tableSurvived).toBe(true);
    if (ours.whitelisted) expect(server_.statements).toBe(ours.statements);
  });

  it('riskgate sees the same statements as MariaDB for every payload it reads (oracle agreement)', async () => {
    const disagreements: string[] = [];
    for (const sql of [...DROP_PAYLOADS, ...ONE_READ]) {
      const server_ = await oracle(sql);
      const ours = await verdict(sql);
      if (ours.whitelisted && (server_.statements !== ours.statements || !server_.tableSurvived))
        disagreements.push(sql);
    }
    expect(disagreements).toEqual([]);
  }, 60_000);

  it.each(
    ONE_READ.filter((sql) => !sql.includes('99999') && !sql.includes('/*+')),
  )('still whitelisted: %j', async (sql) => {
    expect((await verdict(sql)).whitelisted).toBe(true);
  });
});

describe('NO_BACKSLASH_ESCAPES: unknown without a connection, so texts that read differently are asked about', () => {
  it.each(["SELECT 'a\\'; DROP TABLE t; -- '", "SELECT 'a\\' , SLEEP(1) -- '"])('%j', async (sql) => {
    expect((await verdict(sql)).whitelisted).toBe(false);
  });

  it("with the server's sql_mode known, the escape-free reading is used", async () => {
    const assessment = await assessSql("SELECT 'a\\'; DROP TABLE t; -- '", {
      dialect: 'mysql',
      mysql: { backslashEscapes: false },
    });
    expect(judgeEffects(assessment.effects, { cwd: '/' }).reasons.join('\n')).toMatch(/DROP/);
  });
});
