import { type Effect, isSecretKeyName } from '@riskgate/risk';
import { MYSQL_FUNCTION_EFFECTS, MYSQL_HARMLESS_FUNCTIONS, mysqlSecretTable } from './mysql-knowledge.js';
import { keywordEffect } from './postgres-analysis.js';
import { secretColumnReads } from './secret-column-reads.js';
import { isTransactionControl } from './sql-plan.js';
import { isColumnList, leadingKeyword, lexSql, type SqlStatementText, type Token, unquote } from './sql-lexer.js';
import { reads, type StatementAnalysis, statement, unknownEffect } from './statement-analysis.js';

/** What a MySQL/MariaDB connection tells the assessor. */
export interface MysqlKnowledge {
  /** False when the server's sql_mode has NO_BACKSLASH_ESCAPES; unknown without a connection. */
  readonly backslashEscapes?: boolean;
  /** The connection's current database (`user` there is `mysql.user` when it is `mysql`). */
  readonly database?: string;
  /** With a connection: the definitions of those named tables that are views ('' when hidden). */
  readonly viewDefinitions?: (
    tables: readonly { schema?: string; name: string }[],
  ) => Promise<ReadonlyMap<string, string>>;
  /** With a connection: those named base tables that look like key/value tables, by `schema.table` in lower case, with their keys. */
  readonly keyValueTables?: (
    tables: readonly { schema?: string; name: string }[],
  ) => Promise<ReadonlyMap<string, { value: string; keys: readonly string[] }>>;
}

/**
 * A key/value table (`cfg(k, v)`) with a row whose key names a credential: a statement that
 * reads its value column (or `*`) is a secret read — `SELECT v FROM cfg WHERE k LIKE 'smtp%'`
 * and `SELECT GROUP_CONCAT(v) FROM cfg` show no key beside the value for the output guard.
 */
async function keyValueEffects(tokens: readonly Token[], knowledge: MysqlKnowledge): Promise<Effect[]> {
  if (knowledge.keyValueTables === undefined) return [];
  const tables = tablesOf(tokens);
  if (tables.length === 0) return [];
  let found: ReadonlyMap<string, { value: string; keys: readonly string[] }>;
  try {
    found = await knowledge.keyValueTables(tables);
  } catch (error) {
    return [
      unknownEffect(
        `the keys of a table that looks like a key/value table cannot be read: ${(error as Error).message}`,
      ),
    ];
  }
  const words = new Set(
    tokens.flatMap((token) =>
      token.kind === 'word' || token.kind === 'quoted-identifier' ? [unquote(token.text).toLowerCase()] : [],
    ),
  );
  const star = tokens.some((token) => token.text === '*');
  const effects: Effect[] = [];
  for (const [table, { value, keys }] of found) {
    if (!star && !words.has(value.toLowerCase())) continue;
    const secret = keys.filter((key) => isSecretKeyName(key));
    if (secret.length > 0)
      effects.push({
        kind: 'read-db',
        object: `${table}.${value}`,
        secret: `a key/value table whose keys name credentials (${secret.slice(0, 3).join(', ')}): its values are secrets`,
      });
  }
  return effects;
}

const MAX_VIEW_DEPTH = 4;

/** `SELECT * FROM v` runs v's definition: its effects, beyond reads, are the statement's. */
async function viewEffects(tokens: readonly Token[], knowledge: MysqlKnowledge, depth: number): Promise<Effect[]> {
  if (knowledge.viewDefinitions === undefined) return [];
  const tables = tablesOf(tokens);
  if (tables.length === 0) return [];
  const definitions = await knowledge.viewDefinitions(tables);
  const effects: Effect[] = [];
  for (const [view, definition] of definitions) {
    if (definition.trim() === '') {
      effects.push(unknownEffect(`the definition of the view ${view} is hidden from this user`));
      continue;
    }
    if (depth >= MAX_VIEW_DEPTH) {
      effects.push(unknownEffect(`${view} is built on more than ${MAX_VIEW_DEPTH} levels of views`));
      continue;
    }
    const lexed = lexSql(definition, { dialect: 'mysql', backslashEscapes: knowledge.backslashEscapes ?? true });
    if (lexed.error !== undefined || lexed.statements.length !== 1) {
      effects.push(unknownEffect(`the definition of the view ${view} cannot be read`));
      continue;
    }
    const inner = lexed.statements[0]!;
    // A view built on a credential column hands its values out under the view's column names.
    const found = [
      ...analyzeMysqlStatement(inner, knowledge).effects,
      ...secretColumnReads(definition, 'mysql'),
      ...(await viewEffects(inner.tokens, knowledge, depth + 1)),
    ];
    effects.push(
      ...found
        .filter((effect) => effect.kind !== 'read-db' || effect.secret !== undefined)
        .map((effect) => ({ ...effect, via: `the view ${view}` })),
    );
  }
  return effects;
}

/**
 * MySQL/MariaDB, lexed by MySQL's rules (# and `-- ` comments, executable comments, backslash
 * escapes). Without a connection the sql_mode is unknown, so the text is lexed both with and
 * without backslash escapes: if the two readings differ, it is not whitelisted.
 */
export async function analyzeMysqlScript(
  sql: string,
  knowledge: MysqlKnowledge = {},
): Promise<{ pieces: readonly SqlStatementText[]; analyses: StatementAnalysis[] }> {
  const lexed = lexSql(sql, { dialect: 'mysql', backslashEscapes: knowledge.backslashEscapes ?? true });
  const pieces = lexed.statements;
  if (pieces.length === 0 && lexed.error === undefined) return { pieces, analyses: [] };
  return { pieces, analyses: await analyzeMysqlPieces(sql, lexed, knowledge) };
}

/** One analysis per piece; a single one for the whole text when it cannot be read safely. */
async function analyzeMysqlPieces(
  sql: string,
  lexed: ReturnType<typeof lexSql>,
  knowledge: MysqlKnowledge,
): Promise<StatementAnalysis[]> {
  if (lexed.error !== undefined) {
    // Text the lexer cannot read safely (a separator hidden in an executable comment) is how injections look.
    return [
      statement(sql.trim().replace(/\s+/g, ' '), [
        unknownEffect(`the SQL cannot be read safely: ${lexed.error}`, 'high'),
      ]),
    ];
  }
  if (knowledge.backslashEscapes === undefined) {
    const other = lexSql(sql, { dialect: 'mysql', backslashEscapes: false });
    const shape = (result: typeof lexed) =>
      result.statements.map((text) => text.tokens.map((token) => `${token.kind}:${token.text}`).join(' ')).join(';');
    if (other.error !== undefined || shape(other) !== shape(lexed)) {
      // Either reading may be the server's: judge both, so what either would do is known (guarded mode).
      const readings = [...lexed.statements, ...(other.error === undefined ? other.statements : [])].map((text) =>
        analyzeMysqlStatement(text, knowledge),
      );
      const effects = readings.flatMap((analysis) => analysis.effects);
      const writes = effects.some((effect) => effect.kind !== 'read-db' && effect.kind !== 'unknown');
      return [
        statement(sql.trim().replace(/\s+/g, ' '), [
          unknownEffect(
            'the SQL reads differently with and without backslash escapes (sql_mode NO_BACKSLASH_ESCAPES): it cannot be read safely',
            writes ? 'high' : undefined,
          ),
          ...effects,
        ]),
      ];
    }
  }
  const analyses: StatementAnalysis[] = [];
  for (const text of lexed.statements) {
    const analysis = analyzeMysqlStatement(text, knowledge);
    const reading = READ_STARTS.has(leadingKeyword(text)) || text.tokens[0]?.text === '(';
    const throughViews = [
      ...(await viewEffects(text.tokens, knowledge, 0)),
      ...(reading ? await keyValueEffects(text.tokens, knowledge) : []),
    ];
    analyses.push(
      throughViews.length === 0
        ? analysis
        : {
            ...analysis,
            effects: [...analysis.effects, ...throughViews],
            previewable: false,
            previewBlocker: 'it reads a view whose definition does more than read',
          },
    );
  }
  return analyses;
}

const READ_STARTS = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);
const WRITE_WORDS = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'REPLACE',
  'CREATE',
  'DROP',
  'ALTER',
  'TRUNCATE',
  'GRANT',
  'REVOKE',
  'RENAME',
  'CALL',
  'LOAD',
  'HANDLER',
  'LOCK',
  'UNLOCK',
  'SET',
  'DO',
  'KILL',
  'FLUSH',
  'RESET',
  'PURGE',
  'INSTALL',
  'UNINSTALL',
  'PROCEDURE',
  'SHUTDOWN',
  'BINLOG',
  'PREPARE',
  'EXECUTE',
]);
/** Reserved words MySQL's grammar follows with `(`: never a function name unless quoted. */
const RESERVED_BEFORE_PAREN = new Set([
  'IN',
  'AS',
  'VALUES',
  'JOIN',
  'USING',
  'ON',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'XOR',
  'INTO',
  'TABLE',
  'SELECT',
  'UNION',
  'ALL',
  'DISTINCT',
  'INDEX',
  'KEY',
  'FORCE',
  'USE',
  'IGNORE',
  'PARTITION',
  'LATERAL',
  'WITH',
  'RECURSIVE',
  'BY',
  'WINDOW',
  'VARCHAR',
  'DECIMAL',
  'DEC',
  'NUMERIC',
  'FLOAT',
  'DOUBLE',
  'BINARY',
  'VARBINARY',
  'INT',
  'INTEGER',
  'UNSIGNED',
  'ROWS',
  'RANGE',
  'ELSE',
  'THEN',
  'WHEN',
  'CASE',
  'IS',
  'LIKE',
  'REGEXP',
  'RLIKE',
  'BETWEEN',
  'HAVING',
  'LIMIT',
  'ORDER',
  'GROUP',
  'EXCEPT',
  'INTERSECT',
  'NATURAL',
  'INNER',
  'OUTER',
  'CROSS',
  'STRAIGHT_JOIN',
  'OVER',
]);
/**
 * Non-reserved words that take `(` in some places (a user may name a function so): not a call
 * only where the grammar puts them — a type after AS, a clause after a call's `)`, a subquery.
 */
const CONTEXTUAL_BEFORE_PAREN = new Set([
  'DATETIME',
  'NCHAR',
  'SIGNED',
  'AGAINST',
  'FILTER',
  'ANY',
  'SOME',
  'VALUE',
  'TIME',
  'TIMESTAMP',
  'CHAR',
]);

function isNotACall(tokens: readonly Token[], index: number): boolean {
  const word = tokens[index]!.upper;
  if (RESERVED_BEFORE_PAREN.has(word)) return true;
  if (!CONTEXTUAL_BEFORE_PAREN.has(word)) return false;
  const previous = tokens[index - 1]?.upper ?? '';
  const inside = tokens[index + 2]?.upper ?? '';
  if (['ANY', 'SOME'].includes(word)) return inside === 'SELECT' || inside === 'WITH';
  if (word === 'FILTER') return previous === ')' && inside === 'WHERE';
  if (word === 'AGAINST') return previous === ')';
  // Types: CAST(x AS CHAR(10)), CONVERT(x, DATETIME(6)).
  return (
    previous === 'AS' ||
    (previous === ',' && ['DATETIME', 'TIME', 'TIMESTAMP', 'CHAR', 'NCHAR', 'SIGNED'].includes(word))
  );
}

/** The effects of the functions a statement calls. */
function mysqlFunctionEffects(tokens: readonly Token[]): { effects: Effect[]; names: string[] } {
  const effects: Effect[] = [];
  const names: string[] = [];
  for (let index = 0; index + 1 < tokens.length; index++) {
    const token = tokens[index]!;
    if ((token.kind !== 'word' && token.kind !== 'quoted-identifier') || tokens[index + 1]!.text !== '(') continue;
    const previous = tokens[index - 1];
    const name = unquote(token.text).toUpperCase();
    if (MYSQL_FUNCTION_EFFECTS[name] === undefined && isColumnList(tokens, index)) continue;
    if (token.kind === 'word' && previous?.text !== '.' && isNotACall(tokens, index)) continue;
    const argument = tokens[index + 2];
    const literal = argument?.kind === 'string' ? unquoteMysqlString(argument.text) : undefined;
    const count = argument?.text === ')' ? 0 : 1;
    let found: Effect[];
    if (previous?.text === '.' || token.kind === 'quoted-identifier') {
      found = [unknownEffect(`calls ${name.toLowerCase()}, a stored function riskgate does not vouch for`)];
    } else if (MYSQL_FUNCTION_EFFECTS[name] !== undefined) {
      found = MYSQL_FUNCTION_EFFECTS[name](name, literal, count);
    } else if (MYSQL_HARMLESS_FUNCTIONS.has(name)) {
      found = [];
    } else {
      found = [
        unknownEffect(
          `calls ${name}, which is not a MySQL/MariaDB built-in riskgate vouches for (a stored function or UDF may do anything)`,
        ),
      ];
    }
    if (found.length > 0) {
      effects.push(...found);
      names.push(name);
    }
  }
  return { effects, names };
}

export function unquoteMysqlString(text: string): string {
  const quote = text[0]!;
  return text
    .slice(1, -1)
    .replace(/\\(.)/g, '$1')
    .replaceAll(quote + quote, quote);
}

/** The tables a statement names after FROM, JOIN, UPDATE, INTO or TABLE, with their schema. */
function tablesOf(tokens: readonly Token[]): { schema?: string; name: string }[] {
  const tables: { schema?: string; name: string }[] = [];
  const name = (token: Token | undefined) =>
    token === undefined || (token.kind !== 'word' && token.kind !== 'quoted-identifier')
      ? undefined
      : unquote(token.text);
  let inFrom = false;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (['FROM', 'JOIN', 'UPDATE', 'INTO', 'TABLE', 'DESCRIBE', 'DESC', 'EXPLAIN'].includes(token.upper)) inFrom = true;
    else if (
      [
        'WHERE',
        'GROUP',
        'ORDER',
        'LIMIT',
        'HAVING',
        'ON',
        'USING',
        'SET',
        'VALUES',
        'SELECT',
        'UNION',
        'WINDOW',
      ].includes(token.upper)
    )
      inFrom = false;
    if (!inFrom) continue;
    const first = name(tokens[index + 1]);
    if (
      !(
        token.text === ',' ||
        ['FROM', 'JOIN', 'UPDATE', 'INTO', 'TABLE', 'DESCRIBE', 'DESC', 'EXPLAIN'].includes(token.upper)
      ) ||
      first === undefined
    )
      continue;
    if (tokens[index + 2]?.text === '.' && name(tokens[index + 3]) !== undefined)
      tables.push({ schema: first, name: name(tokens[index + 3])! });
    else tables.push({ name: first });
  }
  return tables;
}

function secretReads(tokens: readonly Token[], knowledge: MysqlKnowledge): Effect[] {
  return tablesOf(tokens).flatMap((table) => {
    const secret = mysqlSecretTable(table.schema, table.name, knowledge.database);
    return secret === undefined
      ? []
      : [{ kind: 'read-db' as const, object: `${table.schema ?? knowledge.database}.${table.name}`, secret }];
  });
}

/** A SELECT (or what runs like one): everything in it that is more than a read. */
function readEffects(tokens: readonly Token[], knowledge: MysqlKnowledge): Effect[] {
  const effects: Effect[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (token.upper === 'INTO' && token.kind === 'word') {
      if ((next?.upper === 'OUTFILE' || next?.upper === 'DUMPFILE') && tokens[index + 2]?.kind === 'string') {
        effects.push({
          kind: 'write-path',
          path: unquoteMysqlString(tokens[index + 2]!.text),
          via: `INTO ${next.upper}`,
          note: 'the file is written on the database server',
        });
      } else
        effects.push({ kind: 'change-session', detail: 'SELECT … INTO stores the result in variables (or a file)' });
    } else if (token.upper === 'FOR' && (next?.upper === 'UPDATE' || next?.upper === 'SHARE')) {
      effects.push({ kind: 'hold-lock', detail: `SELECT … FOR ${next.upper} locks rows` });
      index++;
    } else if (token.upper === 'LOCK' && next?.upper === 'IN') {
      effects.push({ kind: 'hold-lock', detail: 'SELECT … LOCK IN SHARE MODE locks rows' });
      index += 3;
    } else if (token.text === ':' && next?.text === '=') {
      effects.push({ kind: 'change-session', detail: 'assigns a user variable (:=)' });
    } else if (
      token.kind === 'word' &&
      WRITE_WORDS.has(token.upper) &&
      next?.text !== '(' &&
      !(token.upper === 'SET' && ['CHARACTER', 'CHARSET'].includes(tokens[index - 1]?.upper ?? ''))
    ) {
      effects.push(unknownEffect(`${token.upper} inside a read: it could not be verified as read-only`));
    }
  }
  const objects = tablesOf(tokens).map((table) =>
    table.schema === undefined ? table.name : `${table.schema}.${table.name}`,
  );
  return [...reads(objects), ...effects, ...secretReads(tokens, knowledge), ...mysqlFunctionEffects(tokens).effects];
}

/** SHOW: a read, of password hashes or other sessions' SQL text for some. */
function analyzeShow(
  subject: string,
  tokens: readonly Token[],
  knowledge: MysqlKnowledge,
  functionEffects: readonly Effect[],
): StatementAnalysis {
  const what = tokens
    .slice(1, 3)
    .map((token) => token.upper)
    .join(' ');
  if (what === 'CREATE USER' || tokens[1]?.upper === 'GRANTS') {
    return statement(subject, [
      { kind: 'read-db', object: `SHOW ${what}`, secret: 'account password hashes' },
      ...functionEffects,
    ]);
  }
  // The statements other sessions are running (and InnoDB's status, which quotes them).
  if (tokens[1]?.upper === 'PROCESSLIST' || what === 'FULL PROCESSLIST' || what === 'ENGINE INNODB') {
    return statement(subject, [
      {
        kind: 'read-db',
        object: `SHOW ${what}`,
        secret: "the text of other sessions' statements, where passwords travel",
      },
      ...functionEffects,
    ]);
  }
  return statement(subject, [...reads([`SHOW ${what}`]), ...functionEffects, ...secretReads(tokens, knowledge)]);
}

/** DESCRIBE/DESC/EXPLAIN [ANALYZE]: a read of what they describe; ANALYZE runs the statement. */
function analyzeDescribe(
  keyword: string,
  subject: string,
  tokens: readonly Token[],
  knowledge: MysqlKnowledge,
  functionEffects: readonly Effect[],
): StatementAnalysis {
  let index = 1;
  const executes = keyword === 'ANALYZE' || tokens[1]?.upper === 'ANALYZE';
  while (
    ['ANALYZE', 'EXTENDED', 'PARTITIONS', 'FORMAT', '=', 'JSON', 'TRADITIONAL', 'TREE'].includes(
      tokens[index]?.upper ?? '',
    )
  )
    index++;
  const inner = tokens.slice(index);
  const innerKeyword = inner[0]?.upper ?? '';
  if ((READ_STARTS.has(innerKeyword) && !(keyword === 'ANALYZE' && innerKeyword === 'TABLE')) || inner[0]?.text === '(')
    return statement(subject, readEffects(inner, knowledge));
  if (keyword === 'ANALYZE')
    return statement(subject, [
      { kind: 'write-db', object: 'table statistics', detail: 'ANALYZE TABLE rewrites index statistics' },
    ]);
  if (
    inner.length > 0 &&
    inner[0]!.kind !== 'string' &&
    !['INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'FOR'].includes(innerKeyword) &&
    inner.length <= 4
  ) {
    return statement(subject, [
      ...reads([inner.map((token) => unquote(token.text)).join('')]),
      ...secretReads(tokens, knowledge),
    ]);
  }
  return statement(subject, [
    unknownEffect(
      executes
        ? 'EXPLAIN ANALYZE executes the statement it explains'
        : 'EXPLAIN of a statement that writes: it only plans it, but is not on the whitelist',
    ),
    ...functionEffects,
  ]);
}

function analyzeMysqlStatement(text: SqlStatementText, knowledge: MysqlKnowledge): StatementAnalysis {
  const { tokens } = text;
  const keyword = leadingKeyword(text);
  const subject = text.normalized;
  const functions = mysqlFunctionEffects(tokens);
  if (READ_STARTS.has(keyword) || tokens[0]?.text === '(') return statement(subject, readEffects(tokens, knowledge));
  if (keyword === 'SHOW') return analyzeShow(subject, tokens, knowledge, functions.effects);
  if (keyword === 'DESCRIBE' || keyword === 'DESC' || keyword === 'EXPLAIN' || keyword === 'ANALYZE')
    return analyzeDescribe(keyword, subject, tokens, knowledge, functions.effects);
  if (keyword === 'SET' || keyword === 'USE')
    return statement(subject, [
      { kind: 'change-session', detail: `${keyword} changes the session's settings or database` },
      ...functions.effects,
    ]);
  if (isTransactionControl(text)) {
    return statement(subject, [
      { kind: 'change-session', detail: `transaction control (${keyword}) is not on the whitelist` },
    ]);
  }
  if (
    keyword === 'KILL' ||
    keyword === 'SHUTDOWN' ||
    keyword === 'FLUSH' ||
    keyword === 'RESET' ||
    keyword === 'PURGE'
  ) {
    return statement(subject, [{ kind: 'control-process', detail: `${keyword} acts on the server or other sessions` }]);
  }
  if (keyword === 'INSTALL' || keyword === 'CALL')
    return statement(subject, [
      { kind: 'run-program', program: keyword === 'CALL' ? 'a stored procedure' : 'a server plugin', severity: 'high' },
    ]);
  if (keyword === 'LOCK') return statement(subject, [{ kind: 'hold-lock', detail: 'LOCK TABLES takes table locks' }]);
  if (keyword === 'LOAD') {
    const file = tokens.find((token) => token.kind === 'string');
    const local = tokens.some((token) => token.upper === 'LOCAL');
    const effects: Effect[] = [keywordEffect('INSERT', subject, 'a table', false).effect];
    if (file !== undefined) {
      const path = unquoteMysqlString(file.text);
      effects.push({
        kind: 'read-path',
        path,
        via: local ? 'LOAD DATA LOCAL' : 'LOAD DATA',
        note: `LOAD DATA reads ${path}${local ? '' : ' on the database server'}`,
      });
    }
    return statement(subject, effects);
  }
  const table = tableAfterVerb(tokens, keyword);
  const hasWhere = tokens.some((token) => token.upper === 'WHERE');
  const { effect, writeTarget } = keywordEffect(keyword, subject, table, hasWhere);
  const blocker =
    functions.names.length === 0
      ? undefined
      : `calls ${[...new Set(functions.names)].join(', ')}, which a rollback cannot undo`;
  return statement(subject, [effect, ...secretReads(tokens, knowledge), ...functions.effects], {
    ...(writeTarget === undefined ? {} : { writeTarget, previewable: blocker === undefined }),
    ...(blocker === undefined ? {} : { previewBlocker: blocker }),
    relations: writeTarget === undefined ? [] : [writeTarget],
  });
}

function tableAfterVerb(tokens: readonly Token[], keyword: string): string {
  const after = keyword === 'DELETE' ? 'FROM' : keyword === 'UPDATE' || keyword === 'TRUNCATE' ? keyword : 'INTO';
  let index = tokens.findIndex((token) => token.upper === after);
  if (index === -1 && (keyword === 'INSERT' || keyword === 'REPLACE')) index = 0;
  if (index === -1) return 'a table';
  index++;
  while (
    ['LOW_PRIORITY', 'QUICK', 'IGNORE', 'DELAYED', 'HIGH_PRIORITY', 'INTO', 'FROM', 'TABLE'].includes(
      tokens[index]?.upper ?? '',
    )
  )
    index++;
  const first = tokens[index];
  if (first === undefined) return 'a table';
  return tokens[index + 1]?.text === '.' && tokens[index + 2] !== undefined
    ? `${unquote(first.text)}.${unquote(tokens[index + 2]!.text)}`
    : unquote(first.text);
}
