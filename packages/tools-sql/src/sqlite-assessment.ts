import { type Effect, isSecretColumnName, isSecretKeyName } from '@riskgate/risk';
import type BetterSqlite3 from 'better-sqlite3';
import { requireDriver } from './drivers.js';
import { fallbackAnalysis, unparsable } from './keyword-analysis.js';
import { secretColumnReads } from './secret-column-reads.js';
import { leadingKeyword, lexSql, type SqlStatementText, type Token, unquote } from './sql-lexer.js';
import { explainedStatement, sqliteFunctionEffects, sqliteKeywordStatement } from './sqlite-analysis.js';
import { type SqliteSchemaSnapshot, schemaSnapshot } from './sqlite-schema-snapshot.js';
import { isReadOnly, reads, type StatementAnalysis, statement, unknownEffect, writeDb } from './statement-analysis.js';

/**
 * One SQLite statement, judged by SQLite alone (never by PostgreSQL's grammar: SQLite text is not
 * PostgreSQL, and parsing it so cost a WebAssembly parser per call). Keyword statements SQLite
 * calls read-only but riskgate does not whitelist (transactions, ATTACH, pragmas) first; then
 * SQLite's verdict on the prepared statement (`Statement.readonly`): on the open database, or —
 * without one — on an empty in-memory database where each table and column SQLite asks for is
 * stood in for, so the statement prepares as written. Every called function must be a SQLite
 * built-in riskgate vouches for; a write is described by its verb (what it changes, where).
 */
export async function analyzeSqliteStatement(
  text: SqlStatementText,
  database: BetterSqlite3.Database | undefined,
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
  // The schema as last read while the database has not changed (sqlite-schema-snapshot.ts).
  const snapshot = database === undefined ? undefined : schemaSnapshot(database);
  // What the open database says of this text is a function of the text and the snapshot alone: it is
  // worked out once per snapshot (a client repeating a query reads the schema for it once).
  const verdict =
    snapshot === undefined
      ? standInVerdict(text)
      : snapshot.memo(`verdict\u0000${text.text}`, () => openVerdict(snapshot, text));
  if ('error' in verdict) return withFunctions(unparsable(subject, text, verdict.error));
  if (verdict.readonly && (keyword === 'SELECT' || keyword === 'WITH' || keyword === 'VALUES')) {
    const secrets =
      snapshot === undefined
        ? []
        : snapshot.memo(`secrets\u0000${text.text}`, () => [
            ...sqliteSecretColumns(text, verdict.tables, snapshot),
            ...sqliteViewSecrets(snapshot, text.tokens),
            ...sqliteKeyValueSecrets(snapshot, text),
          ]);
    return withFunctions(statement(subject, [...reads(verdict.tables), ...secrets]));
  }
  if (verdict.readonly && keyword === 'EXPLAIN') {
    const inner = explainedStatement(text);
    const analysis = inner === undefined ? undefined : await analyzeSqliteStatement(inner, database);
    if (analysis !== undefined && isReadOnly(analysis)) return analysis;
    return statement(subject, [
      unknownEffect('EXPLAIN of a statement that writes: it only plans it, but is not on the whitelist'),
    ]);
  }
  // SQLite says it writes (or it is a read-only kind riskgate does not whitelist): say what it does.
  return withFunctions(sqliteWrite(text));
}

/** What a SQLite write changes, read from its tokens (SQLite's write statements are few and plain). */
function sqliteWrite(text: SqlStatementText): StatementAnalysis {
  const { tokens } = text;
  const keyword = leadingKeyword(text);
  if (keyword === 'DROP' && tokens[1] !== undefined) {
    const what = tokens[1].upper;
    let at = 2;
    if (tokens[at]?.upper === 'IF' && tokens[at + 1]?.upper === 'EXISTS') at += 2;
    const name = qualifiedName(tokens, at) ?? 'the object';
    return statement(text.normalized, [
      writeDb(
        'the schema',
        what === 'TABLE' ? `DROP TABLE removes ${name} and all its rows` : `DROP ${what} removes ${name}`,
        'high',
      ),
    ]);
  }
  const fallback = fallbackAnalysis(text);
  // A plain INSERT adds rows; INSERT OR REPLACE and REPLACE may replace them (the fallback says so).
  if (keyword === 'INSERT' && tokens[1]?.upper === 'INTO' && fallback.writeTarget !== undefined)
    return {
      ...fallback,
      effects: [writeDb(fallback.writeTarget, `INSERT adds rows to ${fallback.writeTarget}`)],
      relations: [fallback.writeTarget],
    };
  return fallback.writeTarget === undefined ? fallback : { ...fallback, relations: [fallback.writeTarget] };
}

/** `name` or `schema.name` at `at`, unquoted. */
function qualifiedName(tokens: readonly { kind: string; text: string }[], at: number): string | undefined {
  const first = tokens[at];
  if (first === undefined || (first.kind !== 'word' && first.kind !== 'quoted-identifier')) return undefined;
  const second = tokens[at + 2];
  return tokens[at + 1]?.text === '.' && second !== undefined
    ? `${unquote(first.text)}.${unquote(second.text)}`
    : unquote(first.text);
}

type Verdict = { readonly: boolean; tables: string[] } | { error: string };

/** SQLite's verdict on the open database, with the tables and views of it the statement names. */
function openVerdict(snapshot: SqliteSchemaSnapshot, text: SqlStatementText): Verdict {
  const prepared = snapshot.prepared(text.text);
  if (prepared instanceof Error) return { error: `SQLite cannot prepare it: ${prepared.message}` };
  const readonly = prepared.readonly;
  // Without sqlite_schema (an old SQLite) the statement's reads are "the database".
  const names = snapshot.relations ?? [];
  const byName = new Map(names.map((name) => [name.toLowerCase(), name]));
  const tables = text.tokens.flatMap((token) =>
    token.kind === 'word' || token.kind === 'quoted-identifier'
      ? (byName.get(unquote(token.text).toLowerCase()) ?? [])
      : [],
  );
  return { readonly, tables: [...new Set(tables)] };
}

/** Names SQLite may ask for before a statement prepares on an empty database. */
const MAX_STAND_INS = 64;

/**
 * Without a database: the statement prepared on an empty in-memory one, a stand-in table (or
 * column, or attached schema) made for each name SQLite reports missing, until it prepares.
 * Nothing is ever run there. The tables read are the ones SQLite asked for.
 */
function standInVerdict(text: SqlStatementText): Verdict {
  let Database: typeof BetterSqlite3;
  try {
    Database = requireDriver<typeof BetterSqlite3>('sqlite');
  } catch (error) {
    return { error: `cannot be checked without SQLite (${(error as Error).message})` };
  }
  // One shared in-memory database whose stand-ins are rolled back after each statement; a
  // statement that names another schema (ATTACH cannot run in a transaction) gets its own.
  scratchDatabase ??= new Database(':memory:');
  const shared = standInOn(scratchDatabase, text, true);
  if (shared !== 'needs-attach') return shared;
  const own = new Database(':memory:');
  try {
    const verdict = standInOn(own, text, false);
    return verdict === 'needs-attach' ? { error: 'cannot be checked without the database' } : verdict;
  } finally {
    own.close();
  }
}

let scratchDatabase: BetterSqlite3.Database | undefined;

function standInOn(
  scratch: BetterSqlite3.Database,
  text: SqlStatementText,
  rolledBack: boolean,
): Verdict | 'needs-attach' {
  const tables = new Map<string, string>();
  if (rolledBack) scratch.exec('BEGIN');
  try {
    for (let attempt = 0; attempt < MAX_STAND_INS; attempt++) {
      try {
        return { readonly: scratch.prepare(text.text).readonly, tables: [...tables.values()] };
      } catch (error) {
        const message = (error as Error).message;
        if (/syntax error|incomplete input|unrecognized token/i.test(message))
          return { error: `SQLite cannot parse it: ${message}` };
        const made = standIn(scratch, message, tables, text.tokens);
        if (made === 'needs-attach') return made;
        if (!made) return { error: `cannot be checked without the database (${message})` };
      }
    }
    return { error: 'cannot be checked without the database (it names too many objects)' };
  } finally {
    if (scratch.inTransaction) scratch.exec('ROLLBACK');
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Makes what SQLite's message says is missing; false when it cannot (the statement is then not vouched for). */
function standIn(
  scratch: BetterSqlite3.Database,
  message: string,
  tables: Map<string, string>,
  tokens: readonly Token[],
): boolean | 'needs-attach' {
  const qualified = (name: string) => {
    const dot = name.indexOf('.');
    return dot === -1 ? { schema: undefined, name } : { schema: name.slice(0, dot), name: name.slice(dot + 1) };
  };
  try {
    let match = /^no such (table|view): (.+)$/.exec(message);
    if (match !== null) {
      const { schema, name } = qualified(match[2]!);
      const where = schema === undefined ? '' : `${quote(schema)}.`;
      if (tables.has(`${schema ?? 'main'}.${name}`.toLowerCase())) return false;
      const attached = (scratch.prepare('SELECT name FROM pragma_database_list').all() as { name: string }[]).map(
        (row) => row.name.toLowerCase(),
      );
      if (schema !== undefined && !attached.includes(schema.toLowerCase())) {
        if (scratch.inTransaction) return 'needs-attach';
        scratch.exec(`ATTACH ':memory:' AS ${quote(schema)}`);
      }
      scratch.exec(
        match[1] === 'view'
          ? `CREATE VIEW ${where}${quote(name)} AS SELECT 1 AS stand_in`
          : `CREATE TABLE ${where}${quote(name)} (stand_in)`,
      );
      tables.set(`${schema ?? 'main'}.${name}`.toLowerCase(), schema === undefined ? name : `${schema}.${name}`);
      return true;
    }
    match = /^unknown database (.+)$/.exec(message);
    if (match !== null) {
      if (scratch.inTransaction) return 'needs-attach';
      scratch.exec(`ATTACH ':memory:' AS ${quote(match[1]!)}`);
      return true;
    }
    match = /^(?:no such column: |table (\S+) has no column named )(.+)$/.exec(message);
    if (match !== null) return addColumn(scratch, tables, tokens, match[1], match[2]!);
    match = /^cannot join using column (.+) - column not present in both tables$/.exec(message);
    if (match !== null) return addColumn(scratch, tables, tokens, '*', match[1]!);
    match = /^table (\S+) has (\d+) columns but (\d+) values were supplied$/.exec(message);
    if (match !== null) {
      for (let column = Number(match[2]); column < Number(match[3]); column++)
        scratch.exec(`ALTER TABLE ${quote(match[1]!)} ADD COLUMN ${quote(`stand_in_${column}`)}`);
      return true;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * A missing column: on the table it names (or the table its alias stands for, `orders o`), else
 * on the first stand-in table without it (an unqualified column), else on every one without it.
 */
function addColumn(
  scratch: BetterSqlite3.Database,
  tables: Map<string, string>,
  tokens: readonly Token[],
  table: string | undefined,
  reference: string,
): boolean {
  const dot = reference.lastIndexOf('.');
  const column = dot === -1 ? reference : reference.slice(dot + 1);
  // '*': every stand-in table (a USING column must be in both).
  const owner = table === '*' ? '*' : (table ?? (dot === -1 ? undefined : reference.slice(0, dot)));
  const all = [...tables.values()];
  const named = owner === undefined ? undefined : (ownerTable(all, tokens, owner) ?? undefined);
  const targets = named !== undefined ? [named] : all;
  let added = false;
  for (const target of targets) {
    // An unqualified column goes on one table at a time (the next one without it, when the first
    // was in another scope: `SELECT a FROM t UNION SELECT b FROM u`), never two at once (ambiguous).
    if (added && owner === undefined) break;
    const [schema, name] = target.includes('.') ? target.split('.', 2) : [undefined, target];
    const where = `${schema === undefined ? '' : `${quote(schema)}.`}${quote(name!)}`;
    const columns = scratch.prepare(`SELECT name FROM pragma_table_info(?${schema === undefined ? '' : ', ?'})`);
    const existing = (columns.all(...(schema === undefined ? [name] : [name, schema])) as { name: string }[]).map(
      (row) => row.name.toLowerCase(),
    );
    if (existing.includes(column.toLowerCase())) continue;
    scratch.exec(`ALTER TABLE ${where} ADD COLUMN ${quote(column)}`);
    added = true;
  }
  return added;
}

/** The stand-in table a qualifier names: the table itself, or the one its alias follows (`orders o`, `orders AS o`). */
function ownerTable(tables: readonly string[], tokens: readonly Token[], owner: string): string | undefined {
  const byName = (word: Token | undefined) =>
    word === undefined ? undefined : tables.find((name) => name.toLowerCase() === unquote(word.text).toLowerCase());
  const direct = tables.find((name) => name.toLowerCase() === owner.toLowerCase());
  if (direct !== undefined) return direct;
  for (const [at, token] of tokens.entries()) {
    if (unquote(token.text).toLowerCase() !== owner.toLowerCase()) continue;
    const table = tokens[at - 1]?.upper === 'AS' ? byName(tokens[at - 2]) : byName(tokens[at - 1]);
    if (table !== undefined) return table;
  }
  return undefined;
}

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
  snapshot: SqliteSchemaSnapshot,
): Effect[] {
  const words = new Set(text.tokens.map((token) => token.text.replace(/^["'`[]|["'`\]]$/g, '').toLowerCase()));
  // `*` reads every column too, but under their own names: the SQL tool withholds a credential
  // column's values from the result (withhold-columns.ts), so `SELECT * FROM users` still runs.
  const effects: Effect[] = [];
  // Tables the parse named, and any table of the database the statement names (SQLite syntax the
  // PostgreSQL grammar does not parse: `[Password]`).
  // Without sqlite_schema (an old SQLite): the parse's tables only.
  const named = (snapshot.mainRelations ?? []).filter((name) => words.has(name.toLowerCase()));
  for (const table of new Set([...tables, ...named])) {
    const name = table
      .split('.')
      .pop()!
      .replace(/^["'`[]|["'`\]]$/g, '');
    const columns = snapshot.columns(name)?.map((column) => column.name);
    if (columns === undefined) continue;
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

/**
 * SQLite views a statement names whose definition (sqlite_master.sql, the text as written)
 * names a credential column: `CREATE VIEW v AS SELECT pwd AS note FROM accounts` hands the
 * password out as `note`. Followed through views of views (4 levels).
 */
function sqliteViewSecrets(
  snapshot: SqliteSchemaSnapshot,
  tokens: readonly { kind: string; text: string }[],
): Effect[] {
  const views = snapshot.views;
  if (views === undefined || views.size === 0) return [];
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
function sqliteKeyValueSecrets(snapshot: SqliteSchemaSnapshot, text: SqlStatementText): Effect[] {
  const words = new Set(
    text.tokens.flatMap((token) =>
      token.kind === 'word' || token.kind === 'quoted-identifier'
        ? [(token.kind === 'word' ? token.text : unquote(token.text)).toLowerCase()]
        : [],
    ),
  );
  const star = text.tokens.some((token) => token.text === '*');
  const prepared = snapshot.prepared(text.text);
  if (prepared instanceof Error) return [];
  let origins: { column: string | null; table: string | null }[];
  try {
    origins = prepared.columns();
  } catch {
    return [];
  }
  const effects: Effect[] = [];
  // Each word as a table where SQLite would find it, and each `schema.table` in that schema (an
  // attached `x.cfg` beside a main `cfg`: the unqualified name reads main's keys only).
  const targets: { table: string; schema?: string }[] = [...words].map((table) => ({ table }));
  for (const [at, token] of text.tokens.entries()) {
    const [schema, name] = [text.tokens[at - 1], text.tokens[at + 1]];
    if (token.text !== '.' || schema === undefined || name === undefined) continue;
    if (![schema, name].every((part) => part.kind === 'word' || part.kind === 'quoted-identifier')) continue;
    // `alias.column` is no schema: only names the connection has (SQLite refuses an unknown one).
    if (!snapshot.schemas?.includes(unquote(schema.text).toLowerCase())) continue;
    targets.push({ schema: unquote(schema.text), table: unquote(name.text).toLowerCase() });
  }
  for (const { table, schema } of targets) {
    const columns = snapshot.columns(table, schema);
    if (columns === undefined) continue;
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
    const keys = snapshot.keys(table, key.name, schema);
    if (keys === undefined) continue;
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
