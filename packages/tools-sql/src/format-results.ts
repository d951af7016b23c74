import type { SchemaDescription } from './sql-connection.js';
import type { SqlFailure, SqlRunResult, StatementResult } from './sql-results.js';

const MAX_CELL = 200;

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** What the model reads: a compact table per statement, capped, with the cap stated. */
export function formatRunForModel(result: SqlRunResult, modelRows: number): string {
  const parts = result.statements.map((statement, index) => {
    const head = result.statements.length > 1 ? `-- statement ${index + 1}: ${statement.statement}\n` : '';
    return head + formatStatement(statement, modelRows);
  });
  const notice = result.notice === undefined ? '' : `${result.notice}\n`;
  return `${notice}${parts.join('\n\n')}\n(${Math.round(result.elapsedMs)} ms${result.readOnly ? ', read-only' : ''})`;
}

function formatStatement(statement: StatementResult, modelRows: number): string {
  if (statement.columns.length === 0) {
    return statement.affectedRows === null ? 'OK' : `OK, ${statement.affectedRows} ${statement.affectedRows === 1 ? 'row' : 'rows'} affected`;
  }
  const shown = statement.rows.slice(0, modelRows);
  const lines = [
    statement.columns.map((column) => column.name).join(' | '),
    ...shown.map((row) => row.map((cell) => clip(formatCell(cell))).join(' | ')),
  ];
  const kept = statement.rows.length;
  const total = statement.totalRows ?? kept;
  const cut = shown.reduce((count, row) => count + row.filter((cell) => formatCell(cell).replace(/\s+/g, ' ').length > MAX_CELL).length, 0);
  const cutNote = cut === 0 ? '' : `; ${cut} ${cut === 1 ? 'cell' : 'cells'} cut at ${MAX_CELL} characters`;
  if (kept === 0) lines.push('(no rows)');
  else if (shown.length < total || statement.truncated) {
    const of = statement.totalRows !== undefined ? total.toLocaleString('en-US') : `more than ${kept.toLocaleString('en-US')}`;
    lines.push(`(showing ${shown.length} of ${of} rows${cutNote})`);
  } else lines.push(`(${kept} ${kept === 1 ? 'row' : 'rows'}${cutNote})`);
  return lines.join('\n');
}

export function formatFailureForModel(failure: SqlFailure): string {
  const position = failure.position === undefined ? '' : ` (at character ${failure.position})`;
  return `${failure.code}: ${failure.message}${position}`;
}

export function formatSchemaForModel(schema: SchemaDescription): string {
  if (schema.tables.length === 0) return `${schema.dialect} database ${schema.database}: no tables`;
  return schema.tables
    .map((table) => {
      const about = schema.dialect === 'sqlite' ? (table.rowCountCapped ? 'more than ' : '') : '~';
      const rows = table.rowEstimate === null ? '' : `, ${about}${table.rowEstimate.toLocaleString('en-US')} rows`;
      const columns = table.columns.map((column) => `  ${column.name} ${column.type ?? ''}${column.primaryKey ? ' PRIMARY KEY' : ''}${column.nullable ? '' : ' NOT NULL'}`.trimEnd());
      const keys = table.foreignKeys.map((key) => `  FOREIGN KEY (${key.column}) REFERENCES ${key.references}`);
      const indexes = table.indexes.map((index) => `  ${index.unique ? 'UNIQUE ' : ''}INDEX ${index.name} (${index.columns.join(', ')})`);
      return [`${table.kind} ${table.name}${rows}`, ...columns, ...keys, ...indexes].join('\n');
    })
    .join('\n\n');
}
