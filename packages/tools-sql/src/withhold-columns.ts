import { isSecretColumnName, withheldMarker } from '@riskgate/risk';
import type { SqlRunResult, StatementResult } from './sql-results.js';

/**
 * The values the SQL tool itself knows to be secret, withheld from the model's copy of a result
 * that ran unasked: a credential column's values (`SELECT *` of a users table brings
 * `encrypted_password`), and the other cells of a key/value row whose key names a credential
 * (`smtp_password | Zq7m…`). A statement that names such a column is asked before it runs
 * (secretColumnReads); this covers what no statement text names. The person sees the original.
 */
export function withholdSecretColumns(result: SqlRunResult): { readonly result: SqlRunResult; readonly withheld: readonly string[] } | undefined {
  const withheld = new Set<string>();
  const statements = result.statements.map((statement) => withholdIn(statement, withheld));
  return withheld.size === 0 ? undefined : { result: { ...result, statements }, withheld: [...withheld] };
}

function withholdIn(statement: StatementResult, withheld: Set<string>): StatementResult {
  if (statement.columns.length === 0) return statement;
  const secretColumns = new Set(statement.columns.flatMap((column, index) => (isSecretColumnName(column.name) ? [index] : [])));
  let changed = false;
  const rows = statement.rows.map((row) => {
    // A key/value row: a text cell that is a credential's name makes the row's other text cells its value.
    const keyAt = row.findIndex((cell, index) => !secretColumns.has(index) && typeof cell === 'string' && /^[A-Za-z][\w.-]{1,63}$/.test(cell) && isSecretColumnName(cell));
    if (secretColumns.size === 0 && keyAt === -1) return row;
    return row.map((cell, index) => {
      const what = secretColumns.has(index)
        ? `the values of the column ${statement.columns[index]!.name}`
        : keyAt !== -1 && index !== keyAt && isValueLike(cell)
          ? `the value of ${String(row[keyAt])}`
          : undefined;
      if (what === undefined || cell === null || cell === '') return cell;
      withheld.add(what);
      changed = true;
      return withheldMarker(what);
    });
  });
  return changed ? { ...statement, rows } : statement;
}

/** A cell that can hold a credential: text or bytes, not a number, flag or date the row also carries. */
function isValueLike(cell: unknown): boolean {
  if (typeof cell === 'string') return cell.length >= 4 && !/^\d{4}-\d\d-\d\d/.test(cell) && !/^(true|false|yes|no|on|off)$/i.test(cell);
  return cell instanceof Uint8Array;
}
