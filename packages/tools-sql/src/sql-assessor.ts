import { type LegacyVerdict, maxRiskLevel, type RiskLevel, type SqlDialect } from '@riskgate/risk';
import type BetterSqlite3 from 'better-sqlite3';
import { analyzePostgresStatement, filteredWrite } from './postgres-analysis.js';
import { hasSideEffects } from './side-effect-functions.js';
import { calledFunctions, leadingKeyword, lexSql, type SqlStatementText } from './sql-lexer.js';
import { readStatement, type StatementAnalysis, writeStatement } from './statement-analysis.js';

export interface SqlAssessment extends LegacyVerdict {
  readonly statements: readonly StatementAnalysis[];
}

export interface AssessSqlOptions {
  readonly dialect: SqlDialect;
  /** An open SQLite database: its own prepared statements then give the read-only verdict. */
  readonly sqlite?: BetterSqlite3.Database;
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

export async function assessSql(sql: string, options: AssessSqlOptions): Promise<SqlAssessment> {
  await loadSqlParser();
  const lexed = lexSql(sql);
  if (lexed.error !== undefined) {
    return summarize([], [`the SQL cannot be read safely: ${lexed.error}`], 'medium');
  }
  if (lexed.statements.length === 0) {
    return summarize([], ['the text holds no SQL statement'], 'low');
  }
  switch (options.dialect) {
    case 'postgres':
      return summarize(analyzeWithPostgresGrammar(sql, lexed.statements));
    case 'sqlite':
      return summarize(lexed.statements.map((statement) => analyzeSqliteStatement(statement, options.sqlite)));
    case 'mysql':
      return summarize(lexed.statements.map(analyzeMysqlStatement));
    default: {
      const unreachable: never = options.dialect;
      throw new Error(`unknown dialect ${String(unreachable)}`);
    }
  }
}

function summarize(statements: readonly StatementAnalysis[], extraReasons: readonly string[] = [], floor: RiskLevel = 'low'): SqlAssessment {
  const whitelisted = statements.length > 0 && extraReasons.length === 0 && statements.every((statement) => statement.readOnly);
  const numbered = statements.length > 1;
  const reasons = whitelisted
    ? [statements.length === 1 ? 'read-only statement' : `all ${statements.length} statements are read-only`]
    : [
        ...extraReasons,
        ...statements.flatMap((statement, index) =>
          statement.readOnly ? [] : statement.reasons.map((reason) => (numbered ? `statement ${index + 1}: ${reason}` : reason)),
        ),
      ];
  return {
    level: whitelisted ? 'low' : maxRiskLevel(floor, ...statements.map((statement) => statement.level), extraReasons.length > 0 ? 'medium' : 'low'),
    whitelisted,
    reasons,
    subjects: statements.map((statement) => statement.subject),
    statements,
  };
}

/** Parse the whole text with PostgreSQL's own grammar; a text that does not parse is never safe. */
function analyzeWithPostgresGrammar(sql: string, lexed: readonly SqlStatementText[]): StatementAnalysis[] {
  let tree: { stmts?: { stmt: Record<string, unknown>; stmt_location?: number; stmt_len?: number }[] };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch (error) {
    return [unparsable(lexed.map((statement) => statement.normalized).join('; '), lexed[0]!, `does not parse as PostgreSQL: ${(error as Error).message}`)];
  }
  return (tree.stmts ?? []).map((entry) => {
    const start = entry.stmt_location ?? 0;
    const text = entry.stmt_len === undefined ? sql.slice(start) : sql.slice(start, start + entry.stmt_len);
    const statement = lexSql(text).statements[0];
    const subject = statement?.normalized ?? text.trim();
    return analyzePostgresStatement(entry.stmt, subject, statement === undefined ? '' : verbOf(statement));
  });
}

/** One statement judged by libpg-query alone, or undefined when it does not parse. */
function analyzeOneWithPostgresGrammar(statement: SqlStatementText): StatementAnalysis | { error: string } {
  try {
    const tree = parseSync(statement.text) as { stmts?: { stmt: Record<string, unknown> }[] };
    const stmts = tree.stmts ?? [];
    if (stmts.length !== 1) return { error: 'expected exactly one statement' };
    return analyzePostgresStatement(stmts[0]!.stmt, statement.normalized, verbOf(statement));
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const SQLITE_TRANSACTION = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

/**
 * SQLite: with a connection, SQLite's own verdict (`Statement.readonly`) on the prepared
 * statement, plus the statement kinds SQLite calls read-only although they are not data reads
 * (transaction control, ATTACH/DETACH, PRAGMA writes). Without one, PostgreSQL's grammar,
 * which reads standard SQL; SQLite-only syntax then is not whitelisted.
 */
function analyzeSqliteStatement(statement: SqlStatementText, database: BetterSqlite3.Database | undefined): StatementAnalysis {
  const keyword = leadingKeyword(statement);
  const subject = statement.normalized;
  if (keyword === 'PRAGMA') return analyzePragma(statement);
  if (SQLITE_TRANSACTION.has(keyword)) return writeStatement(subject, 'medium', [`transaction control (${keyword}) is not on the whitelist`]);
  if (keyword === 'ATTACH') return writeStatement(subject, 'medium', ['ATTACH opens (or creates) another database file on this connection']);
  if (keyword === 'DETACH') return writeStatement(subject, 'medium', ['DETACH changes the databases this connection can see']);
  if (keyword === 'VACUUM') return writeStatement(subject, 'medium', ['VACUUM rewrites the database file (VACUUM INTO writes a new one)']);

  const sideEffects = [...new Set(calledFunctions(statement).filter(hasSideEffects))];
  if (sideEffects.length > 0) {
    return writeStatement(subject, 'high', [`calls ${sideEffects.join(', ')}, which acts beyond reading data`]);
  }
  if (database === undefined) {
    const parsed = analyzeOneWithPostgresGrammar(statement);
    if ('error' in parsed) return unparsable(subject, statement, `cannot be checked without the database (${parsed.error})`);
    return parsed;
  }

  let readonly: boolean;
  try {
    readonly = database.prepare(statement.text).readonly;
  } catch (error) {
    return unparsable(subject, statement, `SQLite cannot prepare it: ${(error as Error).message}`);
  }
  if (readonly && (keyword === 'SELECT' || keyword === 'WITH' || keyword === 'VALUES')) return readStatement(subject);
  if (readonly && keyword === 'EXPLAIN') return analyzeSqliteExplain(statement, database);
  // SQLite says it writes (or it is a read-only kind we do not whitelist): say what it does.
  const described = analyzeOneWithPostgresGrammar(statement);
  if (!('error' in described) && !described.readOnly) return described;
  return fallbackAnalysis(statement);
}

/** EXPLAIN [QUERY PLAN] is whitelisted when what it explains is read-only. */
function analyzeSqliteExplain(statement: SqlStatementText, database: BetterSqlite3.Database): StatementAnalysis {
  const tokens = statement.tokens;
  const skip = tokens[1]?.upper === 'QUERY' && tokens[2]?.upper === 'PLAN' ? 3 : 1;
  const innerStart = tokens[skip]?.start;
  if (innerStart === undefined) return fallbackAnalysis(statement);
  const innerText = statement.text.slice(innerStart - statement.start);
  const inner = lexSql(innerText).statements[0];
  if (inner === undefined) return fallbackAnalysis(statement);
  const analysis = analyzeSqliteStatement(inner, database);
  if (analysis.readOnly) return readStatement(statement.normalized);
  return writeStatement(statement.normalized, 'low', ['EXPLAIN of a statement that writes: it only plans it, but is not on the whitelist']);
}

/** Pragmas that only report; with `= value` (or a value argument for a setting) they write. */
const READ_PRAGMAS = new Set([
  'table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list',
  'foreign_key_check', 'database_list', 'collation_list', 'function_list', 'module_list', 'pragma_list',
  'compile_options', 'integrity_check', 'quick_check', 'page_count', 'freelist_count', 'data_version',
]);
/** Settings that are read when given no value. */
const READABLE_SETTINGS = new Set([
  'user_version', 'schema_version', 'application_id', 'page_size', 'encoding', 'journal_mode', 'foreign_keys',
  'auto_vacuum', 'cache_size', 'synchronous', 'busy_timeout', 'max_page_count', 'temp_store', 'locking_mode',
]);
const PRAGMAS_WITH_TABLE_ARGUMENT = new Set(['table_info', 'table_xinfo', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list', 'foreign_key_check', 'table_list', 'integrity_check', 'quick_check']);

function analyzePragma(statement: SqlStatementText): StatementAnalysis {
  const tokens = statement.tokens;
  // PRAGMA [schema.]name [= value | (value)]
  let index = 1;
  if (tokens[index + 1]?.text === '.') index += 2;
  const name = tokens[index]?.upper.toLowerCase() ?? '';
  const rest = tokens.slice(index + 1);
  const subject = statement.normalized;
  const assigns = rest.some((token) => token.text === '=');
  const hasArgument = rest[0]?.text === '(';
  const wellFormed = rest.length === 0 || (hasArgument && rest.at(-1)?.text === ')' && !rest.slice(1, -1).some((token) => token.text === '(' || token.text === ')'));
  if (!assigns && wellFormed) {
    if (READ_PRAGMAS.has(name) && (!hasArgument || PRAGMAS_WITH_TABLE_ARGUMENT.has(name))) return readStatement(subject);
    if (READABLE_SETTINGS.has(name) && !hasArgument) return readStatement(subject);
  }
  if (name === 'writable_schema') return writeStatement(subject, 'high', ['PRAGMA writable_schema lets statements corrupt the schema']);
  return writeStatement(subject, 'medium', [assigns || hasArgument ? `PRAGMA ${name} changes a setting` : `PRAGMA ${name || '(unknown)'} is not on the read-only pragma list`]);
}

/** MySQL: SHOW and DESCRIBE are its own read statements; the rest is read by PostgreSQL's grammar. */
function analyzeMysqlStatement(statement: SqlStatementText): StatementAnalysis {
  const keyword = leadingKeyword(statement);
  if (keyword === 'SHOW' || keyword === 'DESCRIBE' || keyword === 'DESC') {
    return readStatement(statement.normalized);
  }
  const parsed = analyzeOneWithPostgresGrammar(statement);
  if ('error' in parsed) return unparsable(statement.normalized, statement, `cannot be checked (${parsed.error})`);
  return parsed;
}

function unparsable(subject: string, statement: SqlStatementText, why: string): StatementAnalysis {
  const fallback = fallbackAnalysis(statement);
  return writeStatement(subject, fallback.level, [why, ...fallback.reasons], {
    previewable: fallback.previewable,
    ...(fallback.writeTarget === undefined ? {} : { writeTarget: fallback.writeTarget }),
  });
}

const HIGH_KEYWORDS = new Set(['DROP', 'TRUNCATE', 'ALTER', 'GRANT', 'REVOKE', 'RENAME']);

/** Level and reasons from keywords alone, for statements no parser could read. Never whitelists. */
function fallbackAnalysis(statement: SqlStatementText): StatementAnalysis {
  const keyword = leadingKeyword(statement);
  const subject = statement.normalized;
  const hasWhere = statement.tokens.some((token) => token.upper === 'WHERE');
  const table = tableAfter(statement, keyword === 'DELETE' ? 'FROM' : keyword === 'UPDATE' ? 'UPDATE' : 'INTO');
  if (HIGH_KEYWORDS.has(keyword)) return writeStatement(subject, 'high', [`${keyword} changes or removes database objects`]);
  if (keyword === 'DELETE' || keyword === 'UPDATE') return filteredWrite(keyword, table, hasWhere, subject);
  if (keyword === 'INSERT' || keyword === 'REPLACE' || keyword === 'UPSERT') {
    return writeStatement(subject, 'medium', [`${keyword} adds or replaces rows of ${table}`], { writeTarget: table, previewable: true });
  }
  if (keyword === 'CREATE') return writeStatement(subject, 'medium', ['CREATE creates database objects']);
  if (keyword === 'SELECT' || keyword === 'WITH' || keyword === 'VALUES') {
    return writeStatement(subject, 'medium', [`this ${keyword} could not be verified as read-only`]);
  }
  return writeStatement(subject, 'medium', [`${keyword || 'this statement'} is not on the whitelist`]);
}

function tableAfter(statement: SqlStatementText, keyword: string): string {
  const tokens = statement.tokens;
  let index = tokens.findIndex((token) => token.upper === keyword);
  if (index === -1) return 'a table';
  index++;
  while (tokens[index]?.kind === 'word' && ['OR', 'REPLACE', 'ROLLBACK', 'ABORT', 'FAIL', 'IGNORE', 'INTO', 'FROM', 'ONLY'].includes(tokens[index]!.upper)) index++;
  const name = tokens[index];
  if (name === undefined) return 'a table';
  return tokens[index + 1]?.text === '.' && tokens[index + 2] !== undefined ? `${name.text}.${tokens[index + 2]!.text}` : name.text;
}

function verbOf(statement: SqlStatementText): string {
  return statement.tokens
    .slice(0, 2)
    .filter((token) => token.kind === 'word')
    .map((token) => token.upper)
    .join(' ');
}
