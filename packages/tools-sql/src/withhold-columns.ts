import { isSecretColumnName, isSecretKeyName, withheldMarker } from '@riskgate/risk';
import type { SqlRunResult, StatementResult } from './sql-results.js';

/**
 * The values the SQL tool itself knows to be secret, withheld from the model's copy of a result
 * that ran unasked: a credential column's values (`SELECT *` of a users table brings
 * `encrypted_password`), and the other cells of a key/value row whose key names a credential
 * (`smtp_password | Zq7m…`). A statement that names such a column is asked before it runs
 * (secretColumnReads); this covers what no statement text names. The person sees the original.
 */
export function withholdSecretColumns(
  result: SqlRunResult,
): { readonly result: SqlRunResult; readonly withheld: readonly string[] } | undefined {
  const withheld = new Set<string>();
  const statements = result.statements.map((statement) => withholdIn(statement, withheld));
  return withheld.size === 0 ? undefined : { result: { ...result, statements }, withheld: [...withheld] };
}

function withholdIn(statement: StatementResult, withheld: Set<string>): StatementResult {
  if (statement.columns.length === 0) return statement;
  const secretColumns = new Set(
    statement.columns.flatMap((column, index) => (isSecretColumnName(column.name) ? [index] : [])),
  );
  // A result describing the schema (a row per column: name 'password', type 'TEXT'): only its
  // type and default cells can carry a value, and only when they look like one.
  const schema = describesSchema(statement);
  let changed = false;
  const rows = statement.rows.map((row) => {
    // A key/value row: a text cell that is a credential's name makes the row's other text cells its value.
    const keyAt = row.findIndex(
      (cell, index) => !secretColumns.has(index) && typeof cell === 'string' && isSecretKeyName(cell),
    );
    // A cell past the named columns (a row of a statement prepared again under a changed schema)
    // has no name to judge it by: withheld.
    const unnamed = row.length > statement.columns.length;
    if (secretColumns.size === 0 && keyAt === -1 && !unnamed) return row;
    return row.map((cell, index) => {
      const what = secretColumns.has(index)
        ? `the values of the column ${statement.columns[index]!.name}`
        : index >= statement.columns.length
          ? 'the values of a column the result does not name'
          : keyAt !== -1 && index !== keyAt && (schema === undefined || schema.has(index)) && isValueLike(cell)
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

/**
 * A cell that can hold a credential: bytes, or text with no whitespace that has a digit or a
 * symbol or is 12 characters or more — not a date, a flag or an SQL type name (`TEXT`,
 * `varchar(255)`), which a row describing a `password` column carries.
 */
function isValueLike(cell: unknown): boolean {
  if (cell instanceof Uint8Array) return true;
  if (typeof cell !== 'string') return false;
  if (cell.length < 4 || /\s/.test(cell) || !(/[^A-Za-z]/.test(cell) || cell.length >= 12)) return false;
  return !/^\d{4}-\d\d-\d\d/.test(cell) && !/^(true|false|yes|no|on|off)$/i.test(cell) && !isSqlTypeName(cell);
}

const TYPE_WORDS = new Set(
  `text varchar char character varying nchar nvarchar clob string int integer int2 int4 int8 bigint smallint tinyint mediumint serial
  bigserial smallserial real float float4 float8 double precision numeric decimal number boolean bool bit varbit blob tinyblob
  mediumblob longblob binary varbinary bytea date time timestamp timestamptz timetz datetime year interval with without zone json jsonb
  xml uuid inet cidr macaddr money tinytext mediumtext longtext enum set oid name citext tsvector tsquery point any unsigned zerofill
  signed`.split(/\s+/),
);

/** `TEXT`, `varchar(255)`, `character varying`, `int(11) unsigned`, `numeric(10,2)`, `text[]`. */
export function isSqlTypeName(cell: string): boolean {
  const words = cell
    .toLowerCase()
    .replace(/\([\d\s,]*\)/g, ' ')
    .replaceAll('[]', ' ')
    .trim()
    .split(/[\s_]+/);
  return words.length > 0 && words.every((word) => TYPE_WORDS.has(word));
}

/** Columns a schema-describing result shows, by source; `undefined` when the result is not one. */
const SCHEMA_SOURCES: readonly { text: RegExp; columns: ReadonlySet<string>; values: ReadonlySet<string> }[] = [
  {
    text: /\bpragma_table_x?info\b|^\s*pragma\s+(\w+\.)?table_x?info\b/i,
    columns: new Set(['cid', 'name', 'type', 'notnull', 'dflt_value', 'pk', 'hidden']),
    values: new Set(['type', 'dflt_value']),
  },
  {
    text: /\binformation_schema\s*\.\s*"?columns\b/i,
    columns: new Set([
      'table_catalog',
      'table_schema',
      'table_name',
      'column_name',
      'ordinal_position',
      'column_default',
      'is_nullable',
      'data_type',
      'character_maximum_length',
      'character_octet_length',
      'numeric_precision',
      'numeric_precision_radix',
      'numeric_scale',
      'datetime_precision',
      'interval_type',
      'interval_precision',
      'character_set_catalog',
      'character_set_schema',
      'character_set_name',
      'collation_catalog',
      'collation_schema',
      'collation_name',
      'domain_catalog',
      'domain_schema',
      'domain_name',
      'udt_catalog',
      'udt_schema',
      'udt_name',
      'scope_catalog',
      'scope_schema',
      'scope_name',
      'maximum_cardinality',
      'dtd_identifier',
      'is_self_referencing',
      'is_identity',
      'identity_generation',
      'identity_start',
      'identity_increment',
      'identity_maximum',
      'identity_minimum',
      'identity_cycle',
      'is_generated',
      'generation_expression',
      'is_updatable',
      'column_type',
      'column_key',
      'extra',
      'privileges',
      'column_comment',
      'is_system_time_period_start',
      'is_system_time_period_end',
      'srs_id',
    ]),
    values: new Set([
      'column_default',
      'data_type',
      'column_type',
      'udt_name',
      'generation_expression',
      'column_comment',
    ]),
  },
  {
    text: /^\s*(describe|desc|explain|show\s+(full\s+)?(columns|fields))\b/i,
    columns: new Set(['field', 'type', 'null', 'key', 'default', 'extra', 'collation', 'privileges', 'comment']),
    values: new Set(['type', 'default', 'comment']),
  },
];

/** When every column of the result is one a schema source shows: the indexes of its type and default columns. */
function describesSchema(statement: StatementResult): ReadonlySet<number> | undefined {
  for (const source of SCHEMA_SOURCES) {
    const names = statement.columns.map((column) => column.name.toLowerCase());
    if (!source.text.test(statement.statement) || !names.every((name) => source.columns.has(name))) continue;
    return new Set(names.flatMap((name, index) => (source.values.has(name) ? [index] : [])));
  }
  return undefined;
}
