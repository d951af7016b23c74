import { loadWithDriver } from './drivers.js';
import type { SqlAssessment } from './sql-assessor.js';
import type { SqlFailure, SqlRunResult } from './sql-results.js';

export interface RunOptions {
  /** Run so that nothing can be written (whitelisted reads). */
  readonly readOnly: boolean;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly maxRows: number;
}

/** "would delete 1,204 rows of orders" */
export interface PreviewLine {
  readonly statementIndex: number;
  readonly verb: 'insert' | 'update' | 'delete';
  readonly table: string;
  readonly rows: number;
}

export interface ColumnDescription {
  readonly name: string;
  readonly type: string | null;
  readonly nullable: boolean;
  readonly primaryKey: boolean;
}

export interface TableDescription {
  readonly name: string;
  readonly kind: 'table' | 'view';
  /** Exact for SQLite; the planner's estimate for PostgreSQL. */
  readonly rowEstimate: number | null;
  readonly columns: readonly ColumnDescription[];
  readonly foreignKeys: readonly { readonly column: string; readonly references: string }[];
  readonly indexes: readonly { readonly name: string; readonly columns: readonly string[]; readonly unique: boolean }[];
}

export interface SchemaDescription {
  readonly dialect: 'sqlite' | 'postgres';
  readonly database: string;
  readonly tables: readonly TableDescription[];
}

/** One database riskgate talks to. Opened, pooled and closed by this package. */
export interface SqlConnection {
  readonly dialect: 'sqlite' | 'postgres';
  /** Where it points, with any password removed. */
  readonly label: string;
  assess(sql: string): Promise<SqlAssessment>;
  run(sql: string, options: RunOptions): Promise<SqlRunResult | SqlFailure>;
  /** Run the writes in a transaction that is always rolled back, and count what they would change. */
  preview(sql: string, assessment: SqlAssessment, options: { timeoutMs: number }): Promise<readonly PreviewLine[] | SqlFailure>;
  describeSchema(table?: string): Promise<SchemaDescription | SqlFailure>;
  close(): Promise<void>;
}

export function isSqlFailure(value: unknown): value is SqlFailure {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'sql-error';
}

export function formatPreviewLine(line: PreviewLine): string {
  const rows = `${line.rows.toLocaleString('en-US')} ${line.rows === 1 ? 'row' : 'rows'}`;
  switch (line.verb) {
    case 'insert':
      return `would add ${rows} to ${line.table}`;
    case 'delete':
      return `would delete ${rows} of ${line.table}`;
    case 'update':
      return `would change ${rows} of ${line.table}`;
  }
}

/** A `postgres://` or `postgresql://` URL opens PostgreSQL; anything else is a SQLite file. */
export async function openSqlConnection(target: string, options: { create?: boolean } = {}): Promise<SqlConnection | SqlFailure> {
  if (/^postgres(ql)?:\/\//i.test(target)) {
    const module = await loadWithDriver('postgres', () => import('./postgres-connection.js'));
    return isSqlFailure(module) ? module : module.PostgresConnection.open(target);
  }
  const module = await loadWithDriver('sqlite', () => import('./sqlite-connection.js'));
  return isSqlFailure(module) ? module : module.SqliteConnection.open(target, options);
}
