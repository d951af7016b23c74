import { type Effect, type EffectReport, isSecretColumnName, isSecretKeyName, type SqlDialect } from '@riskgate/risk';
import type BetterSqlite3 from 'better-sqlite3';
import { analyzeMysqlScript, type MysqlKnowledge } from './mysql-analysis.js';
import { type PgCatalog, snapshotCatalog } from './pg-catalog.js';
import type { Node } from './pg-inspect.js';
import { analyzePostgresStatement, keywordEffect, type PgAnalysisContext } from './postgres-analysis.js';
import { explainedStatement, sqliteFunctionEffects, sqliteKeywordStatement } from './sqlite-analysis.js';
import { secretColumnReads } from './secret-column-reads.js';
import { leadingKeyword, lexSql, type SqlStatementText, spacedText, unquote } from './sql-lexer.js';
import { type PlannedStatement, plannedStatement, type SqlPlan } from './sql-plan.js';
import { isReadOnly, reads, type StatementAnalysis, statement, unknownEffect } from './statement-analysis.js';

/** The effects of every statement, the statements one by one (for rules), and the plan the run follows. */
export interface SqlAssessment extends EffectReport {
  readonly statements: readonly StatementAnalysis[];
  /** The statements as judged, with their exact spans: what describe previews and execute sends. */
  readonly plan: SqlPlan;
}

export interface AssessSqlOptions {
  readonly dialect: SqlDialect;
  /** An open SQLite database: its own prepared statements then give the read-only verdict. */
  readonly sqlite?: BetterSqlite3.Database;
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
  await loadSqlParser();
  const context: PgAnalysisContext = {
    catalog: options.pgCatalog ?? snapshotCatalog(),
    parse: (text) => parseTrees(text).map((entry) => entry.stmt),
  };
  if (dialect === 'postgres') return planWithPostgresGrammar(sql, lexed.statements, context);
  const planned: PlannedStatement[] = [];
  for (const text of lexed.statements)
    planned.push(plannedStatement(text, await analyzeSqliteStatement(text, options.sqlite, context)));
  return collect(dialect, planned);
}

/**
 * Pieces of a text no grammar could read: sent as the lexer split them (the server then reports
 * its own error), never previewed — riskgate does not know what a rolled-back run would do.
 */
function unreadablePieces(pieces: readonly SqlStatementText[]): PlannedStatement[] {
  return pieces.map((piece) =>
    plannedStatement(piece, {
      ...fallbackAnalysis(piece),
      effects: [unknownEffect('riskgate could not read the script'), ...fallbackAnalysis(piece).effects],
      previewable: false,
      previewBlocker: 'riskgate could not read the script',
    }),
  );
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

/**
 * SQLite: split by SQLite's own lexical rules; keyword statements SQLite calls read-only but
 * riskgate does not (transactions, ATTACH, pragmas); then, with a database, SQLite's verdict on
 * the prepared statement (`Statement.readonly`); without one, PostgreSQL's grammar on the
 * statement's tokens re-joined without comments, so both grammars read the same tokens.
 * Either way every called function must be a SQLite built-in riskgate vouches for.
 */
/**
 * A SELECT that reads a column whose name says secret (`password`, `api_token`, `secret_key`) —
 * named in the statement — is a secret read: an alias (`SELECT password AS p`),
 * a concatenation or an encoding (`hex(password)`) takes the value out of the column the output
 * guard would know it by (red team, round 3: SQLite tables whose columns are named like secrets).
 * The columns come from the open database itself.
 */
function sqliteSecretColumns(
  text: SqlStatementText,
  tables: readonly string[],
  database: BetterSqlite3.Database,
): Effect[] {
  const words = new Set(text.tokens.map((token) => token.text.replace(/^["'`[]|["'`\]]$/g, '').toLowerCase()));
  // `*` reads every column too, but under their own names: the SQL tool withholds a credential
  // column's values from the result (withhold-columns.ts), so `SELECT * FROM users` still runs.
  const effects: Effect[] = [];
  // Tables the parse named, and any table of the database the statement names (SQLite syntax the
  // PostgreSQL grammar does not parse: `[Password]`).
  let named: string[] = [];
  try {
    named = (
      database.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')").all() as { name: string }[]
    )
      .map((row) => row.name)
      .filter((name) => words.has(name.toLowerCase()));
  } catch {
    // An old SQLite without sqlite_schema: the parse's tables only.
  }
  for (const table of new Set([...tables, ...named])) {
    const name = table
      .split('.')
      .pop()!
      .replace(/^["'`[]|["'`\]]$/g, '');
    let columns: string[];
    try {
      columns = (database.prepare('SELECT name FROM pragma_table_info(?)').all(name) as { name: string }[]).map(
        (row) => row.name,
      );
    } catch {
      continue;
    }
    const secret = columns.find((column) => isSecretColumnName(column) && words.has(column.toLowerCase()));
    if (secret !== undefined)
      effects.push({
        kind: 'read-db',
        object: table,
        secret: `the column ${secret}, whose name says it holds a secret`,
      });
  }
  return effects;
}

async function analyzeSqliteStatement(
  text: SqlStatementText,
  database: BetterSqlite3.Database | undefined,
  context: PgAnalysisContext,
): Promise<StatementAnalysis> {
  const byKeyword = sqliteKeywordStatement(text);
  if (byKeyword !== undefined) return byKeyword;
  const keyword = leadingKeyword(text);
  const subject = text.normalized;
  // With a database, SQLite's prepare rejects unknown functions itself; without one, only its built-ins pass.
  const functions = sqliteFunctionEffects(text, database === undefined);
  const withFunctions = (analysis: StatementAnalysis): StatementAnalysis => {
    if (functions.effects.length === 0) return analysis;
    const blocker = `calls ${[...new Set(functions.names)].join(', ')}, which riskgate does not vouch for`;
    return {
      ...analysis,
      effects: [...analysis.effects, ...functions.effects],
      previewable: false,
      previewBlocker: blocker,
    };
  };
  const parsed = await analyzeOneWithPostgresGrammar(text, context);
  if (database === undefined) {
    if ('error' in parsed)
      return withFunctions(unparsable(subject, text, `cannot be checked without the database (${parsed.error})`));
    // PostgreSQL's function verdicts do not apply to SQLite: keep only what is not about functions.
    const effects = parsed.effects.filter(
      (effect) => effect.kind !== 'unknown' || !/^(calls|uses the operator|casts to) /.test(effect.detail),
    );
    return withFunctions({ ...parsed, effects, previewable: parsed.writeTarget !== undefined });
  }
  let readonly: boolean;
  try {
    readonly = database.prepare(text.text).readonly;
  } catch (error) {
    return withFunctions(unparsable(subject, text, `SQLite cannot prepare it: ${(error as Error).message}`));
  }
  if (readonly && (keyword === 'SELECT' || keyword === 'WITH' || keyword === 'VALUES')) {
    const tables =
      'error' in parsed ? [] : parsed.effects.flatMap((effect) => (effect.kind === 'read-db' ? [effect.object] : []));
    const secrets = [
      ...sqliteSecretColumns(text, tables, database),
      ...sqliteViewSecrets(database, text.tokens),
      ...sqliteKeyValueSecrets(database, text),
    ];
    return withFunctions(statement(subject, [...reads(tables), ...secrets]));
  }
  if (readonly && keyword === 'EXPLAIN') {
    const inner = explainedStatement(text);
    const analysis = inner === undefined ? undefined : await analyzeSqliteStatement(inner, database, context);
    if (analysis !== undefined && isReadOnly(analysis)) return analysis;
    return statement(subject, [
      unknownEffect('EXPLAIN of a statement that writes: it only plans it, but is not on the whitelist'),
    ]);
  }
  // SQLite says it writes (or it is a read-only kind riskgate does not whitelist): say what it does.
  if (!('error' in parsed) && !isReadOnly(parsed)) {
    const effects = parsed.effects.filter(
      (effect) => effect.kind !== 'unknown' || !/^(calls|uses the operator|casts to) /.test(effect.detail),
    );
    return withFunctions({ ...parsed, effects, previewable: parsed.writeTarget !== undefined });
  }
  return withFunctions(fallbackAnalysis(text));
}

/**
 * SQLite views a statement names whose definition (sqlite_master.sql, the text as written)
 * names a credential column: `CREATE VIEW v AS SELECT pwd AS note FROM accounts` hands the
 * password out as `note`. Followed through views of views (4 levels).
 */
function sqliteViewSecrets(
  database: BetterSqlite3.Database,
  tokens: readonly { kind: string; text: string }[],
): Effect[] {
  let views: Map<string, string>;
  try {
    const rows = database
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'view' UNION ALL SELECT name, sql FROM sqlite_temp_master WHERE type = 'view'",
      )
      .all() as { name: string; sql: string | null }[];
    views = new Map(rows.map((row) => [row.name.toLowerCase(), row.sql ?? '']));
  } catch {
    return [];
  }
  if (views.size === 0) return [];
  const effects: Effect[] = [];
  const seen = new Set<string>();
  const follow = (words: readonly { kind: string; text: string }[], depth: number) => {
    for (const token of words) {
      if (token.kind !== 'word' && token.kind !== 'quoted-identifier') continue;
      const name = (token.kind === 'word' ? token.text : unquote(token.text)).toLowerCase();
      const definition = views.get(name);
      if (definition === undefined || seen.has(name)) continue;
      seen.add(name);
      effects.push(
        ...secretColumnReads(definition, 'sqlite').map((effect) => ({
          ...effect,
          via: `the view ${name} (its definition reads it)`,
        })),
      );
      if (depth < 4)
        follow(
          lexSql(definition, { dialect: 'sqlite' }).statements.flatMap((statement) => statement.tokens),
          depth + 1,
        );
    }
  };
  follow(tokens, 0);
  return effects;
}

/**
 * A key/value table (`cfg(k, v)`: a key column key|k|name, a value column value|val|v) with a row
 * whose key names a credential: a statement that reads its value column without the key column
 * in its result (`SELECT v FROM cfg WHERE k LIKE 'smtp%'`, `SELECT group_concat(v) FROM cfg`)
 * is a secret read — the output guard would see no key beside the value. With the key in the
 * result (`SELECT * FROM cfg`), the output guard withholds the value. Keys: the first 10,000 rows.
 */
function sqliteKeyValueSecrets(database: BetterSqlite3.Database, text: SqlStatementText): Effect[] {
  const words = new Set(
    text.tokens.flatMap((token) =>
      token.kind === 'word' || token.kind === 'quoted-identifier'
        ? [(token.kind === 'word' ? token.text : unquote(token.text)).toLowerCase()]
        : [],
    ),
  );
  const star = text.tokens.some((token) => token.text === '*');
  let origins: { column: string | null; table: string | null }[];
  try {
    origins = database.prepare(text.text).columns();
  } catch {
    return [];
  }
  const effects: Effect[] = [];
  for (const table of words) {
    let columns: { name: string; type: string }[];
    try {
      columns = database.prepare('SELECT name, type FROM pragma_table_info(?)').all(table) as {
        name: string;
        type: string;
      }[];
    } catch {
      continue;
    }
    const names = new Map(columns.map((column) => [column.name.toLowerCase(), column]));
    const key = ['key', 'k', 'name']
      .map((name) => names.get(name))
      .find((column) => column !== undefined && !/INT|REAL|FLOA|DOUB|BLOB/i.test(column.type));
    const value = ['value', 'val', 'v'].map((name) => names.get(name)).find((column) => column !== undefined);
    if (key === undefined || value === undefined || !(star || words.has(value.name.toLowerCase()))) continue;
    const keyShown = origins.some(
      (origin) => origin.table?.toLowerCase() === table && origin.column?.toLowerCase() === key.name.toLowerCase(),
    );
    if (keyShown) continue;
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    let keys: string[];
    try {
      keys = (
        database
          .prepare(
            `SELECT DISTINCT CAST(${quote(key.name)} AS TEXT) AS key FROM (SELECT ${quote(key.name)} FROM ${quote(table)} LIMIT 10000)`,
          )
          .all() as { key: string | null }[]
      ).flatMap((row) => (row.key === null ? [] : [row.key]));
    } catch {
      continue;
    }
    const secret = keys.filter((name) => isSecretKeyName(name));
    if (secret.length > 0)
      effects.push({
        kind: 'read-db',
        object: `${table}.${value.name}`,
        secret: `a key/value table whose keys name credentials (${secret.slice(0, 3).join(', ')}), read without its key column: its values are secrets`,
      });
  }
  return effects;
}

/** One SQLite statement read by PostgreSQL's grammar, from its tokens alone (no comments left). */
async function analyzeOneWithPostgresGrammar(
  text: SqlStatementText,
  context: PgAnalysisContext,
): Promise<StatementAnalysis | { error: string }> {
  try {
    const trees = parseTrees(spacedText(text));
    if (trees.length !== 1) return { error: 'expected exactly one statement' };
    return await analyzePostgresStatement(trees[0]!.stmt, text.normalized, verbOf(text), context);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

export function unparsable(subject: string, text: SqlStatementText, why: string): StatementAnalysis {
  const fallback = fallbackAnalysis(text);
  return {
    ...fallback,
    subject,
    effects: [unknownEffect(why), ...fallback.effects.filter((effect) => effect.kind !== 'unknown')],
  };
}

/** Effects from keywords alone, for statements no parser could read. Never a read. */
export function fallbackAnalysis(text: SqlStatementText): StatementAnalysis {
  const keyword = leadingKeyword(text);
  const hasWhere = text.tokens.some((token) => token.upper === 'WHERE');
  const table = tableAfter(text, keyword === 'DELETE' ? 'FROM' : keyword === 'UPDATE' ? 'UPDATE' : 'INTO');
  const { effect, writeTarget } = keywordEffect(keyword, text.normalized, table, hasWhere);
  return statement(text.normalized, [effect], writeTarget === undefined ? {} : { writeTarget, previewable: true });
}

function tableAfter(text: SqlStatementText, keyword: string): string {
  const tokens = text.tokens;
  let index = tokens.findIndex((token) => token.upper === keyword);
  if (index === -1) return 'a table';
  index++;
  while (
    tokens[index]?.kind === 'word' &&
    [
      'OR',
      'REPLACE',
      'ROLLBACK',
      'ABORT',
      'FAIL',
      'IGNORE',
      'INTO',
      'FROM',
      'ONLY',
      'LOW_PRIORITY',
      'QUICK',
      'DELAYED',
      'HIGH_PRIORITY',
    ].includes(tokens[index]!.upper)
  )
    index++;
  const name = tokens[index];
  if (name === undefined) return 'a table';
  return tokens[index + 1]?.text === '.' && tokens[index + 2] !== undefined
    ? `${name.text}.${tokens[index + 2]!.text}`
    : name.text;
}

export function verbOf(text: SqlStatementText): string {
  return text.tokens
    .slice(0, 2)
    .filter((token) => token.kind === 'word')
    .map((token) => token.upper)
    .join(' ');
}
