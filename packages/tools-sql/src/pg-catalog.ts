import {
  PG_OPERATORS,
  PG_SNAPSHOT_VERSION,
  PG_STABLE_FUNCTIONS,
  PG_TYPES,
  PG_VOLATILE_FUNCTIONS,
} from './data/pg-catalog-snapshot.js';

/**
 * What PostgreSQL's catalog says about names a statement uses. From a live server when there
 * is a connection (then user-defined functions, operators and types are known too), from the
 * shipped snapshot otherwise (scripts/generate-pg-catalog.mjs).
 */
export interface PgCatalog {
  /** "PostgreSQL 15.20" or "the PostgreSQL 15.20 catalog snapshot". */
  readonly source: string;
  /** Built-in function names whose every overload is IMMUTABLE or STABLE. */
  readonly stableFunctions: ReadonlySet<string>;
  /** Built-in function names with a VOLATILE overload. */
  readonly volatileFunctions: ReadonlySet<string>;
  /** Names of functions created by users or extensions (any schema). */
  readonly userFunctions: ReadonlySet<string>;
  readonly builtinOperators: ReadonlySet<string>;
  readonly userOperators: ReadonlySet<string>;
  readonly builtinTypes: ReadonlySet<string>;
  /** User types a cast may safely target (enums, composites: no user code runs). */
  readonly safeUserTypes: ReadonlySet<string>;
  /** Types a user-defined cast (CREATE CAST … WITH FUNCTION) converts to: a cast to them may run user code. */
  readonly userCastTargets?: ReadonlySet<string>;
  /** With a connection: what the named relations really are (views, policies, foreign tables). */
  inspectRelations?(names: readonly string[]): Promise<readonly RelationFacts[]>;
  /**
   * With a connection: the distinct keys of a key/value table (at most its first 10,000 rows),
   * read in a READ ONLY transaction with short timeouts; undefined when they cannot be read.
   */
  readKeys?(schema: string, table: string, keyColumn: string): Promise<readonly string[] | undefined>;
  /** With a connection: what a write to the table would run besides the statement. */
  inspectWriteTarget?(name: string): Promise<WriteTargetFacts>;
}

export interface RelationFacts {
  /** The name as the statement wrote it. */
  readonly written: string;
  readonly schema: string;
  readonly name: string;
  /** pg_class.relkind: r table, v view, m materialized view, f foreign table, … */
  readonly kind: string;
  /** A view's definition: reading the view runs it. */
  readonly definition: string | null;
  /** Row-level security expressions that run on every read. */
  readonly policies: readonly string[];
  /** The foreign server of a foreign table. */
  readonly server: string | null;
  /** A plain table (no row security) with a text key column (key|k|name) and a value column (value|val|v): [key, value]. */
  readonly key_value?: readonly [string, string] | null;
}

/** What a write to a table runs besides the statement itself. */
export interface WriteTargetFacts {
  /** "trigger audit (log_change)", "rule r": code riskgate cannot see into. */
  readonly runs: readonly string[];
  /** Column default expressions (INSERT evaluates them). */
  readonly defaults: readonly string[];
}

const words = (text: string) => new Set(text.split(' ').filter((word) => word !== ''));

let snapshot: PgCatalog | undefined;
export function snapshotCatalog(): PgCatalog {
  snapshot ??= {
    source: `the PostgreSQL ${PG_SNAPSHOT_VERSION.split(' ')[0]} catalog snapshot`,
    stableFunctions: words(PG_STABLE_FUNCTIONS),
    volatileFunctions: words(PG_VOLATILE_FUNCTIONS),
    userFunctions: new Set(),
    builtinOperators: words(PG_OPERATORS),
    userOperators: new Set(),
    builtinTypes: words(PG_TYPES),
    safeUserTypes: new Set(),
  };
  return snapshot;
}

/** Anything that runs a query: a pg.Pool or pg.Client. */
export interface Queryable {
  query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
  /** A pool's own client, for a transaction of several statements. */
  connect?(): Promise<Queryable & { release(error?: Error | boolean): void }>;
}

/** The live catalog: built-ins below FirstNormalObjectId (16384), everything else is a user's. */
export async function liveCatalog(database: Queryable): Promise<PgCatalog> {
  const [version, functions, operators, types, casts] = await Promise.all([
    database.query<{ server_version: string }>('SHOW server_version'),
    database.query<{ name: string; builtin: boolean; volatile: boolean }>(
      `SELECT proname AS name, oid < 16384 AS builtin, bool_or(provolatile = 'v') AS volatile FROM pg_proc GROUP BY 1, 2`,
    ),
    database.query<{ name: string; builtin: boolean }>(
      'SELECT DISTINCT oprname AS name, oid < 16384 AS builtin FROM pg_operator',
    ),
    database.query<{ name: string; builtin: boolean; safe: boolean }>(
      `SELECT DISTINCT typname AS name, oid < 16384 AS builtin, typtype IN ('e', 'c') AS safe FROM pg_type`,
    ),
    database.query<{ name: string }>(
      'SELECT DISTINCT t.typname AS name FROM pg_cast c JOIN pg_type t ON t.oid = c.casttarget WHERE c.oid >= 16384 AND c.castfunc <> 0',
    ),
  ]);
  const pick = <Row extends { name: string }>(rows: Row[], test: (row: Row) => boolean) =>
    new Set(rows.filter(test).map((row) => row.name));
  return {
    source: `PostgreSQL ${version.rows[0]?.server_version.split(' ')[0] ?? ''}`.trim(),
    stableFunctions: pick(functions.rows, (row) => row.builtin && !row.volatile),
    volatileFunctions: pick(functions.rows, (row) => row.builtin && row.volatile),
    userFunctions: pick(functions.rows, (row) => !row.builtin),
    builtinOperators: pick(operators.rows, (row) => row.builtin),
    userOperators: pick(operators.rows, (row) => !row.builtin),
    builtinTypes: pick(types.rows, (row) => row.builtin),
    safeUserTypes: pick(types.rows, (row) => !row.builtin && row.safe),
    userCastTargets: new Set(casts.rows.map((row) => row.name)),
    inspectRelations: (names) => inspectRelations(database, names),
    inspectWriteTarget: (name) => inspectWriteTarget(database, name),
    readKeys: (schema, table, keyColumn) => readKeys(database, schema, table, keyColumn),
  };
}

/** What each named relation is; views and policies are returned as SQL for the assessor to read. */
async function inspectRelations(database: Queryable, names: readonly string[]): Promise<readonly RelationFacts[]> {
  if (names.length === 0) return [];
  const result = await database.query<{
    written: string;
    schema: string;
    name: string;
    kind: string;
    definition: string | null;
    policies: string[];
    server: string | null;
  }>(
    `SELECT w.written, n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
            CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) END AS definition,
            CASE WHEN c.relrowsecurity THEN ARRAY(SELECT coalesce(pg_get_expr(p.polqual, p.polrelid), 'true') FROM pg_policy p WHERE p.polrelid = c.oid)
                 ELSE ARRAY[]::text[] END AS policies,
            (SELECT s.srvname::text FROM pg_foreign_table ft JOIN pg_foreign_server s ON s.oid = ft.ftserver WHERE ft.ftrelid = c.oid) AS server,
            CASE WHEN c.relkind IN ('r', 'p') AND NOT c.relrowsecurity THEN
              (SELECT ARRAY[k.attname::text, v.attname::text] FROM pg_attribute k, pg_attribute v
                WHERE k.attrelid = c.oid AND v.attrelid = c.oid AND k.attnum > 0 AND v.attnum > 0 AND NOT k.attisdropped AND NOT v.attisdropped
                  AND k.attname IN ('key', 'k', 'name') AND v.attname IN ('value', 'val', 'v') AND k.atttypid IN (25, 1043, 1042, 19)
                ORDER BY array_position(ARRAY['key', 'k', 'name'], k.attname::text), array_position(ARRAY['value', 'val', 'v'], v.attname::text) LIMIT 1)
            END AS key_value
       FROM unnest($1::text[]) AS w(written)
       JOIN pg_class c ON c.oid = to_regclass(w.written)
       JOIN pg_namespace n ON n.oid = c.relnamespace`,
    [names],
  );
  return result.rows;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The keys of a key/value table: its text key column only (no user code runs), bounded in rows and time. */
async function readKeys(
  database: Queryable,
  schema: string,
  table: string,
  keyColumn: string,
): Promise<readonly string[] | undefined> {
  if (database.connect === undefined) return undefined;
  const client = await database.connect();
  let broken = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query("SET LOCAL statement_timeout = '1s'");
    await client.query("SET LOCAL lock_timeout = '200ms'");
    const column = quoteIdentifier(keyColumn);
    const result = await client.query<{ key: string }>(
      `SELECT DISTINCT ${column}::text AS key FROM (SELECT ${column} FROM ${quoteIdentifier(schema)}.${quoteIdentifier(table)} LIMIT 10000) AS rows WHERE ${column} IS NOT NULL`,
    );
    await client.query('COMMIT');
    return result.rows.map((row) => row.key);
  } catch {
    broken = true;
    return undefined;
  } finally {
    // A client whose transaction failed is closed, not returned to the pool.
    client.release(broken);
  }
}

async function inspectWriteTarget(database: Queryable, name: string): Promise<WriteTargetFacts> {
  const runs = await database.query<{ what: string }>(
    `SELECT 'trigger ' || tgname || ' (' || tgfoid::regproc::text || ')' AS what FROM pg_trigger WHERE tgrelid = to_regclass($1) AND NOT tgisinternal
     UNION ALL
     SELECT 'rule ' || rulename FROM pg_rewrite WHERE ev_class = to_regclass($1) AND rulename <> '_RETURN'`,
    [name],
  );
  const defaults = await database.query<{ expression: string }>(
    'SELECT pg_get_expr(adbin, adrelid) AS expression FROM pg_attrdef WHERE adrelid = to_regclass($1)',
    [name],
  );
  return { runs: runs.rows.map((row) => row.what), defaults: defaults.rows.map((row) => row.expression) };
}
