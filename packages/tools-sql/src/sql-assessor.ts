import type { Effect, EffectReport, SqlDialect } from '@riskgate/risk';
import type BetterSqlite3 from 'better-sqlite3';
import { fallbackAnalysis, unparsable, verbOf } from './keyword-analysis.js';
import { analyzeMysqlScript, type MysqlKnowledge } from './mysql-analysis.js';
import { type PgCatalog, snapshotCatalog } from './pg-catalog.js';
import type { Node } from './pg-node.js';
import { analyzePostgresStatement, type PgAnalysisContext } from './postgres-analysis.js';
import { secretColumnReads } from './secret-column-reads.js';
import { lexSql, type SqlStatementText } from './sql-lexer.js';
import { type PlannedStatement, plannedStatement, type SqlPlan } from './sql-plan.js';
import { analyzeSqliteStatement } from './sqlite-assessment.js';
import { isReadOnly, type StatementAnalysis, unknownEffect } from './statement-analysis.js';

/** The effects of every statement, the statements one by one (for rules), and the plan the run follows. */
export interface SqlAssessment extends EffectReport {
  readonly statements: readonly StatementAnalysis[];
  /** The statements as judged, with their exact spans: what describe previews and execute sends. */
  readonly plan: SqlPlan;
}

/** The part of a better-sqlite3 `Database` the public options name (its `prepare`). */
export interface SqliteDatabase {
  prepare(source: string): unknown;
}

export interface AssessSqlOptions {
  readonly dialect: SqlDialect;
  /**
   * An open SQLite database (a better-sqlite3 `Database`): its own prepared statements then give
   * the read-only verdict. Typed by its shape, so the published declarations need no
   * `@types/better-sqlite3` (a consumer with `skipLibCheck: false` and no SQLite installs none).
   */
  readonly sqlite?: SqliteDatabase;
  /** PostgreSQL's catalog (the live one of a connection); the shipped snapshot otherwise. */
  readonly pgCatalog?: PgCatalog;
  /** MySQL/MariaDB: what the connected server says (its sql_mode, its functions). */
  readonly mysql?: MysqlKnowledge;
}

let parserReady: Promise<void> | undefined;
let parseSync: (sql: string) => unknown = () => {
  throw new Error('the SQL parser is not loaded yet');
};

/** libpg-query (its JS and its WASM) is loaded once, on first use, so start-up stays fast. */
export function loadSqlParser(): Promise<void> {
  parserReady ??= (async () => {
    const parser = await import('libpg-query');
    await parser.loadModule();
    parseSync = parser.parseSync;
  })();
  return parserReady;
}

interface ParsedStatement {
  stmt: Node;
  stmt_location?: number;
  stmt_len?: number;
}

function parseTrees(sql: string): ParsedStatement[] {
  return (parseSync(sql) as { stmts?: ParsedStatement[] }).stmts ?? [];
}

export async function assessSql(sql: string, options: AssessSqlOptions): Promise<SqlAssessment> {
  const assessment = await assessStatements(sql, options);
  const secrets = secretColumnReads(sql, options.dialect);
  return secrets.length === 0 ? assessment : { ...assessment, effects: [...assessment.effects, ...secrets] };
}

export { secretColumnReads } from './secret-column-reads.js';

async function assessStatements(sql: string, options: AssessSqlOptions): Promise<SqlAssessment> {
  const dialect = options.dialect === 'mysql' ? 'mysql' : options.dialect === 'sqlite' ? 'sqlite' : 'postgres';
  if (dialect === 'mysql') {
    const { pieces, analyses } = await analyzeMysqlScript(sql, options.mysql);
    if (pieces.length === 0) return collect(dialect, [], { extra: [unknownEffect('the text holds no SQL statement')] });
    // The script could not be read safely: one analysis says why, and each piece is sent as lexed.
    if (analyses.length !== pieces.length) return collect(dialect, unreadablePieces(pieces), { analyses });
    return collect(
      dialect,
      pieces.map((piece, index) => plannedStatement(piece, analyses[index]!)),
    );
  }
  const lexed = lexSql(sql, { dialect });
  if (lexed.error !== undefined)
    return collect(dialect, unreadablePieces(lexed.statements), {
      extra: [unknownEffect(`the SQL cannot be read safely: ${lexed.error}`)],
      analyses: [],
      subjects: lexed.statements.map((text) => text.normalized),
    });
  if (lexed.statements.length === 0)
    return collect(dialect, [], { extra: [unknownEffect('the text holds no SQL statement')] });
  if (dialect === 'sqlite') {
    // SQLite text is judged by SQLite alone: PostgreSQL's grammar (and its parser's load) never sees it.
    const planned: PlannedStatement[] = [];
    for (const text of lexed.statements)
      planned.push(
        plannedStatement(
          text,
          await analyzeSqliteStatement(text, options.sqlite as BetterSqlite3.Database | undefined),
        ),
      );
    return collect(dialect, planned);
  }
  await loadSqlParser();
  const context: PgAnalysisContext = {
    catalog: options.pgCatalog ?? snapshotCatalog(),
    parse: (text) => parseTrees(text).map((entry) => entry.stmt),
  };
  return planWithPostgresGrammar(sql, lexed.statements, context);
}

/**
 * Pieces of a text no grammar could read: sent as the lexer split them (the server then reports
 * its own error), never previewed — riskgate does not know what a rolled-back run would do.
 */
function unreadablePieces(pieces: readonly SqlStatementText[]): PlannedStatement[] {
  return pieces.map((piece) => {
    const fallback = fallbackAnalysis(piece);
    return plannedStatement(piece, {
      ...fallback,
      effects: [unknownEffect('riskgate could not read the script'), ...fallback.effects],
      previewable: false,
      previewBlocker: 'riskgate could not read the script',
    });
  });
}

function collect(
  dialect: SqlDialect,
  planned: readonly PlannedStatement[],
  options: {
    extra?: readonly Effect[];
    /** The analyses the effects come from, when they are not the plan's one per statement. */
    analyses?: readonly StatementAnalysis[];
    subjects?: readonly string[];
  } = {},
): SqlAssessment {
  const statements = options.analyses ?? planned.map((entry) => entry.analysis);
  const numbered = statements.length > 1;
  const effects = statements.flatMap((analysis, index) =>
    analysis.effects.map((effect) =>
      numbered && !isReadOnly(analysis) && effect.kind !== 'read-db' ? numberEffect(effect, index + 1) : effect,
    ),
  );
  return {
    effects: [...(options.extra ?? []), ...effects],
    subjects: options.subjects ?? statements.map((analysis) => analysis.subject),
    statements,
    plan: { dialect, statements: planned },
  };
}

/** "statement 2: DROP TABLE removes orders": which statement of a script does what. */
function numberEffect(effect: Effect, index: number): Effect {
  if ('detail' in effect) return { ...effect, detail: `statement ${index}: ${effect.detail}` };
  return effect.note === undefined ? effect : { ...effect, note: `statement ${index}: ${effect.note}` };
}

/**
 * Parse the whole text with PostgreSQL's own grammar; a text that does not parse is never safe.
 * Each statement is planned with the span PostgreSQL gives it (`stmt_location`/`stmt_len`, in
 * bytes of UTF-8), so the pieces sent are the pieces PostgreSQL parsed.
 */
async function planWithPostgresGrammar(
  sql: string,
  lexed: readonly SqlStatementText[],
  context: PgAnalysisContext,
): Promise<SqlAssessment> {
  let trees: ParsedStatement[];
  try {
    trees = parseTrees(sql);
  } catch (error) {
    const analysis = unparsable(
      lexed.map((text) => text.normalized).join('; '),
      lexed[0]!,
      `does not parse as PostgreSQL: ${(error as Error).message}`,
    );
    return collect('postgres', unreadablePieces(lexed), { analyses: [analysis] });
  }
  const bytes = Buffer.from(sql, 'utf8');
  const planned: PlannedStatement[] = [];
  for (const entry of trees) {
    const from = entry.stmt_location ?? 0;
    const to = entry.stmt_len === undefined || entry.stmt_len === 0 ? bytes.length : from + entry.stmt_len;
    const raw = bytes.subarray(from, to).toString('utf8');
    const text = raw.trim();
    const start = bytes.subarray(0, from).toString('utf8').length + (raw.length - raw.trimStart().length);
    // The lexer reads the span for its normalised text and verb; the span itself is PostgreSQL's.
    const piece = lexSql(text).statements[0] ?? { text, normalized: text, tokens: [], start };
    const analysis = await analyzePostgresStatement(entry.stmt, piece.normalized, verbOf(piece), context);
    planned.push(plannedStatement(piece, analysis, { text, start }));
  }
  return collect('postgres', planned);
}
