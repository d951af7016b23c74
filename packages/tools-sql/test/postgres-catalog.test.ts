import { judgeEffects } from '@riskgate/risk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessSql } from '../src/index.js';
import { liveCatalog, type PgCatalog, snapshotCatalog } from '../src/pg-catalog.js';
import { PG_VOLATILE_HARMLESS } from '../src/pg-knowledge.js';
import { createTempPostgres, type TempPostgres } from './helpers.js';

/**
 * PostgreSQL as the oracle: every built-in function in pg_proc is asked about, in every shape
 * a statement can call it, against the live catalog and the shipped snapshot.
 */
let database: TempPostgres;
let pool: pg.Pool;
let live: PgCatalog;
let functions: { name: string; volatile: boolean; unary: boolean }[];

beforeAll(async () => {
  database = await createTempPostgres(`
    CREATE TABLE orders (id int PRIMARY KEY, status text);
    INSERT INTO orders VALUES (1, 'paid'), (2, 'open');
    CREATE FUNCTION evil() RETURNS int LANGUAGE sql VOLATILE AS 'SELECT 1';
    CREATE FUNCTION sneaky() RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 1';
    CREATE FUNCTION lower(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
    CREATE FUNCTION plus3(int, int) RETURNS int LANGUAGE sql AS 'SELECT $1 + $2';
    CREATE OPERATOR ~~~ (leftarg = int, rightarg = int, function = plus3);
    CREATE VIEW killer AS SELECT pg_terminate_backend(pg_backend_pid()) AS k;
    CREATE VIEW fine AS SELECT id, upper(status) FROM orders;
    CREATE VIEW over_killer AS SELECT * FROM killer;
    CREATE VIEW passwords AS SELECT rolname, rolpassword FROM pg_authid;
    CREATE TABLE guarded (id int);
    ALTER TABLE guarded ENABLE ROW LEVEL SECURITY;
    CREATE POLICY p ON guarded USING (pg_advisory_lock(42) IS NOT NULL);
    CREATE TYPE mood AS ENUM ('ok', 'sad');
    CREATE DOMAIN checked_int AS int CHECK (VALUE > 0);
    CREATE TYPE pair AS (a int, b int);
    CREATE FUNCTION int_to_pair(int) RETURNS pair LANGUAGE sql AS 'SELECT ($1, $1)::pair';
    CREATE CAST (int AS pair) WITH FUNCTION int_to_pair(int);
  `);
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  live = await liveCatalog(pool as never);
  const result = await pool.query<{ name: string; volatile: boolean; unary: boolean }>(
    `SELECT proname AS name, bool_or(provolatile = 'v') AS volatile, bool_or(pronargs = 1) AS unary
       FROM pg_proc WHERE oid < 16384 GROUP BY proname ORDER BY proname`,
  );
  functions = result.rows;
}, 60_000);
afterAll(async () => {
  await pool.end();
  await database.cleanup();
});

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
/** Every way a statement can call a function, for one name. */
function shapes(name: string, unary: boolean): string[] {
  const q = quote(name);
  return [
    `SELECT ${q}()`,
    `SELECT pg_catalog.${q}()`,
    `SELECT * FROM ${q}()`,
    `SELECT * FROM ROWS FROM (${q}())`,
    `SELECT 1 WHERE ${q}() IS NOT NULL`,
    `SELECT (SELECT ${q}()) AS hidden`,
    `WITH x AS (SELECT ${q}()) SELECT * FROM x`,
    ...(unary ? [`SELECT (1234).${q}`, `SELECT f.${q} FROM lower('x') f`, `SELECT o.${q} FROM orders o`] : []),
  ];
}

async function whitelisted(sql: string, catalog: PgCatalog): Promise<boolean> {
  const assessment = await assessSql(sql, { dialect: 'postgres', pgCatalog: catalog });
  return judgeEffects(assessment.effects, { cwd: process.cwd() }).whitelisted;
}

describe('every function in pg_proc, every call shape', () => {
  for (const which of ['live catalog', 'snapshot'] as const) {
    it(`no VOLATILE built-in outside the curated list is whitelisted (${which})`, async () => {
      const catalog = which === 'live catalog' ? live : snapshotCatalog();
      const volatile = functions.filter((entry) => entry.volatile && !PG_VOLATILE_HARMLESS.has(entry.name));
      expect(volatile.length).toBeGreaterThan(150);
      const passed: string[] = [];
      for (const entry of volatile) {
        for (const sql of shapes(entry.name, entry.unary)) if (await whitelisted(sql, catalog)) passed.push(sql);
      }
      expect(passed).toEqual([]);
    }, 120_000);
  }

  it('the curated volatile reads are VOLATILE built-ins in pg_proc (the list names real functions)', () => {
    const volatile = new Set(functions.filter((entry) => entry.volatile).map((entry) => entry.name));
    expect([...PG_VOLATILE_HARMLESS].filter((name) => !volatile.has(name))).toEqual([]);
  });

  it('helpfulness: almost every IMMUTABLE/STABLE built-in is whitelisted when called', async () => {
    const stable = functions.filter((entry) => !entry.volatile);
    let passed = 0;
    for (const entry of stable) if (await whitelisted(`SELECT ${quote(entry.name)}()`, live)) passed++;
    expect(passed / stable.length).toBeGreaterThan(0.97);
  }, 120_000);
});

describe("the issue's whitelisted 17, query-text functions, attribute notation", () => {
  const never = [
    "SELECT * FROM ts_stat('SELECT to_tsvector(pg_terminate_backend(12345)::text)')",
    "SELECT ts_rewrite('a'::tsquery, 'SELECT pg_advisory_lock(1)::text::tsquery, ''b''::tsquery')",
    "SELECT lowrite(0, 'x')",
    "SELECT pg_read_file_old('/etc/passwd', 0, 100)",
    'SELECT pg_rotate_logfile_old()',
    'SELECT * FROM pg_hba_file_rules()',
    'SELECT * FROM pg_show_all_file_settings()',
    "SELECT pg_nextoid('pg_class', 'oid', 'pg_class_oid_index')",
    'SELECT * FROM pg_ls_tmpdir()',
    'SELECT * FROM pg_ls_archive_statusdir()',
    "SELECT lo_from_bytea(0, 'x')",
    "SELECT lo_put(1, 0, 'x')",
    'SELECT pg_stat_reset_slru(NULL)',
    'SELECT pg_current_logfile()',
    "SELECT pg_replication_origin_create('x')",
    'SELECT pg_stat_clear_snapshot()',
    'SELECT pg_export_snapshot()',
    "SELECT query_to_xml('DELETE FROM orders RETURNING *', true, true, '')",
    "SELECT query_to_xml_and_xmlschema('SELECT pg_sleep(100)', true, true, '')",
    "SELECT cursor_to_xml('c', 1, true, true, '')",
    "SELECT table_to_xml('pg_authid', true, true, '')",
    "SELECT table_to_xmlschema('pg_authid', true, true, '')",
    "SELECT schema_to_xml('pg_catalog', true, true, '')",
    "SELECT database_to_xml(true, true, '')",
    'SELECT (1234).pg_terminate_backend',
    'SELECT (pg_backend_pid()).pg_cancel_backend',
    "SELECT f.pg_read_file FROM lower('/etc/passwd') f",
    "SELECT f.pg_ls_dir FROM lower('/') f",
    'SELECT (42::bigint).pg_advisory_lock',
    'SELECT (1234)."pg_terminate_backend"',
    'SELECT x.pg_sleep FROM (SELECT 100) x',
    "SELECT o.nextval FROM (SELECT 'orders_id_seq'::regclass) o",
    "SELECT (('x')::text).lo_import",
    'SELECT rolpassword FROM pg_authid',
    'SELECT * FROM pg_catalog.pg_authid',
    'SELECT passwd FROM pg_shadow',
    'SELECT * FROM pg_user_mappings',
    'SELECT umoptions FROM pg_user_mapping',
    'SELECT subconninfo FROM pg_subscription',
    'SELECT * FROM pg_file_settings',
    'SELECT * FROM pg_hba_file_rules',
    "SELECT current_setting('primary_conninfo')",
    "SELECT current_setting('PRIMARY_CONNINFO', true)",
    "SELECT current_setting('archive_command')",
    'SELECT current_setting(name) FROM pg_settings',
    'SHOW primary_conninfo',
    'SHOW ALL',
    'SHOW app.settings.jwt_secret',
    'SHOW "app.settings.jwt_secret"',
    'show APP.Settings.JWT_SECRET',
    "SELECT current_setting('app.settings.jwt_secret')",
    "SELECT current_setting('app.jwt_secret', true)",
    "SELECT pg_catalog.current_setting('request.jwt.claims', true)::json",
    "SELECT nullif(current_setting('myapp.api_key', true), '')",
    'SELECT setconfig FROM pg_db_role_setting',
    'SELECT * FROM pg_catalog.pg_db_role_setting',
    'SELECT * FROM information_schema.user_mapping_options',
    "SELECT option_value FROM information_schema.user_mapping_options WHERE option_name = 'password'",
    'SELECT * FROM information_schema.user_mappings',
    'SELECT * FROM information_schema._pg_user_mappings',
    "SELECT name, setting FROM pg_settings WHERE name = 'primary_conninfo'",
    'SELECT * FROM (SELECT * FROM pg_authid) a',
    'SELECT evil()',
    'SELECT public.evil()',
    'SELECT sneaky()',
    'SELECT lower(1)',
    'SELECT 1 ~~~ 2',
    'SELECT 1 OPERATOR(public.~~~) 2',
    'SELECT 1 OPERATOR(public.+) 2',
    'SELECT * FROM killer',
    'SELECT * FROM over_killer',
    'SELECT * FROM passwords',
    'SELECT * FROM guarded',
    "SELECT 'x'::public.mood_missing",
    'SELECT 1::checked_int',
    'SELECT 1::pair',
    'SELECT CAST(1 AS pair)',
    'SELECT * FROM orders TABLESAMPLE system_rows(10)',
    "SELECT * FROM dblink('host=evil', 'DELETE FROM t') AS t(x int)",
  ];
  it.each(never)('not whitelisted with the live catalog: %s', async (sql) => {
    expect(await whitelisted(sql, live)).toBe(false);
  });
  it.each(
    never.filter((sql) => !/evil|sneaky|lower\(1\)|\+\+\+|killer|passwords|guarded/.test(sql)),
  )('not whitelisted with the snapshot: %s', async (sql) => {
    expect(await whitelisted(sql, snapshotCatalog())).toBe(false);
  });

  const safe = [
    'SELECT * FROM orders',
    'SELECT * FROM fine',
    'SELECT id, initcap(status), upper(status), length(status), now(), random(), clock_timestamp(), gen_random_uuid() FROM orders',
    "SELECT date_trunc('day', now()), to_char(now(), 'YYYY'), coalesce(NULL, 1), greatest(1, 2), string_agg(status, ',') FROM orders",
    'SELECT count(*), sum(id), avg(id), max(id) FROM orders GROUP BY status HAVING count(*) > 0',
    'SELECT * FROM generate_series(1, 10)',
    "SELECT jsonb_build_object('a', 1), json_agg(o) FROM orders o",
    "SELECT pg_size_pretty(pg_total_relation_size('orders')), pg_database_size(current_database())",
    "SELECT has_table_privilege('orders', 'SELECT'), pg_get_viewdef('fine'::regclass), format_type(23, NULL)",
    "SELECT current_setting('work_mem'), current_setting('search_path')",
    'SHOW work_mem',
    'SELECT rolname FROM pg_roles',
    'SELECT pid, state, wait_event FROM pg_stat_activity', // its query column is a secret read (secret-columns.test.ts)
    "SELECT 'ok'::mood, 1::int, '2024-01-01'::date, 'a'::text, 1.5::numeric(10, 2)",
    "SELECT o.id, o.status FROM orders o WHERE o.status ~~ 'p%' ORDER BY o.id USING <",
    'SELECT * FROM orders TABLESAMPLE bernoulli(50)',
    'SELECT (o).id FROM orders o',
    'SELECT row_number() OVER (ORDER BY id) FROM orders',
    'EXPLAIN SELECT * FROM orders',
  ];
  it.each(safe)('still whitelisted with the live catalog: %s', async (sql) => {
    const assessment = await assessSql(sql, { dialect: 'postgres', pgCatalog: live });
    const judgement = judgeEffects(assessment.effects, { cwd: process.cwd() });
    expect(judgement.reasons).toEqual(expect.arrayContaining([expect.stringMatching(/only reads/)]));
    expect(judgement.whitelisted).toBe(true);
  });

  it('says why: secret reads and attribute-notation calls are named', async () => {
    const secret = await assessSql('SELECT rolpassword FROM pg_authid', { dialect: 'postgres', pgCatalog: live });
    expect(judgeEffects(secret.effects, { cwd: '/' }).reasons.join('\n')).toMatch(/pg_authid \(role password hashes\)/);
    const attribute = await assessSql('SELECT (1234).pg_terminate_backend', { dialect: 'postgres', pgCatalog: live });
    const judged = judgeEffects(attribute.effects, { cwd: '/' });
    expect(judged.reasons.join('\n')).toMatch(/pg_terminate_backend/);
    expect(judged.knownDanger).toBe(true);
    const view = await assessSql('SELECT * FROM killer', { dialect: 'postgres', pgCatalog: live });
    expect(judgeEffects(view.effects, { cwd: '/' }).reasons.join('\n')).toMatch(/pg_terminate_backend/);
  });

  it('a server file read is a read of that path, judged like a shell read', async () => {
    const assessment = await assessSql("SELECT pg_read_file('/etc/shadow')", { dialect: 'postgres', pgCatalog: live });
    expect(assessment.effects).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'read-path', path: '/etc/shadow' })]),
    );
    expect(judgeEffects(assessment.effects, { cwd: '/' }).effects.some((entry) => entry.verdict === 'secret')).toBe(
      true,
    );
  });
});
