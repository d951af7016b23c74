/**
 * Walks libpg-query's tree and collects everything that can run code or read a relation, in
 * every place PostgreSQL allows it: calls (plain, qualified, in FROM, in defaults), attribute
 * notation (`(1234).pg_terminate_backend`, `f.pg_read_file`), operators, casts and relations.
 */

import type { Node } from './pg-node.js';
import { SIZED_FUNCTIONS, type SizedCall } from './pg-sizes.js';

export type { Node } from './pg-node.js';

export interface FunctionUse {
  readonly name: string;
  readonly schema?: string;
  /** The first argument when it is a string literal (a path, a setting name). */
  readonly literal?: string;
}

export interface RelationUse {
  readonly schema?: string;
  readonly name: string;
}

export interface Findings {
  readonly dml: { kind: string; node: Node }[];
  readonly functions: FunctionUse[];
  /** Names used after a dot on a value or row: a one-argument function call when no column has that name. */
  readonly attributes: string[];
  readonly operators: { name: string; schema?: string }[];
  readonly types: { name: string; schema?: string }[];
  readonly relations: RelationUse[];
  readonly sampleMethods: string[];
  /**
   * Whole rows used as a value — `SELECT u FROM users u`, `u::text`, `array_agg(u)`, `ROW(u.*)`:
   * every column of the row (a credential column among them) under no column name.
   */
  readonly wholeRows: string[];
  /** Calls whose size is an argument (repeat, lpad, generate_series…): see pg-sizes.ts. */
  readonly sizedCalls: SizedCall[];
  /** Every column name referred to (the last part of a ColumnRef). */
  readonly columnNames: string[];
  /** A `*` anywhere, or a row turned into JSON: columns read without being named. */
  unnamedColumns: boolean;
  into: boolean;
  locking: boolean;
}

const DML = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/** Functions that turn a whole row into JSON with its column names as keys. */
const JSON_OF_ROWS = new Set([
  'row_to_json',
  'to_json',
  'to_jsonb',
  'json_agg',
  'jsonb_agg',
  'json_agg_strict',
  'jsonb_agg_strict',
]);

function strings(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((item) => (item as { String?: { sval?: string } }).String?.sval)
    .filter((part): part is string => part !== undefined);
}

function qualified(parts: readonly string[]): { name: string; schema?: string } {
  const name = parts.at(-1) ?? '';
  const schema = parts.length > 1 ? parts.at(-2) : undefined;
  return schema === undefined ? { name } : { name, schema };
}

/** `nested`: the tree is a view's definition, read by an outer query as a subquery would be. */
/** What the walk gathers beside the findings, to tell whole-row reads from column reads at the end. */
interface Walk {
  readonly findings: Findings;
  /** Names a bare column reference may mean a whole row by: relations, their aliases, subqueries and CTEs. */
  readonly rowNames: Set<string>;
  readonly bareReferences: string[];
  readonly columnAccesses: string[];
  readonly keyedStars: Set<string>;
}

export function inspect(root: unknown, nested = false): Findings {
  const walk: Walk = {
    findings: {
      dml: [],
      functions: [],
      attributes: [],
      operators: [],
      types: [],
      relations: [],
      sampleMethods: [],
      wholeRows: [],
      sizedCalls: [],
      columnNames: [],
      unnamedColumns: false,
      into: false,
      locking: false,
    },
    rowNames: new Set<string>(),
    bareReferences: [],
    columnAccesses: [],
    keyedStars: new Set<string>(),
  };
  visit(walk, root, undefined, undefined, undefined, nested);
  return finish(walk);
}

/** One node of the tree and everything under it. `grand` is the key above `outer`; `nested` is true inside a subquery, CTE or sublink. */
function visit(walk: Walk, value: unknown, key: string | undefined, outer?: string, grand?: string, nested = false) {
  if (Array.isArray(value)) {
    for (const item of value) visit(walk, item, undefined, key, outer, nested);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Node;
  const { findings } = walk;
  switch (key) {
    case 'InsertStmt':
    case 'UpdateStmt':
    case 'DeleteStmt':
    case 'MergeStmt':
      findings.dml.push({ kind: key, node });
      break;
    case 'FuncCall':
      onFunctionCall(walk, node, outer, grand, nested);
      break;
    case 'ColumnRef':
      onColumnReference(walk, node, outer);
      break;
    case 'alias':
      // A relation's or subquery's alias names its stored rows; a function's alias its output.
      if ((outer === 'RangeVar' || outer === 'RangeSubselect') && typeof node.aliasname === 'string')
        walk.rowNames.add(node.aliasname);
      break;
    case 'CommonTableExpr':
      if (typeof node.ctename === 'string') walk.rowNames.add(node.ctename);
      break;
    case 'A_Indirection':
      onIndirection(walk, node);
      break;
    case 'A_Expr':
      // BETWEEN is spelled as its keyword in the tree; it runs >= and <=.
      if (String(node.kind).includes('BETWEEN')) findings.operators.push({ name: '>=' }, { name: '<=' });
      else if (Array.isArray(node.name)) findings.operators.push(qualified(strings(node.name)));
      break;
    case 'SortBy':
      if (Array.isArray(node.useOp)) findings.operators.push(qualified(strings(node.useOp)));
      break;
    case 'TypeCast': {
      const typeName = node.typeName as { names?: unknown } | undefined;
      findings.types.push(qualified(strings(typeName?.names)));
      break;
    }
    case 'RangeVar': {
      const relation = node as { schemaname?: string; relname?: string };
      if (relation.relname !== undefined) {
        findings.relations.push(
          relation.schemaname === undefined
            ? { name: relation.relname }
            : { schema: relation.schemaname, name: relation.relname },
        );
        walk.rowNames.add(relation.relname);
      }
      break;
    }
    case 'RangeTableSample':
      findings.sampleMethods.push(...strings(node.method));
      break;
    case 'intoClause':
      findings.into = true;
      break;
    case 'lockingClause':
    case 'LockingClause':
      findings.locking = true;
      break;
  }
  const inner = nested || key === 'subquery' || key === 'subselect' || key === 'ctequery';
  for (const [childKey, child] of Object.entries(node)) visit(walk, child, childKey, key, outer, inner);
}

function onFunctionCall(walk: Walk, node: Node, outer: string | undefined, grand: string | undefined, nested: boolean) {
  const { findings } = walk;
  const first = (node.args as Node[] | undefined)?.[0] as { A_Const?: { sval?: { sval?: string } } } | undefined;
  const literal = first?.A_Const?.sval?.sval;
  const called = qualified(strings(node.funcname));
  findings.functions.push({ ...called, ...(literal === undefined ? {} : { literal }) });
  if (SIZED_FUNCTIONS.has(called.name.toLowerCase()) && (called.schema === undefined || called.schema === 'pg_catalog'))
    findings.sizedCalls.push({ name: called.name.toLowerCase(), args: (node.args as Node[] | undefined) ?? [] });
  // JSON of a whole row keeps each column's name beside its value, where the output guard reads it —
  // only when that JSON is itself an item of the statement's own select list: anywhere else
  // (jsonb_each_text(to_jsonb(u)), to_jsonb(u)->>'password', a cast, string_agg, a subquery
  // whose column an outer query takes apart) the keys are gone or the value is taken out.
  if (JSON_OF_ROWS.has(called.name.toLowerCase())) findings.unnamedColumns = true;
  if (JSON_OF_ROWS.has(called.name.toLowerCase()) && outer === 'val' && grand === 'ResTarget' && !nested) {
    for (const argument of (node.args as Node[] | undefined) ?? []) {
      const fields = (argument as { ColumnRef?: { fields?: unknown } }).ColumnRef?.fields;
      const names = strings(fields);
      if (names.length === 1) walk.columnAccesses.push(names[0]!);
      else if (names.length > 0) walk.keyedStars.add(names.join('.'));
    }
  }
}

function onColumnReference(walk: Walk, node: Node, outer: string | undefined) {
  const { findings } = walk;
  // a.b: column b of a, or b(a) when a has no column b (PostgreSQL tries both).
  const fields = strings(node.fields);
  findings.attributes.push(...fields.slice(1));
  const star = Array.isArray(node.fields) && (node.fields as Node[]).some((field) => 'A_Star' in field);
  if (star) findings.unnamedColumns = true;
  if (fields.length > 0) findings.columnNames.push(fields.at(-1)!);
  // u.* is the row's columns one by one in a target list (their names show); anywhere else it is one value.
  if (star && fields.length > 0 && outer !== 'val') findings.wholeRows.push(fields.join('.'));
  if (!star && fields.length === 1) walk.bareReferences.push(fields[0]!);
}

function onIndirection(walk: Walk, node: Node) {
  walk.findings.attributes.push(...strings(node.indirection));
  if (Array.isArray(node.indirection) && (node.indirection as Node[]).some((item) => 'A_Star' in item))
    walk.findings.unnamedColumns = true;
  // (u).id takes one named column of the row, not the whole row.
  const base = (node.arg as { ColumnRef?: { fields?: unknown } } | undefined)?.ColumnRef;
  const named = Array.isArray(node.indirection) && (node.indirection as Node[]).every((item) => 'String' in item);
  if (base !== undefined && named && strings(base.fields).length === 1)
    walk.columnAccesses.push(strings(base.fields)[0]!);
}

/**
 * A bare name that is also a relation's name or alias: PostgreSQL reads it as the whole row
 * (when the relation has no column of that name, which riskgate cannot always know: asked either way).
 */
function finish({ findings, rowNames, bareReferences, columnAccesses, keyedStars }: Walk): Findings {
  for (const name of columnAccesses) {
    const at = bareReferences.indexOf(name);
    if (at !== -1) bareReferences.splice(at, 1);
  }
  findings.wholeRows.push(...bareReferences.filter((name) => rowNames.has(name)));
  findings.wholeRows.splice(
    0,
    findings.wholeRows.length,
    ...findings.wholeRows.filter((name) => !keyedStars.has(name)),
  );
  return findings;
}

export function isDml(kind: string): boolean {
  return DML.has(kind);
}

/** `"schema"."name"`, quoted so that to_regclass reads it exactly as the statement did. */
export function quotedName(relation: RelationUse): string {
  const quote = (part: string) => `"${part.replaceAll('"', '""')}"`;
  return relation.schema === undefined ? quote(relation.name) : `${quote(relation.schema)}.${quote(relation.name)}`;
}

export function displayName(relation: RelationUse): string {
  return relation.schema === undefined ? relation.name : `${relation.schema}.${relation.name}`;
}
