import { maxRiskLevel, type RiskLevel } from '@riskgate/risk';
import { hasSideEffects } from './side-effect-functions.js';
import { readStatement, type StatementAnalysis, writeStatement } from './statement-analysis.js';

type Node = Record<string, unknown>;

const DML = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

interface Findings {
  dml: { kind: string; node: Node }[];
  functions: string[];
  into: boolean;
  locking: boolean;
}

/** Everything inside a node that matters for safety, wherever it sits (subqueries, CTEs, …). */
function inspect(root: unknown): Findings {
  const findings: Findings = { dml: [], functions: [], into: false, locking: false };
  const visit = (value: unknown, key: string | undefined) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, undefined);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Node;
    if (key !== undefined && DML.has(key)) findings.dml.push({ kind: key, node });
    if (key === 'FuncCall') {
      const name = functionName(node);
      if (name !== undefined) findings.functions.push(name);
    }
    if (key === 'intoClause') findings.into = true;
    if (key === 'lockingClause' || key === 'LockingClause') findings.locking = true;
    for (const [childKey, child] of Object.entries(node)) visit(child, childKey);
  };
  visit(root, undefined);
  return findings;
}

function functionName(funcCall: Node): string | undefined {
  const parts = funcCall.funcname as Node[] | undefined;
  const last = parts?.at(-1) as { String?: { sval?: string } } | undefined;
  return last?.String?.sval?.toLowerCase();
}

export function relationName(relation: unknown): string {
  const range = relation as { schemaname?: string; relname?: string } | undefined;
  if (range?.relname === undefined) return 'a table';
  return range.schemaname === undefined ? range.relname : `${range.schemaname}.${range.relname}`;
}

/** Judge one statement of libpg-query's AST. `verb` is its first keyword, for messages. */
export function analyzePostgresStatement(statement: Node, subject: string, verb: string): StatementAnalysis {
  const [kind, value] = Object.entries(statement)[0] ?? ['Unknown', {}];
  const node = (value ?? {}) as Node;
  const findings = inspect(node);
  const sideEffects = [...new Set(findings.functions.filter(hasSideEffects))];

  switch (kind) {
    case 'SelectStmt': {
      if (findings.dml.length > 0) {
        const inner = findings.dml.map((dml) => analyzePostgresStatement({ [dml.kind]: dml.node }, subject, dml.kind.replace('Stmt', '').toUpperCase()));
        const level = maxRiskLevel(...inner.map((analysis) => analysis.level));
        return writeStatement(subject, level, [
          'a data-modifying WITH clause changes data even inside a SELECT',
          ...inner.flatMap((analysis) => analysis.reasons),
        ]);
      }
      if (findings.into) return writeStatement(subject, 'medium', ['SELECT … INTO creates a new table']);
      if (findings.locking) return writeStatement(subject, 'medium', ['SELECT … FOR UPDATE/SHARE locks rows for writing']);
      if (sideEffects.length > 0) return sideEffectStatement(subject, sideEffects);
      return readStatement(subject);
    }
    case 'VariableShowStmt':
      return readStatement(subject);
    case 'ExplainStmt': {
      const inner = analyzePostgresStatement((node.query ?? {}) as Node, subject, 'statement');
      if (inner.readOnly) return readStatement(subject);
      if (explainAnalyzes(node)) {
        return writeStatement(subject, inner.level, ['EXPLAIN ANALYZE executes the statement it explains', ...inner.reasons]);
      }
      return writeStatement(subject, 'low', ['EXPLAIN of a statement that writes: it only plans it, but is not on the whitelist']);
    }
    case 'DeleteStmt':
    case 'UpdateStmt': {
      const table = relationName(node.relation);
      if (sideEffects.length > 0) return sideEffectStatement(subject, sideEffects, 'high');
      return filteredWrite(kind === 'DeleteStmt' ? 'DELETE' : 'UPDATE', table, node.whereClause !== undefined, subject);
    }
    case 'InsertStmt': {
      const table = relationName(node.relation);
      if (sideEffects.length > 0) return sideEffectStatement(subject, sideEffects, 'high');
      return writeStatement(subject, 'medium', [`INSERT adds rows to ${table}`], { writeTarget: table, previewable: true });
    }
    case 'MergeStmt': {
      const table = relationName(node.relation);
      return writeStatement(subject, 'medium', [`MERGE inserts, updates or deletes rows of ${table}`], { writeTarget: table, previewable: sideEffects.length === 0 });
    }
    case 'DropStmt':
      return writeStatement(subject, 'high', [dropReason(node, subject)]);
    case 'TruncateStmt': {
      const tables = ((node.relations as Node[] | undefined) ?? []).map((relation) => relationName((relation as Node).RangeVar));
      return writeStatement(subject, 'high', [`TRUNCATE removes every row of ${tables.join(', ') || 'the table'}`]);
    }
    case 'CopyStmt': {
      if (node.is_program === true) return writeStatement(subject, 'high', ['COPY … PROGRAM runs a shell command on the database server']);
      if (typeof node.filename === 'string') return writeStatement(subject, 'high', [`COPY ${node.is_from === true ? 'reads' : 'writes'} the server file ${node.filename}`]);
      if (node.is_from === true) return writeStatement(subject, 'medium', [`COPY FROM loads rows into ${relationName(node.relation)}`]);
      return writeStatement(subject, 'medium', ['COPY is not on the whitelist']);
    }
    case 'TransactionStmt':
      return writeStatement(subject, 'medium', [`transaction control (${verb}) is not on the whitelist`]);
    case 'DoStmt':
      return writeStatement(subject, 'high', ['DO runs a block of procedural code']);
    case 'CallStmt':
      return writeStatement(subject, 'high', ['CALL runs a stored procedure, which may change anything']);
    case 'VariableSetStmt':
      return writeStatement(subject, 'medium', ['SET changes a setting of the session']);
    case 'GrantStmt':
    case 'GrantRoleStmt':
      return writeStatement(subject, 'high', [`${node.is_grant === true ? 'GRANT' : 'REVOKE'} changes who may do what`]);
    case 'DropdbStmt':
      return writeStatement(subject, 'high', ['DROP DATABASE removes a whole database']);
    case 'RenameStmt':
      return writeStatement(subject, 'high', ['RENAME changes names that queries and applications depend on']);
    default:
      if (kind.startsWith('Alter')) return writeStatement(subject, 'high', [`${verb} changes the structure or definition of the database`]);
      if (kind.startsWith('Drop') || kind.startsWith('ReassignOwned')) return writeStatement(subject, 'high', [`${verb} removes database objects`]);
      if (kind.startsWith('Create') || kind === 'IndexStmt' || kind === 'ViewStmt') {
        return writeStatement(subject, 'medium', [`${verb} creates database objects`]);
      }
      return writeStatement(subject, 'medium', [`${verb || kind} is not on the whitelist`]);
  }
}

/** DELETE or UPDATE: every row without WHERE (high), the matching rows with it (medium). */
export function filteredWrite(verb: 'DELETE' | 'UPDATE', table: string, hasWhere: boolean, subject: string): StatementAnalysis {
  const action = verb === 'DELETE' ? 'removes' : 'changes';
  return hasWhere
    ? writeStatement(subject, 'medium', [`${verb} ${action} the rows of ${table} that match its WHERE`], { writeTarget: table, previewable: true })
    : writeStatement(subject, 'high', [`${verb} without WHERE ${action} every row of ${table}`], { writeTarget: table, previewable: true });
}

function sideEffectStatement(subject: string, functions: readonly string[], level: RiskLevel = 'high'): StatementAnalysis {
  return writeStatement(subject, level, [
    `calls ${functions.join(', ')}, which ${functions.length === 1 ? 'acts' : 'act'} beyond reading data`,
  ]);
}

/**
 * Whether EXPLAIN runs the statement: ANALYZE given bare, or with a value PostgreSQL reads as
 * true. Only an explicit false, off or 0 turns it off; anything else counts as on (the
 * conservative reading: the statement would execute).
 */
function explainAnalyzes(explain: Node): boolean {
  const options = (explain.options as Node[] | undefined) ?? [];
  return options.some((option) => {
    const element = option.DefElem as { defname?: string; arg?: { String?: { sval?: string }; Integer?: { ival?: number }; Boolean?: { boolval?: boolean } } } | undefined;
    if (element?.defname !== 'analyze') return false;
    const { arg } = element;
    if (arg === undefined) return true;
    if (arg.String !== undefined) return !['false', 'off', '0'].includes((arg.String.sval ?? '').toLowerCase());
    // libpg-query leaves ival out when it is 0.
    if (arg.Integer !== undefined) return (arg.Integer.ival ?? 0) !== 0;
    if (arg.Boolean !== undefined) return arg.Boolean.boolval === true;
    return true;
  });
}

function dropReason(drop: Node, subject: string): string {
  const objects = ((drop.objects as unknown[] | undefined) ?? []).map(objectName).filter((name) => name !== '');
  const what = /^DROP\s+(\w+(?:\s+VIEW)?)/i.exec(subject)?.[1]?.toUpperCase() ?? 'object';
  const names = objects.length > 0 ? objects.join(', ') : 'the object';
  return what === 'TABLE' ? `DROP TABLE removes ${names} and all ${objects.length > 1 ? 'their' : 'its'} rows` : `DROP ${what} removes ${names}`;
}

function objectName(object: unknown): string {
  const list = (object as { List?: { items?: Node[] } }).List?.items ?? (Array.isArray(object) ? (object as Node[]) : []);
  const parts = list.map((item) => (item as { String?: { sval?: string } }).String?.sval).filter((part): part is string => part !== undefined);
  if (parts.length > 0) return parts.join('.');
  const single = (object as { String?: { sval?: string } }).String?.sval;
  return single ?? '';
}

