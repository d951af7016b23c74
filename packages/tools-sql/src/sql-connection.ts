import type { SqlAssessment } from './sql-assessor.js';
import type { PreviewLine, SqlPlan } from './sql-plan.js';
import { type SqlFailure, type SqlRunResult, sqlFailure } from './sql-results.js';

export interface RunOptions {
  /** Run so that nothing can be written (whitelisted reads). */
  readonly readOnly: boolean;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly maxRows: number;
}

export type { PreviewLine } from './sql-plan.js';

/** No rolled-back run: it could act beyond the transaction. Estimates where the planner has them. */
export interface PreviewSkipped {
  readonly type: 'preview-skipped';
  readonly reason: string;
  readonly estimates: readonly PreviewLine[];
}

export function isPreviewSkipped(value: unknown): value is PreviewSkipped {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'preview-skipped';
}

export function previewSkipped(reason: string, estimates: readonly PreviewLine[] = []): PreviewSkipped {
  return { type: 'preview-skipped', reason, estimates };
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
  /** The table holds more rows than were counted (rowEstimate is the cap). */
  readonly rowCountCapped?: boolean;
  readonly columns: readonly ColumnDescription[];
  readonly foreignKeys: readonly { readonly column: string; readonly references: string }[];
  readonly indexes: readonly { readonly name: string; readonly columns: readonly string[]; readonly unique: boolean }[];
}

export interface SchemaDescription {
  readonly dialect: 'sqlite' | 'postgres' | 'mysql';
  readonly database: string;
  readonly tables: readonly TableDescription[];
}

/** One database riskgate talks to. Opened, pooled and closed by this package. */
export interface SqlConnection {
  readonly dialect: 'sqlite' | 'postgres' | 'mysql';
  /** Where it points, with any password removed. */
  readonly label: string;
  /** The assessment of a call, with the plan its run follows (with this database's own knowledge). */
  assess(sql: string): Promise<SqlAssessment>;
  /** Sends the plan's statements as they are, one by one: never a re-split of the text. */
  run(plan: SqlPlan, options: RunOptions): Promise<SqlRunResult | SqlFailure>;
  /** Run the writes in a transaction that is always rolled back, and count what they would change. */
  preview(plan: SqlPlan, options: { timeoutMs: number }): Promise<readonly PreviewLine[] | PreviewSkipped | SqlFailure>;
  /** No run at all: the planner's estimate of the rows each write would change, where it has one. */
  estimate(plan: SqlPlan, reason: string): Promise<PreviewSkipped | SqlFailure>;
  describeSchema(table?: string): Promise<SchemaDescription | SqlFailure>;
  close(): Promise<void>;
}

/** Assess and run in one step (benchmarks, tests, scripts): the tools assess once through the gate instead. */
export async function assessAndRun(
  connection: SqlConnection,
  sql: string,
  options: RunOptions,
): Promise<SqlRunResult | SqlFailure> {
  return connection.run((await connection.assess(sql)).plan, options);
}

/** The pool's connect, or the failure every call reports when the server cannot be reached. */
export async function connectOrFail<Client>(
  label: string,
  connect: () => Promise<Client>,
): Promise<Client | SqlFailure> {
  try {
    return await connect();
  } catch (error) {
    return sqlFailure('sql-connection-failed', `cannot connect to ${label}: ${(error as Error).message}`);
  }
}

/** Whether any statement of the plan has an effect riskgate cannot vouch for (then the planner is not asked either). */
export function hasUnknownEffect(plan: SqlPlan): boolean {
  return plan.statements.some((statement) => statement.analysis.effects.some((effect) => effect.kind === 'unknown'));
}

export function isSqlFailure(value: unknown): value is SqlFailure {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'sql-error';
}

export function formatPreviewLine(line: PreviewLine): string {
  const rows = `${line.estimate ? 'about ' : ''}${line.rows.toLocaleString('en-US')} ${line.rows === 1 ? 'row' : 'rows'}`;
  const suffix = line.estimate ? " (the planner's estimate)" : '';
  switch (line.verb) {
    case 'insert':
      return `would add ${rows} to ${line.table}${suffix}`;
    case 'delete':
      return `would delete ${rows} of ${line.table}${suffix}`;
    case 'update':
      return `would change ${rows} of ${line.table}${suffix}`;
  }
}
