import { keywordEffect } from './postgres-analysis.js';
import { leadingKeyword, type SqlStatementText } from './sql-lexer.js';
import { type StatementAnalysis, statement, unknownEffect } from './statement-analysis.js';

/** A statement no grammar could read: why, and its verb's effect (never a read). */
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
  const { keyword, at } = statementVerb(text);
  const hasWhere = text.tokens.slice(at).some((token) => token.upper === 'WHERE');
  const after = keyword === 'DELETE' ? 'FROM' : keyword === 'UPDATE' || keyword === 'TRUNCATE' ? keyword : 'INTO';
  const table = tableAfter(text, after, at);
  const { effect, writeTarget } = keywordEffect(keyword, text.normalized, table, hasWhere);
  return statement(text.normalized, [effect], writeTarget === undefined ? {} : { writeTarget, previewable: true });
}

/** The leading keyword; for `WITH … AS (…) DELETE …`, the verb after the common table expressions. */
function statementVerb(text: SqlStatementText): { keyword: string; at: number } {
  const keyword = leadingKeyword(text);
  if (keyword !== 'WITH') return { keyword, at: 0 };
  let depth = 0;
  for (const [at, token] of text.tokens.entries()) {
    if (token.text === '(') depth++;
    else if (token.text === ')') depth--;
    else if (depth === 0 && ['SELECT', 'VALUES', 'INSERT', 'UPDATE', 'DELETE', 'REPLACE'].includes(token.upper))
      return { keyword: token.upper, at };
  }
  return { keyword, at: 0 };
}

function tableAfter(text: SqlStatementText, keyword: string, from = 0): string {
  const tokens = text.tokens;
  let index = tokens.findIndex((token, at) => at >= from && token.upper === keyword);
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
      'TABLE',
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
