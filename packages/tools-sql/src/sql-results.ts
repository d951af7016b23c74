/** Typed results and errors of SQL execution, returned as values for the model to read. */

export interface SqlColumn {
  readonly name: string;
  /** Declared or reported type, when the engine knows it. */
  readonly type: string | null;
}

export interface StatementResult {
  /** The statement, normalised. */
  readonly statement: string;
  readonly columns: readonly SqlColumn[];
  /** The first rows only (at most the display limit), each an array in column order. */
  readonly rows: readonly (readonly unknown[])[];
  /** True when the statement produced more rows than were kept. */
  readonly truncated: boolean;
  /** Every row the statement returned, when the engine counted them (kept or not). */
  readonly totalRows?: number;
  /** Rows changed, for statements that change rows; null otherwise. */
  readonly affectedRows: number | null;
}

export interface SqlRunResult {
  readonly statements: readonly StatementResult[];
  readonly elapsedMs: number;
  /** Whether it ran on a connection or in a transaction that cannot write. */
  readonly readOnly: boolean;
  /**
   * Said before the results when the run ended unusually but its outcome is known (the reply was
   * lost, and the server confirmed the transaction committed): the rows may be missing.
   */
  readonly notice?: string;
}

export type SqlErrorCode =
  | 'sql-syntax-error'
  | 'sql-missing-table'
  | 'sql-permission-denied'
  | 'sql-read-only'
  | 'sql-connection-failed'
  /** The database's driver package is not installed (it is an optional peer dependency). */
  | 'sql-driver-missing'
  | 'sql-timeout'
  | 'sql-cancelled'
  | 'sql-constraint-violation'
  /**
   * The connection was lost or stalled after a write was sent, and the server could not say
   * whether it committed: it may have. Never reported as a plain failure (a retry could apply
   * it twice).
   */
  | 'sql-outcome-unknown'
  | 'sql-error';

export interface SqlFailure {
  readonly type: 'sql-error';
  readonly code: SqlErrorCode;
  readonly message: string;
  /** 1-based character position in the SQL text, when the engine reports one. */
  readonly position?: number;
  /** 1-based index of the statement that failed, in a script of several. */
  readonly statementIndex?: number;
}

export interface SqlLimits {
  /** Rows kept per statement for the screen. */
  readonly maxRows: number;
  /** Rows per statement shown to the model. */
  readonly modelRows: number;
  readonly statementTimeoutMs: number;
  /** The time a rolled-back preview of a write may take. */
  readonly previewTimeoutMs: number;
}

export const DEFAULT_SQL_LIMITS: SqlLimits = {
  maxRows: 500,
  modelRows: 50,
  statementTimeoutMs: 30_000,
  previewTimeoutMs: 2_000,
};

export function sqlFailure(
  code: SqlErrorCode,
  message: string,
  extra: { position?: number; statementIndex?: number } = {},
): SqlFailure {
  return { type: 'sql-error', code, message, ...extra };
}
