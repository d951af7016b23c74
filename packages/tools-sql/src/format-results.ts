import type { SchemaDescription } from './sql-connection.js';
import type { SqlFailure, SqlRunResult, StatementResult } from './sql-results.js';

const MAX_CELL = 200;
/** Columns the model reads of one result: a 1,600-column result sent 516k characters. */
export const MAX_MODEL_COLUMNS = 50;
/** Characters of one statement's table the model reads; rows after this are counted, not sent. */
export const MAX_MODEL_TABLE_CHARS = 30_000;

/**
 * A value as one text, for the model's table and the screen's. SQL NULL is `NULL`; a text that
 * reads as NULL (the string 'NULL', any case) is quoted, so the two are never the same words.
 */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string' && /^null$/i.test(value)) return `'${value}'`;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function clip(flat: string): string {
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
    return statement.affectedRows === null
      ? 'OK'
      : `OK, ${statement.affectedRows} ${statement.affectedRows === 1 ? 'row' : 'rows'} affected`;
  }
  const columns = statement.columns.slice(0, MAX_MODEL_COLUMNS);
  const lines = [columns.map((column) => clip(column.name.replace(/\s+/g, ' '))).join(' | ')];
  // Rows until the row cap or the character budget, whichever comes first.
  let used = lines[0]!.length;
  let cut = 0;
  let shownRows = 0;
  let overBudget = false;
  for (const row of statement.rows.slice(0, modelRows)) {
    const texts = row.slice(0, MAX_MODEL_COLUMNS).map((cell) => formatCell(cell).replace(/\s+/g, ' '));
    const line = texts.map(clip).join(' | ');
    if (used + line.length + 1 > MAX_MODEL_TABLE_CHARS && shownRows > 0) {
      overBudget = true;
      break;
    }
    cut += texts.filter((text) => text.length > MAX_CELL).length;
    lines.push(line);
    used += line.length + 1;
    shownRows += 1;
  }
  const kept = statement.rows.length;
  const total = statement.totalRows ?? kept;
  const notes = [
    ...(cut === 0 ? [] : [`${cut} ${cut === 1 ? 'cell' : 'cells'} cut at ${MAX_CELL} characters`]),
    ...(columns.length < statement.columns.length
      ? [
          `${columns.length} of ${statement.columns.length.toLocaleString('en-US')} columns shown; select the columns you need`,
        ]
      : []),
    ...(overBudget ? [`rows stopped at ${MAX_MODEL_TABLE_CHARS.toLocaleString('en-US')} characters`] : []),
  ];
  const cutNote = notes.map((note) => `; ${note}`).join('');
  if (kept === 0) lines.push(`(no rows${cutNote})`);
  else if (shownRows < total || statement.truncated) {
    const of =
      statement.totalRows !== undefined ? total.toLocaleString('en-US') : `more than ${kept.toLocaleString('en-US')}`;
    lines.push(`(showing ${shownRows} of ${of} rows${cutNote})`);
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
      const columns = table.columns.map((column) =>
        `  ${column.name} ${column.type ?? ''}${column.primaryKey ? ' PRIMARY KEY' : ''}${column.nullable ? '' : ' NOT NULL'}`.trimEnd(),
      );
      const keys = table.foreignKeys.map((key) => `  FOREIGN KEY (${key.column}) REFERENCES ${key.references}`);
      const indexes = table.indexes.map(
        (index) => `  ${index.unique ? 'UNIQUE ' : ''}INDEX ${index.name} (${index.columns.join(', ')})`,
      );
      return [`${table.kind} ${table.name}${rows}`, ...columns, ...keys, ...indexes].join('\n');
    })
    .join('\n\n');
}

/**
 * Column types the drivers report for numbers (PostgreSQL's pg_type names, MySQL's and SQLite's
 * declared types). Their values may arrive as strings (int8, numeric, DECIMAL keep their digits).
 */
const NUMERIC_TYPES =
  /^(int|int2|int4|int8|integer|smallint|mediumint|tinyint|bigint|numeric|decimal|newdecimal|real|float|float4|float8|double|double precision|money|oid|year)\b/i;

/**
 * Whether a result column holds numbers, as the driver says it: every value that is not NULL is
 * a JavaScript number or bigint, or a text of digits in a column the engine typed as numeric.
 * Never guessed from the text alone: '00123' in a TEXT column is a code, not a number.
 */
export function isNumericColumn(type: string | null | undefined, values: readonly unknown[]): boolean {
  const numericType = type !== null && type !== undefined && NUMERIC_TYPES.test(type.trim());
  let seen = false;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    seen = true;
    if (typeof value === 'number' || typeof value === 'bigint') continue;
    if (
      numericType &&
      typeof value === 'string' &&
      /^[-+]?(\d[\d,]*)?(\.\d+)?(e[-+]?\d+)?$|^[-+]?(Infinity|NaN)$/i.test(value.trim())
    )
      continue;
    return false;
  }
  return seen;
}
