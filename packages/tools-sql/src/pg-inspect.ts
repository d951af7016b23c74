/**
 * Walks libpg-query's tree and collects everything that can run code or read a relation, in
 * every place PostgreSQL allows it: calls (plain, qualified, in FROM, in defaults), attribute
 * notation (`(1234).pg_terminate_backend`, `f.pg_read_file`), operators, casts and relations.
 */

export type Node = Record<string, unknown>;

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
  into: boolean;
  locking: boolean;
}

const DML = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

function strings(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => (item as { String?: { sval?: string } }).String?.sval).filter((part): part is string => part !== undefined);
}

function qualified(parts: readonly string[]): { name: string; schema?: string } {
  const name = parts.at(-1) ?? '';
  const schema = parts.length > 1 ? parts.at(-2) : undefined;
  return schema === undefined ? { name } : { name, schema };
}

export function inspect(root: unknown): Findings {
  const findings: Findings = { dml: [], functions: [], attributes: [], operators: [], types: [], relations: [], sampleMethods: [], into: false, locking: false };
  const visit = (value: unknown, key: string | undefined) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, undefined);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Node;
    switch (key) {
      case 'InsertStmt':
      case 'UpdateStmt':
      case 'DeleteStmt':
      case 'MergeStmt':
        findings.dml.push({ kind: key, node });
        break;
      case 'FuncCall': {
        const first = (node.args as Node[] | undefined)?.[0] as { A_Const?: { sval?: { sval?: string } } } | undefined;
        const literal = first?.A_Const?.sval?.sval;
        findings.functions.push({ ...qualified(strings(node.funcname)), ...(literal === undefined ? {} : { literal }) });
        break;
      }
      case 'ColumnRef':
        // a.b: column b of a, or b(a) when a has no column b (PostgreSQL tries both).
        findings.attributes.push(...strings(node.fields).slice(1));
        break;
      case 'A_Indirection':
        findings.attributes.push(...strings(node.indirection));
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
        if (relation.relname !== undefined) findings.relations.push(relation.schemaname === undefined ? { name: relation.relname } : { schema: relation.schemaname, name: relation.relname });
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
    for (const [childKey, child] of Object.entries(node)) visit(child, childKey);
  };
  visit(root, undefined);
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
