/**
 * A small SQL tokenizer used to split a script into statements, to normalise statements for
 * rule matching, and to read leading keywords and called names. It follows each engine's own
 * lexical rules, because the statement boundaries it finds must be the ones the engine finds:
 *
 * - postgres: '…' (doubled quotes), E'…' (backslash escapes), $tag$…$tag$, "…", nested /* *\/, --.
 * - sqlite: '…', "…", `…`, […]; /* *\/ does NOT nest; --; no E'…', no dollar quoting.
 * - mysql: '…' and "…" with backslash escapes, `…`; `#` and `-- ` (dash dash SPACE) comments;
 *   /* *\/ does not nest; `/*! … *\/`, `/*!50700 … *\/` and `/*M! … *\/` are EXECUTED by the
 *   server, so their content is lexed as SQL; `/*+ … *\/` is an optimizer hint.
 */

export type TokenKind = 'word' | 'string' | 'quoted-identifier' | 'number' | 'symbol' | 'parameter';
export type LexDialect = 'postgres' | 'sqlite' | 'mysql';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** Upper-cased text for words; the text itself otherwise. */
  readonly upper: string;
  readonly start: number;
}

export interface SqlStatementText {
  /** The statement as written, without the separating semicolon. */
  readonly text: string;
  /** Comments removed, whitespace collapsed to single spaces outside quotes. */
  readonly normalized: string;
  readonly tokens: readonly Token[];
  readonly start: number;
}

export interface LexResult {
  readonly statements: readonly SqlStatementText[];
  /** An unterminated string, identifier or comment: the text cannot be trusted. */
  readonly error?: string;
}

export interface LexOptions {
  readonly dialect?: LexDialect;
  /** MySQL: backslash escapes in strings (on unless sql_mode has NO_BACKSLASH_ESCAPES). */
  readonly backslashEscapes?: boolean;
}

const WORD_START = /[\p{L}_]/u;
const WORD_PART = /[\p{L}\p{N}_$]/u;

export function lexSql(sql: string, options: LexOptions = {}): LexResult {
  return new Lexer(sql, options.dialect ?? 'postgres', options.backslashEscapes ?? true).run();
}

/** One pass over the text: `index` moves forward, tokens gather into statements at each top-level `;`. */
class Lexer {
  private readonly statements: SqlStatementText[] = [];
  private tokens: Token[] = [];
  private normalizedParts: string[] = [];
  private statementStart = 0;
  private error: string | undefined;
  /** MySQL: the end of the executable comment we are inside, or -1. */
  private executableEnd = -1;
  /** Normalised text keeps one space wherever the original had whitespace or a comment. */
  private lastEnd = -1;
  private index = 0;

  constructor(
    private readonly sql: string,
    private readonly dialect: LexDialect,
    private readonly mysqlEscapes: boolean,
  ) {}

  run(): LexResult {
    const { sql } = this;
    while (this.index < sql.length) {
      if (!this.skipTrivia()) this.index = this.token(sql[this.index]!, sql[this.index + 1]);
    }
    if (this.executableEnd !== -1) this.fail('unterminated executable comment');
    this.finish(sql.length);
    return this.error === undefined
      ? { statements: this.statements }
      : { statements: this.statements, error: this.error };
  }

  private fail(why: string): void {
    this.error ??= why;
  }

  private finish(end: number): void {
    if (this.tokens.length > 0) {
      this.statements.push({
        text: this.sql.slice(this.statementStart, end).trim(),
        normalized: this.normalizedParts.join(''),
        tokens: this.tokens,
        start: this.statementStart,
      });
    }
    this.tokens = [];
    this.normalizedParts = [];
  }

  private push(kind: TokenKind, start: number, end: number): void {
    const text = this.sql.slice(start, end);
    if (this.tokens.length === 0) this.statementStart = start;
    else if (start > this.lastEnd) this.normalizedParts.push(' ');
    this.tokens.push({ kind, text, upper: kind === 'word' ? text.toUpperCase() : text, start });
    this.normalizedParts.push(text);
    this.lastEnd = end;
  }

  private quoted(
    kind: TokenKind,
    start: number,
    quoteAt: number,
    quote: string,
    escapes: boolean,
    what: string,
  ): number {
    const end = scanQuoted(this.sql, quoteAt, quote, escapes);
    if (end === -1) {
      this.fail(`unterminated ${what}`);
      this.push(kind, start, this.sql.length);
      return this.sql.length;
    }
    this.push(kind, start, end);
    return end;
  }

  /** Whitespace, comments and the markers of MySQL's executable comments; false at a token. */
  private skipTrivia(): boolean {
    const { sql, dialect, index } = this;
    const char = sql[index]!;
    const next = sql[index + 1];
    if (this.executableEnd !== -1 && index === this.executableEnd) {
      this.index += 2;
      this.executableEnd = -1;
    } else if (/\s/.test(char)) {
      this.index++;
    } else if (char === '-' && next === '-' && (dialect !== 'mysql' || isMysqlDashCommentEnd(sql[index + 2]))) {
      this.index = lineEnd(sql, index);
    } else if (char === '#' && dialect === 'mysql') {
      this.index = lineEnd(sql, index);
    } else if (char === '/' && next === '*') {
      this.index = this.blockComment();
    } else return false;
    return true;
  }

  /** The end of a block comment at `index` (or, for MySQL's executable comments, where its SQL starts). */
  private blockComment(): number {
    const { sql, index } = this;
    if (this.dialect === 'sqlite') {
      // SQLite: the first */ ends the comment; an unterminated one runs to the end of the text.
      const end = sql.indexOf('*/', index + 2);
      return end === -1 ? sql.length : end + 2;
    }
    if (this.dialect !== 'mysql') {
      const end = nestedCommentEnd(sql, index);
      if (end !== -1) return end;
      this.fail('unterminated /* comment');
      return sql.length;
    }
    const end = sql.indexOf('*/', index + 2);
    const executable = /^\/\*(?:!|M!)(\d{5,6})?/.exec(sql.slice(index, index + 10));
    if (end === -1) {
      this.fail('unterminated /* comment');
      return sql.length;
    }
    if (executable !== null && this.executableEnd === -1) {
      // The server runs what is inside: lex it as SQL, and drop only the markers.
      this.executableEnd = end;
      if (sql.slice(index + executable[0].length, end).includes('/*'))
        this.fail('a comment inside an executable comment');
      return index + executable[0].length;
    }
    if (executable !== null) this.fail('nested executable comments');
    return end + 2;
  }

  /** The token at `index` (or the statement it ends); returns where the next one may start. */
  private token(char: string, next: string | undefined): number {
    const { sql, dialect, index } = this;
    if (char === ';') {
      if (this.executableEnd !== -1) this.fail('a statement separator inside an executable comment');
      // Inside a routine's or trigger's body a ';' separates the body's statements, not the script's.
      if (insideBody(this.tokens, dialect)) this.push('symbol', index, index + 1);
      else this.finish(index);
      return index + 1;
    }
    if (char === "'")
      return this.quoted('string', index, index, "'", dialect === 'mysql' && this.mysqlEscapes, 'string literal');
    if (
      dialect === 'postgres' &&
      (char === 'E' || char === 'e') &&
      next === "'" &&
      !WORD_PART.test(sql[index - 1] ?? ' ')
    )
      return this.quoted('string', index, index + 1, "'", true, 'string literal');
    if (char === '"')
      // MySQL reads "…" as a string (with escapes) unless ANSI_QUOTES; either way it is one token.
      return dialect === 'mysql'
        ? this.quoted('string', index, index, '"', this.mysqlEscapes, '" string')
        : this.quoted('quoted-identifier', index, index, '"', false, '" identifier');
    if (char === '`' && dialect !== 'postgres')
      return this.quoted('quoted-identifier', index, index, '`', false, '` identifier');
    if (char === '[' && dialect === 'sqlite' && isSqliteBracketIdentifier(this.tokens)) {
      const end = sql.indexOf(']', index);
      if (end === -1) {
        this.fail('unterminated [ identifier');
        return sql.length;
      }
      this.push('quoted-identifier', index, end + 1);
      return end + 1;
    }
    if (dialect === 'postgres' && char === '$' && /[A-Za-z_$]/.test(next ?? '') && dollarTag(sql, index) !== undefined)
      return this.dollarQuoted();
    return this.plainToken(char, next);
  }

  private dollarQuoted(): number {
    const { sql, index } = this;
    const tag = dollarTag(sql, index)!;
    const end = sql.indexOf(tag, index + tag.length);
    if (end === -1) {
      this.fail('unterminated dollar-quoted string');
      this.push('string', index, sql.length);
      return sql.length;
    }
    this.push('string', index, end + tag.length);
    return end + tag.length;
  }

  /** A parameter, a word, a number or a symbol. */
  private plainToken(char: string, next: string | undefined): number {
    const { index } = this;
    if (
      (char === '$' || char === '?' || char === ':' || char === '@') &&
      /[0-9A-Za-z_@]/.test(next ?? '') &&
      (char !== ':' || this.dialect === 'sqlite')
    )
      return this.span(index, /[0-9A-Za-z_@.$]/, 'parameter');
    if (WORD_START.test(char)) return this.span(index, WORD_PART, 'word');
    if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(next ?? '')))
      return this.span(index, /[0-9A-Za-z_.]/, 'number');
    this.push('symbol', index, index + 1);
    return index + 1;
  }

  /** A token of one character at `start` and every following one that matches `part`. */
  private span(start: number, part: RegExp, kind: TokenKind): number {
    let end = start + 1;
    while (end < this.sql.length && part.test(this.sql[end]!)) end++;
    this.push(kind, start, end);
    return end;
  }
}

/** MySQL: `--` starts a comment only when followed by whitespace, a control character or the end. */
function isMysqlDashCommentEnd(char: string | undefined): boolean {
  return char === undefined || /[\s\x00-\x1f]/.test(char);
}

function lineEnd(sql: string, index: number): number {
  const end = sql.indexOf('\n', index);
  return end === -1 ? sql.length : end + 1;
}

/** PostgreSQL: block comments nest. -1 when unterminated. */
function nestedCommentEnd(sql: string, start: number): number {
  let depth = 1;
  let cursor = start + 2;
  while (cursor < sql.length && depth > 0) {
    if (sql[cursor] === '/' && sql[cursor + 1] === '*') {
      depth++;
      cursor += 2;
    } else if (sql[cursor] === '*' && sql[cursor + 1] === '/') {
      depth--;
      cursor += 2;
    } else cursor++;
  }
  return depth > 0 ? -1 : cursor;
}

function scanQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let cursor = start + 1;
  while (cursor < sql.length) {
    const char = sql[cursor];
    if (backslashEscapes && char === '\\') {
      cursor += 2;
    } else if (char === quote) {
      if (sql[cursor + 1] === quote) cursor += 2;
      else return cursor + 1;
    } else cursor++;
  }
  return -1;
}

function dollarTag(sql: string, start: number): string | undefined {
  const match = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(start, start + 64));
  return match?.[0];
}

/** `[name]` quotes an identifier in SQLite; after an expression it is an array subscript. */
function isSqliteBracketIdentifier(tokens: readonly { kind: TokenKind; text: string }[]): boolean {
  const previous = tokens.at(-1);
  if (previous === undefined) return true;
  if (previous.kind === 'symbol') return previous.text !== ')' && previous.text !== ']';
  return previous.kind === 'word';
}

/** The first word of a statement, upper-cased, or '' when it starts otherwise. */
/**
 * Whether the statement so far is a CREATE whose body is still open: PostgreSQL's
 * `CREATE FUNCTION|PROCEDURE … BEGIN ATOMIC … END`, SQLite's `CREATE TRIGGER … BEGIN … END`,
 * MySQL's routines, triggers and events (`BEGIN … END` blocks, nested). The body's own `CASE …
 * END` (and MySQL's `END CASE`) close what they opened; MySQL's `END IF|LOOP|WHILE|REPEAT` close
 * constructs that never counted. As psql and the mysql client read a script, so that a script is
 * sent in the pieces the server parses (a BEGIN ATOMIC body sent in four pieces failed).
 */
function insideBody(tokens: readonly Token[], dialect: LexDialect): boolean {
  if (tokens[0]?.upper !== 'CREATE') return false;
  let depth = 0;
  let opened = false;
  for (let index = 1; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind !== 'word') continue;
    const next = tokens[index + 1];
    const nextWord = next?.kind === 'word' ? next.upper : undefined;
    if (!opened) {
      if (token.upper !== 'BEGIN') continue;
      if (dialect === 'postgres' && nextWord !== 'ATOMIC') continue;
      opened = true;
      depth = 1;
      if (dialect === 'postgres') index++;
      continue;
    }
    if (depth === 0) return false;
    if (token.upper === 'BEGIN' && dialect === 'mysql') depth++;
    else if (token.upper === 'CASE') depth++;
    else if (token.upper === 'END') {
      if (dialect === 'mysql' && nextWord !== undefined && ['IF', 'LOOP', 'WHILE', 'REPEAT'].includes(nextWord)) {
        index++;
        continue;
      }
      depth--;
      if (nextWord === 'CASE') index++;
    }
  }
  return opened && depth > 0;
}

export function leadingKeyword(statement: SqlStatementText): string {
  const first = statement.tokens[0];
  return first?.kind === 'word' ? first.upper : '';
}

/** Names called as functions anywhere in the statement (`name (`), lower-cased, without schema. */
export function calledFunctions(statement: SqlStatementText): string[] {
  const names: string[] = [];
  const { tokens } = statement;
  for (let index = 0; index + 1 < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1]!;
    if ((token.kind === 'word' || token.kind === 'quoted-identifier') && next.text === '(') {
      names.push(unquote(token.text).toLowerCase());
    }
  }
  return names;
}

export function unquote(identifier: string): string {
  const first = identifier[0];
  if ((first === '"' || first === '`') && identifier.endsWith(first)) {
    return identifier.slice(1, -1).replaceAll(first + first, first);
  }
  if (first === '[' && identifier.endsWith(']')) return identifier.slice(1, -1);
  return identifier;
}

/**
 * `name (` that is not a call: a table's column list (INSERT INTO t (a), CREATE TABLE t (…),
 * REFERENCES t (id)) or a CTE's (WITH x (a) AS …).
 */
export function isColumnList(tokens: readonly Token[], index: number): boolean {
  const previous = tokens[index - 1]?.upper ?? '';
  if (
    ['INTO', 'TABLE', 'REFERENCES', 'INDEX', 'VIEW', 'TRIGGER', 'KEY', 'WITH', 'RECURSIVE', 'EXISTS'].includes(previous)
  )
    return true;
  let depth = 0;
  for (let cursor = index + 1; cursor < tokens.length; cursor++) {
    const text = tokens[cursor]!.text;
    if (text === '(') depth++;
    // A CTE's column list: `x (a, b) AS (…)`. A call with an alias (`f() AS x`) is still a call.
    else if (text === ')' && --depth === 0)
      return (
        tokens[cursor + 1]?.upper === 'AS' && ['(', 'MATERIALIZED', 'NOT'].includes(tokens[cursor + 2]?.upper ?? '')
      );
  }
  return false;
}
