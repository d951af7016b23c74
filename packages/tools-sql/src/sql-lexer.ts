/**
 * A small SQL tokenizer used only to split a script into statements, to normalise statements
 * for rule matching, and to read leading keywords. It never decides that something is safe:
 * verdicts come from libpg-query's PostgreSQL parser and from SQLite's own prepared statements.
 * It knows the quoting of every dialect we speak: '…', "…", `…`, […], $tag$…$tag$, E'…',
 * and -- and nested /* … *\/ comments.
 */

export type TokenKind = 'word' | 'string' | 'quoted-identifier' | 'number' | 'symbol' | 'parameter';

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

const WORD_START = /[\p{L}_]/u;
const WORD_PART = /[\p{L}\p{N}_$]/u;

export function lexSql(sql: string): LexResult {
  const statements: SqlStatementText[] = [];
  let tokens: Token[] = [];
  let normalizedParts: string[] = [];
  let statementStart = 0;
  let error: string | undefined;

  const finish = (end: number) => {
    if (tokens.length > 0) {
      statements.push({
        text: sql.slice(statementStart, end).trim(),
        normalized: normalizedParts.join(''),
        tokens,
        start: statementStart,
      });
    }
    tokens = [];
    normalizedParts = [];
  };
  // Normalised text keeps one space wherever the original had whitespace or a comment.
  let lastEnd = -1;
  const push = (kind: TokenKind, start: number, end: number) => {
    const text = sql.slice(start, end);
    if (tokens.length === 0) statementStart = start;
    else if (start > lastEnd) normalizedParts.push(' ');
    tokens.push({ kind, text, upper: kind === 'word' ? text.toUpperCase() : text, start });
    normalizedParts.push(text);
    lastEnd = end;
  };

  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    const next = sql[index + 1];
    if (/\s/.test(char)) {
      index++;
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && next === '*') {
      // PostgreSQL nests block comments; SQLite does not, but nesting only ever hides more.
      let depth = 1;
      let cursor = index + 2;
      while (cursor < sql.length && depth > 0) {
        if (sql[cursor] === '/' && sql[cursor + 1] === '*') {
          depth++;
          cursor += 2;
        } else if (sql[cursor] === '*' && sql[cursor + 1] === '/') {
          depth--;
          cursor += 2;
        } else cursor++;
      }
      if (depth > 0) {
        error ??= 'unterminated /* comment';
      }
      index = cursor;
    } else if (char === ';') {
      finish(index);
      index++;
    } else if (char === "'" || ((char === 'E' || char === 'e') && next === "'")) {
      const quoteAt = char === "'" ? index : index + 1;
      const escapes = quoteAt !== index;
      const end = scanQuoted(sql, quoteAt, "'", escapes);
      if (end === -1) {
        error ??= 'unterminated string literal';
        push('string', index, sql.length);
        index = sql.length;
      } else {
        push('string', index, end);
        index = end;
      }
    } else if (char === '"' || char === '`') {
      const end = scanQuoted(sql, index, char, false);
      if (end === -1) {
        error ??= `unterminated ${char} identifier`;
        push('quoted-identifier', index, sql.length);
        index = sql.length;
      } else {
        push('quoted-identifier', index, end);
        index = end;
      }
    } else if (char === '[' && isSqliteBracketIdentifier(tokens)) {
      const end = sql.indexOf(']', index);
      if (end === -1) {
        error ??= 'unterminated [ identifier';
        index = sql.length;
      } else {
        push('quoted-identifier', index, end + 1);
        index = end + 1;
      }
    } else if (char === '$' && /[A-Za-z_$]/.test(next ?? '') && dollarTag(sql, index) !== undefined) {
      const tag = dollarTag(sql, index)!;
      const end = sql.indexOf(tag, index + tag.length);
      if (end === -1) {
        error ??= 'unterminated dollar-quoted string';
        push('string', index, sql.length);
        index = sql.length;
      } else {
        push('string', index, end + tag.length);
        index = end + tag.length;
      }
    } else if ((char === '$' || char === '?' || char === ':' || char === '@') && /[0-9A-Za-z_]/.test(next ?? '') && char !== ':') {
      let end = index + 1;
      while (end < sql.length && /[0-9A-Za-z_]/.test(sql[end]!)) end++;
      push('parameter', index, end);
      index = end;
    } else if (WORD_START.test(char)) {
      let end = index + 1;
      while (end < sql.length && WORD_PART.test(sql[end]!)) end++;
      push('word', index, end);
      index = end;
    } else if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(next ?? ''))) {
      let end = index + 1;
      while (end < sql.length && /[0-9A-Za-z_.]/.test(sql[end]!)) end++;
      push('number', index, end);
      index = end;
    } else {
      push('symbol', index, index + 1);
      index++;
    }
  }
  finish(sql.length);
  return error === undefined ? { statements } : { statements, error };
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
function isSqliteBracketIdentifier(tokens: readonly Token[]): boolean {
  const previous = tokens.at(-1);
  if (previous === undefined) return true;
  if (previous.kind === 'symbol') return previous.text !== ')' && previous.text !== ']';
  return previous.kind === 'word';
}

/** The first word of a statement, upper-cased, or '' when it starts otherwise. */
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
