import { type Effect, isSecretColumnName, isSecretKeyName, type SqlDialect } from '@riskgate/risk';
import { lexSql, unquote } from './sql-lexer.js';

/**
 * A statement that names a credential column (`password`, `api_key`, `"refreshToken"`) or looks
 * a key/value table up by a secret key (`WHERE key = 'smtp_password'`) reads secrets, whatever
 * the rest of it does: `SELECT email || password`, `hex(password)`, `password AS p` or
 * `WHERE password LIKE 'a%'` carry the value out under another name, where no guard of the
 * result could see it. `SELECT *` names no column: its result is guarded by column (the output
 * guard withholds a secret column's values).
 */
export function secretColumnReads(sql: string, dialect: SqlDialect): Effect[] {
  // A pure function of the text: a client repeating a statement has it lexed here once.
  const key = `${dialect}\u0000${sql}`;
  const kept = KEPT.get(key);
  if (kept !== undefined) return [...kept];
  const found = readSecretColumns(sql, dialect);
  if (sql.length > MAX_KEPT_LENGTH) return found;
  if (KEPT.size >= MAX_KEPT) KEPT.delete(KEPT.keys().next().value!);
  KEPT.set(key, Object.freeze(found.map((effect) => Object.freeze(effect))));
  return [...found];
}

/** Statements whose answer is kept (by dialect and text), the oldest dropped first. */
const MAX_KEPT = 128;
/** Only texts this long are kept: a bound on the memory the kept texts take. */
const MAX_KEPT_LENGTH = 8_192;
const KEPT = new Map<string, readonly Effect[]>();

function readSecretColumns(sql: string, dialect: SqlDialect): Effect[] {
  const lexDialect = dialect === 'mysql' ? 'mysql' : dialect === 'sqlite' ? 'sqlite' : 'postgres';
  const names = new Map<string, string>();
  for (const text of lexSql(sql, { dialect: lexDialect }).statements) {
    for (const token of text.tokens) {
      if (token.kind === 'word' || token.kind === 'quoted-identifier') {
        const name = token.kind === 'word' ? token.text : unquote(token.text);
        if (isSecretColumnName(name)) names.set(name, `the column ${name}`);
      } else if (token.kind === 'string') {
        const value = token.text.replace(/^[A-Za-z]*['"]/, '').replace(/['"]$/, '');
        if (isSecretKeyName(value)) names.set(value, `the value named '${value}'`);
      }
    }
  }
  return [...names.values()].map((object) => ({
    kind: 'read-db',
    object,
    secret: 'a credential: its values are secrets',
  }));
}
