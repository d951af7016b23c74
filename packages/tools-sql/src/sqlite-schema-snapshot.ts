import type BetterSqlite3 from 'better-sqlite3';

/** One column as `pragma_table_info` gives it. */
export interface SqliteColumn {
  readonly name: string;
  readonly type: string;
}

/**
 * What the SQLite assessor reads from a database's schema and data for every statement — the
 * tables and views, view definitions, columns, the keys of key/value tables, the statement
 * prepared — read once and kept while the database is unchanged. Rescanned per call it cost
 * ~0.2 ms of every whitelisted SELECT (a `pragma_table_info` per word of the statement).
 *
 * Unchanged means: the same `schema_version` and `data_version` of every attached schema (DDL by
 * any connection; a commit by another one — another process, riskgate's writer process) and the
 * same `total_changes()` of this connection (its own writes: `:memory:`). A new attached schema
 * changes the list the key is read from. When the key cannot be read, nothing is kept.
 */
export interface SqliteSchemaSnapshot {
  /** Tables and views of main and temp, as SQLite spells them; undefined when SQLite cannot list them. */
  readonly relations: readonly string[] | undefined;
  /** Tables and views of main only. */
  readonly mainRelations: readonly string[] | undefined;
  /** Views of main and temp by lower-cased name: their definition as written; undefined when unreadable. */
  readonly views: ReadonlyMap<string, string> | undefined;
  /** `pragma_table_info(table)`; undefined when SQLite refuses it. */
  columns(table: string): readonly SqliteColumn[] | undefined;
  /** The distinct keys (as text) of a key/value table's first 10,000 rows; undefined when unreadable. */
  keys(table: string, keyColumn: string): readonly string[] | undefined;
  /** The statement prepared on this database, or SQLite's error. Never run: read for its verdict and columns. */
  prepared(text: string): BetterSqlite3.Statement | Error;
  /**
   * `compute()` once per snapshot and key (bounded): for what is a function of a statement's text
   * and this snapshot alone. The value is shared between calls: never change it.
   */
  memo<T>(key: string, compute: () => T): T;
}

/** Statements kept prepared per snapshot (a client repeating its queries; a bound on memory). */
const MAX_PREPARED = 64;

interface Kept {
  key: string;
  snapshot: SqliteSchemaSnapshot;
}

const KEPT = new WeakMap<BetterSqlite3.Database, Kept>();
/** The statement that reads the version key, by the list of schemas it was written for. */
const VERSION_READERS = new WeakMap<BetterSqlite3.Database, { schemas: string; statement: BetterSqlite3.Statement }>();

/** The database's snapshot: the kept one while nothing changed, else a fresh one (then kept). */
export function schemaSnapshot(database: BetterSqlite3.Database): SqliteSchemaSnapshot {
  const key = versionKey(database);
  if (key === undefined) return readSnapshot(database);
  const kept = KEPT.get(database);
  if (kept !== undefined && kept.key === key) return kept.snapshot;
  const snapshot = readSnapshot(database);
  KEPT.set(database, { key, snapshot });
  return snapshot;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const SCHEMA_LIST = '(SELECT group_concat(name, char(0)) FROM (SELECT name FROM pragma_database_list ORDER BY seq))';

/**
 * Every schema's schema_version and data_version, and this connection's total_changes(), as one
 * text — read by one statement (each is a read of the file's header: ~20 us). Its first column is
 * the list of schemas now; when that is not the list the statement was written for (an ATTACH on
 * this connection), it is written again for the new list.
 */
function versionKey(database: BetterSqlite3.Database): string | undefined {
  try {
    let reader = VERSION_READERS.get(database);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (reader !== undefined) {
        const row = reader.statement.get() as unknown[];
        if (row[0] === reader.schemas) return row.join(',');
      }
      const schemas = database.prepare(`SELECT ${SCHEMA_LIST}`).pluck(true).get() as string;
      const parts = schemas
        .split('\u0000')
        .flatMap((name) => [
          `(SELECT schema_version FROM ${quote(name)}.pragma_schema_version)`,
          `(SELECT data_version FROM ${quote(name)}.pragma_data_version)`,
        ]);
      const statement = database.prepare(`SELECT ${[SCHEMA_LIST, ...parts, 'total_changes()'].join(', ')}`).raw(true);
      reader = { schemas, statement };
      VERSION_READERS.set(database, reader);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function readSnapshot(database: BetterSqlite3.Database): SqliteSchemaSnapshot {
  // Only what SQLite answered is kept: a failure (a lock held past busy_timeout) is asked again next time.
  const columns = new Map<string, readonly SqliteColumn[]>();
  const keys = new Map<string, readonly string[]>();
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const memos = new Map<string, unknown>();
  /** Reads that failed so far: a memo computed over one is not kept (it may have missed what the read would show). */
  let failures = 0;
  let relations: { all: string[]; main: string[] } | undefined;
  let views: Map<string, string> | undefined;
  const readRelations = () => {
    if (relations !== undefined) return relations;
    try {
      const rows = database
        .prepare(
          "SELECT name, 1 AS main FROM sqlite_schema WHERE type IN ('table', 'view') UNION ALL SELECT name, 0 FROM sqlite_temp_schema WHERE type IN ('table', 'view')",
        )
        .all() as { name: string; main: number }[];
      relations = {
        all: [...new Set(rows.map((row) => row.name))],
        main: rows.filter((row) => row.main === 1).map((row) => row.name),
      };
    } catch {
      // An old SQLite without sqlite_schema: callers fall back to what the statement names.
      failures++;
    }
    return relations;
  };
  return {
    get relations() {
      return readRelations()?.all;
    },
    get mainRelations() {
      return readRelations()?.main;
    },
    get views() {
      if (views !== undefined) return views;
      try {
        const rows = database
          .prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'view' UNION ALL SELECT name, sql FROM sqlite_temp_master WHERE type = 'view'",
          )
          .all() as { name: string; sql: string | null }[];
        views = new Map(rows.map((row) => [row.name.toLowerCase(), row.sql ?? '']));
      } catch {
        failures++;
        return undefined;
      }
      return views;
    },
    columns(table) {
      const kept = columns.get(table);
      if (kept !== undefined) return kept;
      try {
        const found = database.prepare('SELECT name, type FROM pragma_table_info(?)').all(table) as SqliteColumn[];
        columns.set(table, found);
        return found;
      } catch {
        failures++;
        return undefined;
      }
    },
    keys(table, keyColumn) {
      const at = `${table}\u0000${keyColumn}`;
      const kept = keys.get(at);
      if (kept !== undefined) return kept;
      try {
        const found = (
          database
            .prepare(
              `SELECT DISTINCT CAST(${quote(keyColumn)} AS TEXT) AS key FROM (SELECT ${quote(keyColumn)} FROM ${quote(table)} LIMIT 10000)`,
            )
            .all() as { key: string | null }[]
        ).flatMap((row) => (row.key === null ? [] : [row.key]));
        keys.set(at, found);
        return found;
      } catch {
        failures++;
        return undefined;
      }
    },
    prepared(text) {
      const kept = prepared.get(text);
      if (kept !== undefined) return kept;
      let statement: BetterSqlite3.Statement;
      try {
        statement = database.prepare(text);
      } catch (error) {
        failures++;
        return error instanceof Error ? error : new Error(String(error));
      }
      if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value!);
      prepared.set(text, statement);
      return statement;
    },
    memo<T>(key: string, compute: () => T): T {
      if (memos.has(key)) return memos.get(key) as T;
      const before = failures;
      const value = compute();
      if (failures !== before) return value;
      // Shared by every call after this one: a change by one of them would reach the others.
      freeze(value, 3);
      if (memos.size >= MAX_PREPARED * 2) memos.delete(memos.keys().next().value!);
      memos.set(key, value);
      return value;
    },
  };
}

function freeze(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  if (depth > 0) for (const inner of Object.values(value)) freeze(inner, depth - 1);
}
