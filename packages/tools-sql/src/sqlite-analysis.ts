import type { Effect } from '@riskgate/risk';
import type BetterSqlite3 from 'better-sqlite3';
import { requireDriver } from './drivers.js';
import { isTransactionControl } from './sql-plan.js';
import { isColumnList, leadingKeyword, lexSql, type SqlStatementText, unquote } from './sql-lexer.js';
import { reads, type StatementAnalysis, statement, unknownEffect, writeDb } from './statement-analysis.js';

/**
 * SQLite's own knowledge: the built-in functions its engine reports (`PRAGMA function_list`
 * of an in-memory database), the functions never whitelisted, and the ones whose memory use
 * their arguments decide.
 */
let builtins: ReadonlySet<string> | undefined;
export function sqliteBuiltinFunctions(): ReadonlySet<string> {
  if (builtins === undefined) {
    let Database: typeof BetterSqlite3;
    try {
      // Loaded here, not at import: importing @riskgate/tools-sql must not need better-sqlite3.
      Database = requireDriver<typeof BetterSqlite3>('sqlite');
    } catch {
      // Without SQLite's own list nothing is vouched for: every call is asked about.
      builtins = new Set();
      return builtins;
    }
    const memory = new Database(':memory:');
    try {
      builtins = new Set(
        (
          memory.prepare('SELECT DISTINCT name FROM pragma_function_list WHERE builtin = 1').all() as { name: string }[]
        ).map((row) => row.name.toLowerCase()),
      );
    } finally {
      memory.close();
    }
  }
  return builtins;
}

/** Functions of SQLite's shell and extensions that reach files, code or memory: never whitelisted. */
const SQLITE_NEVER: Record<string, (name: string, literal: string | undefined) => Effect[]> = {
  load_extension: (name) => [
    { kind: 'run-program', program: 'a SQLite extension library', via: name, severity: 'high' },
  ],
  // Never whitelisted (the rule for SQLite's file functions); the path effect lets the judge name a secret.
  readfile: (name, path) => [
    unknownEffect(`calls ${name}, a SQLite shell function that reads files`, 'high'),
    ...(path === undefined ? [] : [{ kind: 'read-path' as const, path, via: name }]),
  ],
  writefile: (name, path) =>
    path === undefined
      ? [unknownEffect(`calls ${name} on a path riskgate cannot read`, 'high')]
      : [{ kind: 'write-path', path, via: name }],
  fsdir: (name, path) => [
    unknownEffect(`calls ${name}, a SQLite shell function that lists and reads files`, 'high'),
    ...(path === undefined ? [] : [{ kind: 'read-path' as const, path, via: name, recursive: true }]),
  ],
  edit: (name) => [{ kind: 'run-program', program: 'an editor', via: name }],
  eval: (name) => [{ kind: 'run-program', program: 'SQL given as text', via: name }],
  fts3_tokenizer: (name) => [unknownEffect(`calls ${name}, which can register native code pointers`, 'high')],
  sqlite_log: (name) => [unknownEffect(`calls ${name}, which writes to the error log`)],
};
const SQLAR = /^(sqlar_|zipfile|shell_)/;

/** Bytes a zeroblob/randomblob may allocate in riskgate's own process before it is unbounded. */
const MAX_LITERAL_BLOB = 1_000_000;

/** Effects of the functions a SQLite statement calls (by the tokens: `name (`). */
export function sqliteFunctionEffects(
  statement: SqlStatementText,
  knownOnly: boolean,
): { effects: Effect[]; names: string[] } {
  const effects: Effect[] = [];
  const names: string[] = [];
  const functions = sqliteBuiltinFunctions();
  const { tokens } = statement;
  for (let index = 0; index + 1 < tokens.length; index++) {
    const token = tokens[index]!;
    if ((token.kind !== 'word' && token.kind !== 'quoted-identifier') || tokens[index + 1]!.text !== '(') continue;
    const name = unquote(token.text).toLowerCase();
    if (SQLITE_NEVER[name] === undefined && isColumnList(tokens, index)) continue;
    const argument = tokens[index + 2];
    const literal = argument?.kind === 'string' ? argument.text.slice(1, -1).replaceAll("''", "'") : undefined;
    const found: Effect[] = [];
    const never = SQLITE_NEVER[name];
    if (never !== undefined) found.push(...never(name, literal));
    else if (SQLAR.test(name))
      found.push(unknownEffect(`calls ${name}, a SQLite shell function that reaches files`, 'high'));
    else if (name === 'zeroblob' || name === 'randomblob') {
      const size = argument?.kind === 'number' && tokens[index + 3]?.text === ')' ? Number(argument.text) : Number.NaN;
      if (!(size <= MAX_LITERAL_BLOB))
        found.push({
          kind: 'unbounded',
          resource: 'memory',
          detail: `calls ${name} with a size riskgate cannot bound (up to a gigabyte in riskgate's own process)`,
        });
    } else if (
      (name === 'printf' || name === 'format') &&
      tokens
        .slice(index + 2)
        .some((next) => next.kind === 'string' && /%[-+ 0#,!]*(?:\*|\d{6,}|\d*\.(?:\*|\d{6,}))/.test(next.text))
    ) {
      found.push({ kind: 'unbounded', resource: 'memory', detail: `calls ${name} with a width riskgate cannot bound` });
    } else if (knownOnly && !functions.has(name) && !NOT_FUNCTIONS.has(token.upper)) {
      found.push(unknownEffect(`calls ${name}, which is not a built-in SQLite function`));
    }
    if (found.length > 0) {
      effects.push(
        ...found.map((effect) =>
          'detail' in effect || effect.note !== undefined ? effect : { ...effect, note: `calls ${name}` },
        ),
      );
      names.push(name);
    }
  }
  const endless = endlessRecursion(tokens);
  if (endless !== undefined) effects.push(endless);
  return { effects, names };
}

/**
 * A recursive CTE whose recursive member has no WHERE or join condition, in a statement with no
 * LIMIT, never ends (`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT
 * count(*) FROM c`). SQLite runs in riskgate's own process, on a worker stopped at the timeout:
 * still never whitelisted.
 */
function endlessRecursion(tokens: SqlStatementText['tokens']): Effect | undefined {
  if (!tokens.some((token) => token.upper === 'RECURSIVE') || tokens.some((token) => token.upper === 'LIMIT'))
    return undefined;
  const union = tokens.findIndex((token) => token.upper === 'UNION');
  if (union === -1) return undefined;
  if (tokens.slice(union).some((token) => token.upper === 'WHERE' || token.upper === 'ON' || token.upper === 'USING'))
    return undefined;
  return {
    kind: 'unbounded',
    resource: 'time',
    detail: 'a recursive query with no condition that ends it and no LIMIT runs until the timeout',
  };
}

/** Words SQLite's grammar follows with `(` that are not calls. */
const NOT_FUNCTIONS = new Set([
  'IN',
  'EXISTS',
  'VALUES',
  'AS',
  'OVER',
  'FILTER',
  'USING',
  'ON',
  'FROM',
  'JOIN',
  'SELECT',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'INTO',
  'TABLE',
  'KEY',
  'UNIQUE',
  'CHECK',
  'REFERENCES',
  'DEFAULT',
  'CAST',
  'WHEN',
  'THEN',
  'ELSE',
  'CASE',
  'BY',
  'WITH',
  'RECURSIVE',
  'ALL',
  'DISTINCT',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'IS',
  'LIKE',
  'GLOB',
  'BETWEEN',
  'SET',
  'RETURNING',
  'WINDOW',
  'PARTITION',
  'ORDER',
  'GROUP',
  'HAVING',
  'LIMIT',
  'OFFSET',
  'INTEGER',
  'INT',
  'TEXT',
  'REAL',
  'NUMERIC',
  'BLOB',
  'VARCHAR',
  'CHAR',
  'DECIMAL',
  'CONFLICT',
  'DO',
  'UPDATE',
  'MATERIALIZED',
  'ROWS',
  'RANGE',
  'GROUPS',
  'INDEXED',
  'COLLATE',
  'ESCAPE',
  'RAISE',
  'TO',
  'END',
]);

/**
 * SQLite statements riskgate decides by keyword, because SQLite calls them read-only although
 * they are not data reads (transaction control, ATTACH/DETACH, pragmas), plus what they touch.
 */
export function sqliteKeywordStatement(text: SqlStatementText): StatementAnalysis | undefined {
  const keyword = leadingKeyword(text);
  const subject = text.normalized;
  if (keyword === 'PRAGMA') return analyzePragma(text);
  if (isTransactionControl(text))
    return statement(subject, [
      { kind: 'change-session', detail: `transaction control (${keyword}) is not on the whitelist` },
    ]);
  if (keyword === 'ATTACH') {
    const file = text.tokens.find((token) => token.kind === 'string');
    const path = file === undefined ? undefined : file.text.slice(1, -1).replaceAll("''", "'");
    const effects: Effect[] = [
      { kind: 'change-session', detail: 'ATTACH opens (or creates) another database file on this connection' },
    ];
    if (path !== undefined && path !== '' && path !== ':memory:' && !path.startsWith('file:'))
      effects.unshift({ kind: 'write-path', path, via: 'ATTACH' });
    else if (path === undefined || path.startsWith('file:'))
      effects.unshift(unknownEffect('ATTACH of a file riskgate cannot name'));
    return statement(subject, effects);
  }
  if (keyword === 'DETACH')
    return statement(subject, [
      { kind: 'change-session', detail: 'DETACH changes the databases this connection can see' },
    ]);
  if (keyword === 'VACUUM') {
    const into = text.tokens.findIndex((token) => token.upper === 'INTO');
    const target = into === -1 ? undefined : text.tokens[into + 1];
    if (target?.kind === 'string')
      return statement(subject, [{ kind: 'write-path', path: target.text.slice(1, -1), via: 'VACUUM INTO' }]);
    return statement(subject, [
      writeDb('the database file', 'VACUUM rewrites the database file (VACUUM INTO writes a new one)'),
    ]);
  }
  return undefined;
}

/** Pragmas that only report; with `= value` (or a value argument for a setting) they write. */
const READ_PRAGMAS = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_list',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
  'foreign_key_check',
  'database_list',
  'collation_list',
  'function_list',
  'module_list',
  'pragma_list',
  'compile_options',
  'integrity_check',
  'quick_check',
  'page_count',
  'freelist_count',
  'data_version',
]);
/** Settings that are read when given no value. */
const READABLE_SETTINGS = new Set([
  'user_version',
  'schema_version',
  'application_id',
  'page_size',
  'encoding',
  'journal_mode',
  'foreign_keys',
  'auto_vacuum',
  'cache_size',
  'synchronous',
  'busy_timeout',
  'max_page_count',
  'temp_store',
  'locking_mode',
]);
const PRAGMAS_WITH_TABLE_ARGUMENT = new Set([
  'table_info',
  'table_xinfo',
  'index_list',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
  'foreign_key_check',
  'table_list',
  'integrity_check',
  'quick_check',
]);

function analyzePragma(text: SqlStatementText): StatementAnalysis {
  const tokens = text.tokens;
  // PRAGMA [schema.]name [= value | (value)]
  let index = 1;
  if (tokens[index + 1]?.text === '.') index += 2;
  const name = tokens[index]?.upper.toLowerCase() ?? '';
  const rest = tokens.slice(index + 1);
  const subject = text.normalized;
  const assigns = rest.some((token) => token.text === '=');
  const hasArgument = rest[0]?.text === '(';
  const wellFormed =
    rest.length === 0 ||
    (hasArgument &&
      rest.at(-1)?.text === ')' &&
      !rest.slice(1, -1).some((token) => token.text === '(' || token.text === ')'));
  if (!assigns && wellFormed) {
    if (READ_PRAGMAS.has(name) && (!hasArgument || PRAGMAS_WITH_TABLE_ARGUMENT.has(name)))
      return statement(subject, reads([`PRAGMA ${name}`]));
    if (READABLE_SETTINGS.has(name) && !hasArgument) return statement(subject, reads([`PRAGMA ${name}`]));
  }
  if (name === 'writable_schema')
    return statement(subject, [
      { kind: 'change-session', detail: 'PRAGMA writable_schema lets statements corrupt the schema', severity: 'high' },
    ]);
  return statement(subject, [
    {
      kind: 'change-session',
      detail:
        assigns || hasArgument
          ? `PRAGMA ${name} changes a setting`
          : `PRAGMA ${name || '(unknown)'} is not on the read-only pragma list`,
    },
  ]);
}

/** EXPLAIN [QUERY PLAN] …: the statement it explains, as text. */
export function explainedStatement(text: SqlStatementText): SqlStatementText | undefined {
  const tokens = text.tokens;
  const skip = tokens[1]?.upper === 'QUERY' && tokens[2]?.upper === 'PLAN' ? 3 : 1;
  const innerStart = tokens[skip]?.start;
  if (innerStart === undefined) return undefined;
  return lexSql(text.text.slice(innerStart - text.start), { dialect: 'sqlite' }).statements[0];
}
