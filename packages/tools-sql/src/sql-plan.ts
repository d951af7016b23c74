import type { SqlDialect } from '@riskgate/risk';
import type { SqlStatementText } from './sql-lexer.js';
import type { StatementAnalysis } from './statement-analysis.js';

/**
 * The plan of one `execute_sql` call: the statements exactly as the assessor judged them, in
 * order. The connections send `text` as it is — they never split the SQL again — so what the
 * server receives is what was judged (a PostgreSQL 15 script with a `BEGIN ATOMIC` body was
 * judged as 2 statements by PostgreSQL's grammar, re-split into 4 by a second splitter and sent
 * as 4 pieces that failed). The spans come from the engine where it gives them (libpg-query's
 * `stmt_location`/`stmt_len`), from the lexer that follows the engine's lexical rules otherwise.
 */
export interface SqlPlan {
  readonly dialect: SqlDialect;
  readonly statements: readonly PlannedStatement[];
}

export interface PlannedStatement {
  /** The statement as it is sent: the span of the call's text the assessor judged, trimmed. */
  readonly text: string;
  /** Where `text` starts and ends in the call's SQL (characters). */
  readonly start: number;
  readonly end: number;
  /** Comments out, whitespace collapsed: what the screen and the results name it by. */
  readonly normalized: string;
  /** The leading keyword, upper-cased ('' when the statement starts otherwise). */
  readonly verb: string;
  /** BEGIN, COMMIT, SAVEPOINT…: the script manages its own transactions, so riskgate opens none. */
  readonly transactionControl: boolean;
  /** What the assessor found about this statement: write target and preview safety included. */
  readonly analysis: StatementAnalysis;
}

/**
 * Statements that open, end or mark a transaction, in any of the three dialects (the only list
 * of them): PostgreSQL `BEGIN|START TRANSACTION|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE`
 * and `PREPARE TRANSACTION`; SQLite `BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE`; MySQL
 * `START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|XA`.
 */
export const TRANSACTION_VERBS: ReadonlySet<string> = new Set([
  'BEGIN',
  'START',
  'COMMIT',
  'END',
  'ROLLBACK',
  'ABORT',
  'SAVEPOINT',
  'RELEASE',
  'XA',
]);

export function isTransactionControl(text: SqlStatementText): boolean {
  const verb = text.tokens[0]?.kind === 'word' ? text.tokens[0].upper : '';
  if (TRANSACTION_VERBS.has(verb)) return true;
  // PREPARE TRANSACTION 'id' (two-phase commit); `PREPARE name AS …` is a prepared statement.
  return verb === 'PREPARE' && text.tokens[1]?.upper === 'TRANSACTION';
}

/** One planned statement from the lexer's reading of it; `text` and `start` when the engine gave the span. */
export function plannedStatement(
  piece: SqlStatementText,
  analysis: StatementAnalysis,
  span: { text: string; start: number } = { text: piece.text, start: piece.start },
): PlannedStatement {
  return {
    text: span.text,
    start: span.start,
    end: span.start + span.text.length,
    normalized: piece.normalized,
    verb: piece.tokens[0]?.kind === 'word' ? piece.tokens[0].upper : '',
    transactionControl: isTransactionControl(piece),
    analysis,
  };
}

/** Whether the plan has its own transaction control (then riskgate opens no transaction around it). */
export function managesTransactions(plan: SqlPlan): boolean {
  return plan.statements.some((statement) => statement.transactionControl);
}

/** "would delete" / "would add" / "would change": the preview's verb of a write. */
export function previewVerb(verb: string): 'insert' | 'update' | 'delete' {
  if (verb === 'DELETE') return 'delete';
  if (verb === 'INSERT' || verb === 'REPLACE') return 'insert';
  return 'update';
}

/** "would delete 1,204 rows of orders" */
export interface PreviewLine {
  readonly statementIndex: number;
  readonly verb: 'insert' | 'update' | 'delete';
  readonly table: string;
  readonly rows: number;
  /** The planner's estimate, not a count (no rolled-back run happened). */
  readonly estimate?: boolean;
}

/**
 * "would delete 1,204 rows of orders": the preview line of the plan's statement `index`, or
 * undefined when the statement writes no table riskgate can name. `estimate`: the planner's
 * number, not a count from a rolled-back run.
 */
export function previewLine(
  statement: PlannedStatement,
  index: number,
  rows: number,
  estimate = false,
): PreviewLine | undefined {
  const table = statement.analysis.writeTarget;
  if (table === undefined) return undefined;
  const line = { statementIndex: index + 1, verb: previewVerb(statement.verb), table, rows };
  return estimate ? { ...line, estimate: true } : line;
}

/** Rows a statement changes (as opposed to rows it returns): INSERT/UPDATE/DELETE/REPLACE. */
export function changesRows(statement: PlannedStatement): boolean {
  return ['INSERT', 'UPDATE', 'DELETE', 'REPLACE'].includes(statement.verb);
}
