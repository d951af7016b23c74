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
 * changes the list the key is read from. When the key cannot be read, or a transaction is open on
 * the connection, nothing is kept; riskgate's own statements on it forget what was kept.
 */
export interface SqliteSchemaSnapshot {
  /** Tables and views of main and temp, as SQLite spells them; undefined when SQLite cannot list them. */
  readonly relations: readonly string[] | undefined;
  /** Tables and views of main only. */
  readonly mainRelations: readonly string[] | undefined;
  /** Views of every schema (main, temp, attached) by lower-cased name: their definitions as written (all of a name's); undefined when unreadable. */
  readonly views: ReadonlyMap<string, string> | undefined;
  /** The schemas of the connection (main, temp, attached ones) by lower-cased name; undefined when unreadable. */
  readonly schemas: readonly string[] | undefined;
  /** `pragma_table_info(table[, schema])`; undefined when SQLite refuses it. */
  columns(table: string, schema?: string): readonly SqliteColumn[] | undefined;
  /** The distinct keys (as text) of a key/value table's first 10,000 rows (in `schema` when given); undefined when unreadable. */
  keys(table: string, keyColumn: string, schema?: string): readonly string[] | undefined;
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
/** Tables' columns, key/value keys and lists kept per snapshot. */
const MAX_ANSWERS = 4096;

interface Kept {
  key: string;
  snapshot: SqliteSchemaSnapshot;
}

const KEPT = new WeakMap<BetterSqlite3.Database, Kept>();
/** The statements that read the version key, by the list of schemas (name and file) they were written for. */
const VERSION_READERS = new WeakMap<BetterSqlite3.Database, VersionReader>();

interface VersionReader {
  readonly list: BetterSqlite3.Statement;
  schemas: string;
  versions: readonly BetterSqlite3.Statement[];
}

/** The database's snapshot: the kept one while nothing changed, else a fresh one (then kept). */
export function schemaSnapshot(database: BetterSqlite3.Database): SqliteSchemaSnapshot {
  // Inside a transaction (:memory:, where riskgate's own statements run on this connection) a
  // ROLLBACK brings back data without changing any part of the key: nothing read there is kept.
  if (database.inTransaction) return readSnapshot(database);
  const key = versionKey(database);
  if (key === undefined) return readSnapshot(database);
  const kept = KEPT.get(database);
  if (kept !== undefined && kept.key === key) return kept.snapshot;
  const snapshot = readSnapshot(database);
  KEPT.set(database, { key, snapshot });
  return snapshot;
}

/**
 * Forgets what was kept for this connection: called after riskgate ran confirmed statements on it
 * (`:memory:`), which may change what no part of the key shows — a DETACH and an ATTACH of another
 * file under the same name with the same versions, a ROLLBACK.
 */
export function forgetSchemaSnapshot(database: BetterSqlite3.Database): void {
  KEPT.delete(database);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const SCHEMA_LIST =
  'SELECT json_group_array(json_array(name, file)) FROM (SELECT name, file FROM pragma_database_list ORDER BY seq)';

/**
 * Every schema's name and file, schema_version and data_version, and this connection's
 * total_changes(), as one text. Each schema's versions are read by `PRAGMA "schema".…`: the
 * table-valued `"schema".pragma_schema_version` reads main's whatever the schema (a TEMP view or
 * a commit to an attached file by another process left the key as it was). When the list of
 * schemas is not the one the statements were written for (an ATTACH), they are written again.
 */
function versionKey(database: BetterSqlite3.Database): string | undefined {
  try {
    let reader = VERSION_READERS.get(database);
    if (reader === undefined) {
      reader = { list: database.prepare(SCHEMA_LIST).pluck(true), schemas: '', versions: [] };
      VERSION_READERS.set(database, reader);
    }
    const schemas = reader.list.get() as string;
    if (schemas !== reader.schemas) {
      const names = (JSON.parse(schemas) as [string, string][]).map(([name]) => name);
      reader.versions = [
        ...names.flatMap((name) => [
          database.prepare(`PRAGMA ${quote(name)}.schema_version`).pluck(true),
          database.prepare(`PRAGMA ${quote(name)}.data_version`).pluck(true),
        ]),
        database.prepare('SELECT total_changes()').pluck(true),
      ];
      reader.schemas = schemas;
    }
    return [schemas, ...reader.versions.map((statement) => String(statement.get()))].join(',');
  } catch {
    return undefined;
  }
}

function readSnapshot(database: BetterSqlite3.Database): SqliteSchemaSnapshot {
  return new Snapshot(database);
}

const RELATIONS =
  "SELECT name, 1 AS main FROM sqlite_schema WHERE type IN ('table', 'view') UNION ALL SELECT name, 0 FROM sqlite_temp_schema WHERE type IN ('table', 'view')";
const SCHEMA_NAMES = 'SELECT name FROM pragma_database_list ORDER BY seq';

class Snapshot implements SqliteSchemaSnapshot {
  // Only what SQLite answered is kept: a failure (a lock held past busy_timeout) is asked again next time.
  private readonly answers = new Map<string, unknown>();
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly memos = new Map<string, unknown>();
  /** Reads that failed so far: a memo computed over one is not kept (it may have missed what the read would show). */
  private failures = 0;

  constructor(private readonly database: BetterSqlite3.Database) {}

  /** SQLite's answer to `read`, read once; undefined (and not kept) when SQLite refuses it. */
  private answer<T>(key: string, read: () => T): T | undefined {
    if (this.answers.has(key)) return this.answers.get(key) as T;
    try {
      const value = read();
      // A bound on memory over a long session of distinct statements (one entry per word looked up).
      if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
      this.answers.set(key, value);
      return value;
    } catch {
      this.failures++;
      return undefined;
    }
  }

  private allRelations(): { all: string[]; main: string[] } | undefined {
    // Undefined on an old SQLite without sqlite_schema: callers fall back to what the statement names.
    return this.answer('relations', () => {
      const rows = this.database.prepare(RELATIONS).all() as { name: string; main: number }[];
      return {
        all: [...new Set(rows.map((row) => row.name))],
        main: rows.filter((row) => row.main === 1).map((row) => row.name),
      };
    });
  }

  get relations(): readonly string[] | undefined {
    return this.allRelations()?.all;
  }

  get mainRelations(): readonly string[] | undefined {
    return this.allRelations()?.main;
  }

  get schemas(): readonly string[] | undefined {
    return this.answer('schemas', () =>
      (this.database.prepare(SCHEMA_NAMES).pluck(true).all() as string[]).map((name) => name.toLowerCase()),
    );
  }

  get views(): ReadonlyMap<string, string> | undefined {
    // Every schema's, attached ones too (a view in an attached file read as `plain` or `x.plain`);
    // views of one name in two schemas are both followed.
    return this.answer('views', () => {
      const schemas = this.database.prepare(SCHEMA_NAMES).pluck(true).all() as string[];
      const views = new Map<string, string>();
      for (const schema of schemas) {
        const rows = this.database
          .prepare(`SELECT name, sql FROM ${quote(schema)}.sqlite_master WHERE type = 'view'`)
          .all() as { name: string; sql: string | null }[];
        for (const row of rows) {
          const name = row.name.toLowerCase();
          const before = views.get(name);
          views.set(name, before === undefined ? (row.sql ?? '') : `${before};\n${row.sql ?? ''}`);
        }
      }
      return views;
    });
  }

  columns(table: string, schema?: string): readonly SqliteColumn[] | undefined {
    return this.answer(`columns\u0000${schema ?? ''}\u0000${table}`, () =>
      schema === undefined
        ? (this.database.prepare('SELECT name, type FROM pragma_table_info(?)').all(table) as SqliteColumn[])
        : (this.database
            .prepare('SELECT name, type FROM pragma_table_info(?, ?)')
            .all(table, schema) as SqliteColumn[]),
    );
  }

  keys(table: string, keyColumn: string, schema?: string): readonly string[] | undefined {
    const key = quote(keyColumn);
    const from = schema === undefined ? quote(table) : `${quote(schema)}.${quote(table)}`;
    return this.answer(`keys\u0000${schema ?? ''}\u0000${table}\u0000${keyColumn}`, () =>
      (
        this.database
          .prepare(`SELECT DISTINCT CAST(${key} AS TEXT) AS key FROM (SELECT ${key} FROM ${from} LIMIT 10000)`)
          .all() as { key: string | null }[]
      ).flatMap((row) => (row.key === null ? [] : [row.key])),
    );
  }

  prepared(text: string): BetterSqlite3.Statement | Error {
    const kept = this.statements.get(text);
    if (kept !== undefined) return kept;
    let statement: BetterSqlite3.Statement;
    try {
      statement = this.database.prepare(text);
    } catch (error) {
      this.failures++;
      return error instanceof Error ? error : new Error(String(error));
    }
    if (this.statements.size >= MAX_PREPARED) this.statements.delete(this.statements.keys().next().value!);
    this.statements.set(text, statement);
    return statement;
  }

  memo<T>(key: string, compute: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const before = this.failures;
    const value = compute();
    if (this.failures !== before) return value;
    // Shared by every call after this one: a change by one of them would reach the others.
    freeze(value, 3);
    if (this.memos.size >= MAX_PREPARED * 2) this.memos.delete(this.memos.keys().next().value!);
    this.memos.set(key, value);
    return value;
  }
}

function freeze(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  if (depth > 0) for (const inner of Object.values(value)) freeze(inner, depth - 1);
}
